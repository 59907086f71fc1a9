/**
 * The document reader's time as its limit counts it: the CPU time the reader reports from a
 * thread of its own (on every system), and the time it waited for a CPU (Linux /proc).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { setPriority } from 'node:os';
import { PassThrough, type Readable } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CPU_REPORT_FD, CpuReports, CpuWait } from '../../../src/service/documents/process-cpu';
import { childCommand } from '../../support/built-child';
import { canPinToOneCpu, spinOnCpu0 } from '../../support/one-cpu';

const children: ChildProcess[] = [];
const keep = (child: ChildProcess) => {
  children.push(child);
  return child;
};

afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

const REPORTING = new URL('../../support/cpu-reporting-process.ts', import.meta.url);

/** A process reporting its CPU time on CPU_REPORT_FD, as the reader is started; once it runs. */
async function reportingProcess(mode: 'busy' | 'idle') {
  const command = await childCommand(REPORTING);
  const child = keep(
    spawn(process.execPath, [...command.args, mode], {
      env: command.env,
      stdio: ['ignore', 'pipe', 'inherit', 'ignore', 'pipe'],
    }),
  );
  const reports = new CpuReports(child.stdio[CPU_REPORT_FD] as Readable);
  await once(child.stdout!, 'data');
  return { child, reports };
}

/** A reporting process that sleeps, once its start (which costs CPU) is over. */
async function sleepingProcess() {
  const sleeping = await reportingProcess('idle');
  let last = -1;
  await vi.waitFor(
    () => {
      const settled = sleeping.reports.cpuMs > 0 && sleeping.reports.cpuMs === last;
      last = sleeping.reports.cpuMs;
      expect(settled).toBe(true);
    },
    { timeout: 30_000, interval: 300 },
  );
  return sleeping;
}

describe('CpuReports', () => {
  it('hears the CPU time of a process whose main thread never yields', async () => {
    const { reports } = await reportingProcess('busy');
    const atStart = reports.cpuMs;
    await vi.waitFor(() => expect(reports.cpuMs - atStart).toBeGreaterThanOrEqual(300), {
      timeout: 60_000,
      interval: 50,
    });
  });

  it('hears next to nothing more from a process that sleeps', async () => {
    const { reports } = await sleepingProcess();
    const last = reports.cpuMs;
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(reports.cpuMs - last).toBeLessThanOrEqual(10);
  });

  it('takes only counts of milliseconds, and never goes back', async () => {
    const stream = new PassThrough();
    const reports = new CpuReports(stream);
    expect(reports.cpuMs).toBe(0);
    const heard = (line: string, cpuMs: number) =>
      new Promise<void>((resolve) => {
        stream.write(`${line}\n`);
        setImmediate(() => {
          expect(reports.cpuMs).toBe(cpuMs);
          resolve();
        });
      });
    await heard('120', 120);
    await heard('Warning: 5000 glyphs', 120);
    await heard('-1', 120);
    await heard('1e9', 120);
    await heard('80', 120);
    await heard('250', 250);
  });
});

describe.skipIf(!canPinToOneCpu)('CpuWait', () => {
  it('counts the time a process is ready to run but waits for a CPU', async () => {
    // Two busy processes on one CPU, the measured one at the lowest priority: it waits.
    await spinOnCpu0(keep);
    const measured = await spinOnCpu0(keep);
    setPriority(measured.pid!, 19);
    const wait = new CpuWait(measured.pid!);
    await vi.waitFor(() => expect(wait.waitedMs()).toBeGreaterThanOrEqual(300), {
      timeout: 30_000,
      interval: 50,
    });
  });

  it('does not count the time a process sleeps', async () => {
    const { child } = await sleepingProcess();
    const wait = new CpuWait(child.pid!);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(wait.waitedMs()).toBeLessThan(50);
  });
});
