/**
 * Headless entry points for the `quayside` command:
 *   quayside sync --base-url URL --api-key KEY --data-dir DIR [--watch]
 *   quayside export containers --data-dir DIR --format csv
 */
import type { Writable } from 'node:stream';
import { systemClock, type Clock } from '../../shared/clock';
import { AlertCenter } from '../alerts/alert-center';
import type { Notifier } from '../alerts/notifier';
import { Cache } from '../cache/cache';
import type { ContainerQuery } from '../cache/board-query';
import { containersCsv } from '../cache/csv';
import { SyncEngine, type SyncResult } from './engine';
import { privateDataDir } from '../private-data';

export interface SyncCommandOptions {
  baseUrl: string;
  apiKey: string;
  dataDir: string;
  watch?: boolean;
  /** Minutes between runs with `watch`. */
  intervalMinutes?: number;
  clock?: Clock;
  out?: Writable;
  pageSize?: number;
  /** With `watch`: resolves to stop watching (default: SIGINT / SIGTERM). */
  until?: Promise<void>;
}

const consoleNotifier = (out: Writable): Notifier => ({
  notify: (n) => void out.write(`alert: ${n.title}: ${n.body.replace(/\n/g, '; ')}\n`),
});

export const summaryLine = (r: SyncResult): string =>
  `synced ${r.shipments} shipments, ${r.containers} containers, ${r.events} events in ${r.requests} requests`;

/** Syncs the cache in `dataDir` and prints a summary line per run. */
export async function runSyncCommand(options: SyncCommandOptions): Promise<SyncResult> {
  const out = options.out ?? process.stdout;
  const clock = options.clock ?? systemClock;
  privateDataDir(options.dataDir);
  const cache = Cache.open(options.dataDir);
  const alerts = new AlertCenter(cache, consoleNotifier(out), clock);
  const engine = new SyncEngine({
    cache,
    clock,
    alerts,
    pageSize: options.pageSize,
    connection: () => ({ baseUrl: options.baseUrl, apiKey: options.apiKey }),
    onSkipped: (s) => void out.write(`skipped ${s.type} ${s.id ?? '(no id)'}: ${s.reason}\n`),
  });
  // The client's waits between retries run on the clock's timers, which never keep a process
  // alive on their own (see below): without this hold a one-shot sync against a service that
  // does not answer ended in the middle of its retries, with no message.
  const releaseRun = holdProcessOpen();
  try {
    let result: SyncResult;
    try {
      result = await engine.sync();
    } finally {
      releaseRun();
    }
    out.write(`${summaryLine(result)}\n`);
    if (!options.watch) return result;
    const stop =
      options.until ??
      new Promise<void>((resolve) => {
        process.once('SIGINT', () => resolve());
        process.once('SIGTERM', () => resolve());
      });
    // The scheduler's timers never keep a process alive on their own (the app quits when its
    // windows close); watching is the one job of this process, so it holds itself open.
    const release = holdProcessOpen();
    try {
      engine.start((options.intervalMinutes ?? 5) * 60_000, {
        firstRunNow: false,
        onRun: (outcome) => {
          if (outcome.ok) {
            result = outcome.result;
            out.write(`${summaryLine(result)}\n`);
          } else out.write(`sync failed: ${describe(outcome.error)}\n`);
        },
      });
      await stop;
      engine.stop();
      await engine.settled();
    } finally {
      release();
    }
    return result;
  } finally {
    engine.stop();
    cache.close();
  }
}

const describe = (error: unknown): string =>
  error instanceof Error ? error.message : String(error);

/** Keeps the event loop alive until the returned function is called. */
function holdProcessOpen(): () => void {
  const handle = setInterval(() => undefined, 2 ** 30);
  return () => clearInterval(handle);
}

/** Writes the container board (optionally filtered) as CSV to `out`. Returns the row count. */
export async function exportContainersCsv(
  dataDir: string,
  out: Writable,
  query: ContainerQuery = {},
  clock: Clock = systemClock,
): Promise<number> {
  const cache = Cache.open(dataDir);
  let rows = -1;
  try {
    for (const line of containersCsv(cache.board, query, clock.now())) {
      rows++;
      if (!out.write(line)) await new Promise<void>((resolve) => out.once('drain', resolve));
    }
  } finally {
    cache.close();
  }
  return rows;
}
