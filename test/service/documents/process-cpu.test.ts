/**
 * The CPU time of another process, and the time it waited for a CPU, as the document reader's
 * time limit counts them (Linux /proc).
 */
import { spawn } from 'node:child_process';
import { setPriority } from 'node:os';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CpuWait, processCpuMs } from '../../../src/service/documents/process-cpu';
import { canPinToOneCpu, spinOnCpu0 } from '../../support/one-cpu';

const children: ReturnType<typeof spawn>[] = [];
const started = (child: ReturnType<typeof spawn>) => {
  children.push(child);
  return child.pid!;
};
const node = (code: string) => started(spawn(process.execPath, ['-e', code], { stdio: 'ignore' }));

afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

describe.skipIf(process.platform !== 'linux')('processCpuMs', () => {
  it('counts the CPU time of a process that works', async () => {
    const pid = node('for (;;) {}');
    await vi.waitFor(() => expect(processCpuMs(pid)).toBeGreaterThanOrEqual(300), {
      timeout: 30_000,
      interval: 50,
    });
  });

  it('does not count the time a process spends waiting', async () => {
    const pid = node('setTimeout(() => {}, 60_000)');
    // Once started (its start costs CPU), the sleeping process adds next to nothing.
    let last = -1;
    await vi.waitFor(
      () => {
        const now = processCpuMs(pid)!;
        const settled = now === last;
        last = now;
        expect(settled).toBe(true);
      },
      { timeout: 30_000, interval: 200 },
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(processCpuMs(pid)! - last).toBeLessThanOrEqual(10);
  });

  it('answers undefined for a process that has ended', async () => {
    const child = spawn(process.execPath, ['-e', '']);
    await new Promise((resolve) => child.once('exit', resolve));
    await vi.waitFor(() => expect(processCpuMs(child.pid!)).toBeUndefined(), { timeout: 10_000 });
  });
});

describe.skipIf(!canPinToOneCpu)('CpuWait', () => {
  it('counts the time a process is ready to run but waits for a CPU', async () => {
    // Two busy processes on one CPU, the measured one at the lowest priority: it waits.
    started(spinOnCpu0());
    const pid = started(spinOnCpu0());
    setPriority(pid, 19);
    const wait = new CpuWait(pid);
    await vi.waitFor(() => expect(wait.waitedMs()).toBeGreaterThanOrEqual(300), {
      timeout: 30_000,
      interval: 50,
    });
  });

  it('does not count the time a process sleeps', async () => {
    const pid = node('setTimeout(() => {}, 60_000)');
    await vi.waitFor(() => expect(processCpuMs(pid)).toBeGreaterThan(0), { timeout: 30_000 });
    const wait = new CpuWait(pid);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(wait.waitedMs()).toBeLessThan(50);
  });
});
