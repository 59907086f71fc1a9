/**
 * Processes put on one CPU (Linux's taskset), so that a test can make a process wait for a CPU as
 * it would on a machine busy with other work, whatever the machine's cores.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';

/** Whether processes can be put on one CPU here. */
export const canPinToOneCpu =
  process.platform === 'linux' && spawnSync('taskset', ['--version']).status === 0;

/**
 * A process at normal priority, on CPU 0, that keeps it busy until killed; resolves once it is
 * running (`onStart` sees it first, so a test can end it whatever happens next).
 */
export async function spinOnCpu0(onStart?: (child: ChildProcess) => void): Promise<ChildProcess> {
  const child = spawn(
    'taskset',
    ['-c', '0', process.execPath, '-e', "process.stdout.write('spinning\\n'); for (;;);"],
    { stdio: ['ignore', 'pipe', 'ignore'] },
  );
  onStart?.(child);
  await once(child.stdout!, 'data');
  return child;
}

/** Moves every thread of a running process onto CPU 0. */
export function pinToCpu0(pid: number): void {
  spawnSync('taskset', ['-a', '-p', '-c', '0', String(pid)], { stdio: 'ignore' });
}
