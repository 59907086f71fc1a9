/**
 * The CPU time a process has used, and the time it has waited for a CPU, where the system tells
 * another process (Linux: /proc). The document reader's time limit is counted in CPU time, and
 * its wall-time backstop leaves out the time spent waiting for a CPU: the reader runs at the
 * lowest priority, so on a busy machine its wall time says more about the machine than about the
 * document.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** /proc reports CPU time in USER_HZ ticks, 100 a second on every Linux ABI. */
const MS_PER_TICK = 10;

/** Milliseconds of CPU (user and system) process `pid` has used; undefined where unknown. */
export function processCpuMs(pid: number): number | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined; // Not Linux, or the process is gone.
  }
  // The command name (field 2) may hold spaces: count the fields after its closing parenthesis,
  // where field 3 (state) comes first, so utime (14) and stime (15) are the 12th and 13th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return Number.isFinite(ticks) ? ticks * MS_PER_TICK : undefined;
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
