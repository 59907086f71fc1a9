/**
 * Desktop sync against a service holding 10k containers with 200k transport events (the service
 * runs in its own process, as it does in production):
 *
 * - full sync into an empty cache, as a ratio to fetching and JSON-parsing the very same pages
 *   (the URLs the sync requested, replayed in order) without validation or writes; target <= 2.0
 * - incremental sync after 100 containers changed, against the same kind of bare transfer; target
 *   <= 1.5 (issue 39) in at most 2 requests
 * - main-thread event-loop lag p99 during the full sync (perf_hooks.monitorEventLoopDelay), as a
 *   ratio to the p99 of the same loop idle; target (issue 22): p99 at most 16 ms absolute. Sampled
 *   every millisecond: a sample reads as the resolution plus the delay, so a coarser resolution
 *   would add itself to every reading.
 * - peak RSS of the app side after a full sync, and of the service holding the data, each as a
 *   ratio to the same process with the same modules loaded but no data
 *
 *   npx tsx bench/sync.ts [--quick]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { systemClock } from '../src/shared/clock';
import { Cache } from '../src/main/cache/cache';
import { SyncEngine, type SyncResult } from '../src/main/sync/engine';
import { CURSOR_KEYS, walkPath } from '../src/main/sync/records';
import { quick } from './lib/load';
import { median, reportResult } from './lib/report';
import { seedInChild, serveInChild, type ChildService } from './lib/service-process';

const CONTAINERS = 10_000;
const EVENTS_PER_CONTAINER = 20;
const FULL_RUNS = quick ? 1 : 3;
const INCREMENTAL_RUNS = 5;
const CHANGED = 100;
/** The sync's page size, which the primer's paths repeat. */
const PAGE_SIZE = 100;
const LAG_RESOLUTION_MS = 1;
/** The bound on the main thread's event-loop lag p99 during a full sync. */
const LAG_TARGET_MS = 16;
const MB = 1024 * 1024;

// Every URL the sync engine fetches is recorded, so the baseline replays exactly those pages.
let recording: string[] | null = null;
const realFetch = globalThis.fetch;
globalThis.fetch = (input, init) => {
  if (recording) recording.push(input instanceof Request ? input.url : String(input));
  return realFetch(input, init);
};

async function bareTransfer(urls: string[], key: string): Promise<number> {
  const started = performance.now();
  for (const url of urls) {
    const response = await realFetch(url, {
      headers: { Authorization: `Token ${key}`, Accept: 'application/vnd.api+json' },
    });
    JSON.parse(await response.text());
  }
  return performance.now() - started;
}

/**
 * Reads the pages the next incremental sync will ask for once, unmeasured (the same paths: its
 * cursors, its includes). The service keeps rendered resources, key reads and totals until they
 * change, so the first reader after a change pays for them and later ones are served the copy.
 * Without this the sync would always be that first reader and its bare replay a later one: the
 * ratio would count the service's rendering against the app.
 */
async function primeService(
  baseUrl: string,
  key: string,
  cache: Cache,
  customFields: boolean,
): Promise<void> {
  for (const kind of ['shipments', 'containers'] as const) {
    const cursor = cache.getState<string>(CURSOR_KEYS[kind]);
    const path = walkPath(kind, { pageSize: PAGE_SIZE, cursor, customFields });
    await (
      await realFetch(`${baseUrl}/${path}`, { headers: { Authorization: `Token ${key}` } })
    ).text();
  }
}

async function timedSync(
  engine: SyncEngine,
): Promise<{ ms: number; urls: string[]; result: SyncResult }> {
  recording = [];
  const started = performance.now();
  const result = await engine.sync();
  const ms = performance.now() - started;
  const urls = recording;
  recording = null;
  return { ms, urls, result };
}

function lagMonitor() {
  const histogram = monitorEventLoopDelay({ resolution: LAG_RESOLUTION_MS });
  histogram.enable();
  return () => {
    histogram.disable();
    return { p99: histogram.percentile(99) / 1e6, max: histogram.max / 1e6 };
  };
}

