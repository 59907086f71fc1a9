/**
 * The document reader's time, as its limit counts it. The limit is CPU time, which the reader
 * reports itself (reportCpuTime, CpuReports) on every system; its wall-time backstop leaves out
 * the time the reader waited for a CPU where the system tells another process that (CpuWait,
 * Linux /proc). The reader runs at the lowest priority, so on a busy machine its wall time says
 * more about the machine than about the document.
 */
import { readdirSync, readFileSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { Worker } from 'node:worker_threads';
import { eachLine } from './child-lines';

/**
 * The reader's end of the pipe its CPU time is reported on: the first descriptor after stdin,
 * stdout, stderr and the IPC channel (document-reader.ts forks it so).
 */
export const CPU_REPORT_FD = 4;
const REPORT_EVERY_MS = 100;

/**
 * A thread that writes the CPU time of this whole process (all threads, in milliseconds) to
 * `fd`, one line every `everyMs`. A thread of its own, so a main thread busy in pdf.js or OCR
 * never holds a report up; it writes synchronously, so no event loop but its own is involved.
 * Plain JavaScript evaluated in the thread: the same text runs from source and from the build.
 */
export function reportCpuTime(fd = CPU_REPORT_FD, everyMs = REPORT_EVERY_MS): Worker {
  const thread = new Worker(
    `const { writeSync } = require('node:fs');
     const { fd, everyMs } = require('node:worker_threads').workerData;
     const timer = setInterval(() => {
       const { user, system } = process.cpuUsage();
       try {
         writeSync(fd, Math.round((user + system) / 1000) + '\\n');
       } catch {
         clearInterval(timer); // Nobody reads the pipe (the service went away).
       }
     }, everyMs);`,
    { eval: true, workerData: { fd, everyMs } },
  );
  // Without reports the read still ends at its wall-time backstop: say so, and read on.
  thread.on('error', (err) => console.error(`CPU time reports stopped: ${err.message}`));
  // The reports never keep the reader's process up.
  thread.unref();
  return thread;
}

/** The CPU time a process reports on `stream` (reportCpuTime), as last reported. */
export class CpuReports {
  private latestMs = 0;

  constructor(stream: Readable | null | undefined) {
    eachLine(stream, (line) => {
      // Anything but a count of milliseconds is not a report; CPU time never goes back.
      if (/^\d{1,15}$/.test(line)) this.latestMs = Math.max(this.latestMs, Number(line));
    });
  }

  /** Milliseconds of CPU the process had used at its last report; 0 before its first. */
  get cpuMs(): number {
    return this.latestMs;
  }
}

/**
 * The time a process's threads have spent ready to run but waiting for a CPU, since this was
 * made: the second field of each thread's /proc/<pid>/task/<tid>/schedstat, in nanoseconds.
 * Counted per thread, so a thread that ends takes with it only what it waited since the reading
 * before.
 */
export class CpuWait {
  /** The last reading of each thread seen; threads started later count from zero. */
  private readonly byThread = new Map<string, number>();
  private totalNs = 0;

  constructor(private readonly pid: number) {
    this.read();
    this.totalNs = 0;
  }

  /** Milliseconds waited since this was made; 0 where the system does not tell. */
  waitedMs(): number {
    this.read();
    return this.totalNs / 1e6;
  }

  private read(): void {
    let threads: string[];
    try {
      threads = readdirSync(`/proc/${this.pid}/task`);
    } catch {
      return; // Not Linux, or the process is gone.
    }
    for (const thread of threads) {
      let waitedNs: number;
      try {
        waitedNs = Number(
          readFileSync(`/proc/${this.pid}/task/${thread}/schedstat`, 'utf8').split(' ')[1],
        );
      } catch {
        continue; // Ended meanwhile, or no scheduler statistics in this kernel.
      }
      if (!Number.isFinite(waitedNs)) continue;
      this.totalNs += Math.max(0, waitedNs - (this.byThread.get(thread) ?? 0));
      this.byThread.set(thread, waitedNs);
    }
  }
}
