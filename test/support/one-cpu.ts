/**
 * Processes put on one CPU (Linux's taskset), so that a test can make a process wait for a CPU as
 * it would on a machine busy with other work, whatever the machine's cores.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';

/** Whether processes can be put on one CPU here. */
export const canPinToOneCpu =
  process.platform === 'linux' && spawnSync('taskset', ['--version']).status === 0;

/** A process at normal priority, on CPU 0, that keeps it busy until killed. */
export function spinOnCpu0(): ChildProcess {
  return spawn('taskset', ['-c', '0', process.execPath, '-e', 'for (;;) {}'], { stdio: 'ignore' });
}

/** Moves every thread of a running process onto CPU 0. */
export function pinToCpu0(pid: number): void {
  spawnSync('taskset', ['-a', '-p', '-c', '0', String(pid)], { stdio: 'ignore' });
}