const gc = (globalThis as { gc?: () => void }).gc;
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'quayside-bench-sync-'));
let service: ChildService | null = null;
try {
  // The app side with its modules loaded and an empty cache open, and an idle loop.
  const emptyCache = Cache.open(path.join(root, 'empty-cache'));
  emptyCache.close();
  gc?.();
  const appIdleRss = process.memoryUsage().rss;
  const idleLag = lagMonitor();
  await sleep(quick ? 1000 : 3000);
  const idle = idleLag();

  // The service with no data, for its memory baseline.
  const emptyService = await serveInChild(path.join(root, 'empty-service'), null);
  const serviceIdle = await emptyService.memory();
  await emptyService.close();

  const dataDir = path.join(root, 'service');
  const t0 = performance.now();
  const key = await seedInChild(dataDir, {
    containers: CONTAINERS,
    containersPerShipment: 4,
    transportEventsPerContainer: EVENTS_PER_CONTAINER,
    rawEventsPerContainer: 2,
  });
  console.log(
    `seeded ${CONTAINERS} containers, ${CONTAINERS * EVENTS_PER_CONTAINER} transport events in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );
  service = await serveInChild(dataDir, key);
  const connection = { baseUrl: service.baseUrl, apiKey: key };

  const open = (n: number) => {
    const cache = Cache.open(path.join(root, `cache-${n}`));
    return {
      cache,
      engine: new SyncEngine({
        cache,
        clock: systemClock,
        connection: () => connection,
        pageSize: PAGE_SIZE,
      }),
    };
  };

  // Full syncs, each into a new empty cache, alternating with the bare transfer of its pages.
  const fullMs: number[] = [];
  const fullBare: number[] = [];
  let lag = { p99: 0, max: 0 };
  let appPeakRss = 0;
  let kept: ReturnType<typeof open> | null = null;
  /** Whether the walks ask for custom fields (the service offers them), as the primer must. */
  let customFields = false;
  for (let run = 0; run < FULL_RUNS; run++) {
    const side = open(run);
    const stopLag = lagMonitor();
    const { ms, urls, result } = await timedSync(side.engine);
    const runLag = stopLag();
    if (result.containers !== CONTAINERS || result.events !== CONTAINERS * EVENTS_PER_CONTAINER) {
      throw new Error(`sync incomplete: ${JSON.stringify(result)}`);
    }
    if (run === 0) {
      appPeakRss = process.resourceUsage().maxRSS * 1024;
      lag = runLag;
    } else if (runLag.p99 > lag.p99) lag = runLag;
    const bare = await bareTransfer(urls, key);
    fullMs.push(ms);
    fullBare.push(bare);
    console.log(
      `full sync run ${run + 1}: ${(ms / 1000).toFixed(1)} s (${urls.length} requests), bare transfer ${(bare / 1000).toFixed(1)} s, ratio ${(ms / bare).toFixed(2)}, loop lag p99 ${runLag.p99.toFixed(1)} ms`,
    );
    if (kept) kept.cache.close();
    kept = side;
    customFields = urls.some((url) => url.includes('custom_fields'));
  }
  const serviceMemory = await service.memory();

  reportResult({
    name: 'full sync (10k containers, 200k events)',
    value: median(fullMs),
    baseline: median(fullBare),
    unit: 'ms',
    target: { max: 2.0 },
    note: `median of ${FULL_RUNS}; baseline: the same ${CONTAINERS / 100 + CONTAINERS / 400}+ page URLs fetched and JSON-parsed in order, no validation or writes`,
  });

  // Incremental syncs on the last filled cache, after changing 100 containers each time.
  const incMs: number[] = [];
  const incBare: number[] = [];
  const incRequests: number[] = [];
  for (let run = 0; run < INCREMENTAL_RUNS; run++) {
    await service.touch(CHANGED, run);
    await primeService(service.baseUrl, key, kept!.cache, customFields);
    const { ms, urls, result } = await timedSync(kept!.engine);
    if (result.mode !== 'incremental' || result.changedContainers !== CHANGED) {
      throw new Error(
        `unexpected incremental sync: ${JSON.stringify({ ...result, skipped: undefined })}`,
      );
    }
    const bare = await bareTransfer(urls, key);
    incMs.push(ms);
    incBare.push(bare);
    incRequests.push(urls.length);
    console.log(
      `incremental sync run ${run + 1}: ${ms.toFixed(0)} ms (${urls.length} requests), bare transfer ${bare.toFixed(0)} ms`,
    );
  }
  kept?.cache.close();
  reportResult({
    name: `incremental sync (${CHANGED} changed containers)`,
    value: median(incMs),
    baseline: median(incBare),
    unit: 'ms',
    target: { max: 1.5 },
    note: `median of ${INCREMENTAL_RUNS}; baseline: the same page URLs fetched and JSON-parsed. Before each run the pages the sync will ask for (its paths, cursors and includes) are read once, unmeasured, so the sync and its replay find the service with the same rendered copies, key reads and totals.`,
  });
  reportResult({
    name: `incremental sync requests (${CHANGED} changed of ${CONTAINERS / 1000}k)`,
    value: Math.max(...incRequests),
    baseline: 2,
    unit: 'requests',
    target: { max: 1 },
    note: `the most requests one incremental sync made, against the goal of at most 2 (issues 22 and 39).`,
  });

  reportResult({
    name: 'sync event-loop lag p99 (app main thread)',
    value: lag.p99,
    baseline: idle.p99,
    unit: 'ms',
    // The target is absolute; as a ratio to the idle loop that is:
    target: { max: LAG_TARGET_MS / idle.p99 },
    note: `p99 ${lag.p99.toFixed(1)} ms (max ${lag.max.toFixed(1)} ms) during the worst full sync vs ${idle.p99.toFixed(1)} ms idle, monitorEventLoopDelay resolution ${LAG_RESOLUTION_MS} ms (a reading is the resolution plus the delay); target p99 <= ${LAG_TARGET_MS} ms absolute, shown as the ratio ${LAG_TARGET_MS} / idle p99`,
  });
  reportResult({
    name: 'app peak RSS after full sync',
    value: appPeakRss / MB,
    baseline: appIdleRss / MB,
    unit: 'MB',
    target: null,
    note: `peak RSS of this process (sync engine + cache) through the first full sync vs its RSS with the same modules loaded and an empty cache opened. No target set by the issue.`,
  });
  reportResult({
    name: 'service peak RSS holding 10k containers',
    value: serviceMemory.peakRss / MB,
    baseline: serviceIdle.peakRss / MB,
    unit: 'MB',
    target: null,
    note: `peak RSS of the service process after serving ${FULL_RUNS} full sync(s) of 10k containers / 200k events vs the peak of the same service started on an empty data dir (same modules and reference data). No target set by the issue.`,
  });
} finally {
  await service?.close();
  fs.rmSync(root, { recursive: true, force: true });
}
