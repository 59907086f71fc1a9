/**
 * The CPU time a process has used, where the system tells another process (Linux: /proc). The
 * document reader's time limit is counted in it: the reader runs at the lowest priority, so on a
 * busy machine its wall time says more about the machine than about the document.
 */
import { readFileSync } from 'node:fs';

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
