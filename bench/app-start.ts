/**
 * Cold start of the app in browser mode (`npm start -- --browser`, the built out/main/browser.js
 * with its embedded service and simulated world), against plain `quayside serve` to "listening"
 * started in the same run (medians of several starts, wall time from spawn):
 *
 * - to its first page: the page and the script it names served, as `npm start -- --check` loads
 *   them;
 * - to the built-in service up: the service process (service and simulated world, as
 *   `serve --sim`) answering the app's first sync;
 * - to its cached worklist: the worklist answered over the bridge from the data folder's cache,
 *   as the renderer asks for it once its page has loaded, before any sync of this start (the
 *   issue's cold start, as a ratio to the page served by the same process);
 * - to its first synced worklist: that sync completed (what the world did while the app was
 *   closed brought in) and the worklist answered over the bridge, as the renderer asks.
 *
 * Every start is a restart on a data folder made by an earlier start (the demo account seeded
 * and synced once), as the app is usually opened.
 *
 *   npx tsx bench/run.ts app-start
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { median, reportResult } from './lib/report';
import { medianOf, root, startUntil, timeStart } from './lib/start';

const BIN = path.join(root, 'bin', 'quayside.mjs');
const BROWSER = path.join(root, 'out', 'main', 'browser.js');
const RUNS = 5;
/** A start that has not synced by then is broken, not slow. */
const SYNC_LIMIT_MS = 5 * 60_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const { ensureBuild } = (await import(
  new URL('../scripts/lib/setup.mjs', import.meta.url).href
)) as { ensureBuild: () => void };
ensureBuild();

/** One start: milliseconds from spawn to each milestone, and the worklist's box count. */
interface Start {
  page: number;
  cachedWorklist: number;
  /** Boxes on the worklist read from the cache (none on a first start). */
  cachedRows: number;
  serviceUp: number;
  worklist: number;
  rows: number;
}

async function appStart(dataDir: string): Promise<Start> {
  const spawnedAtWall = Date.now();
  const app = await startUntil(
    [BROWSER, '--no-open', '--data-dir', dataDir],
    /Quayside is running at (\S+)/,
  );
  const since = (): number => performance.now() - app.startedAt;
  try {
    const url = new URL(app.match[1]!);
    const html = await (await fetch(url)).text();
    const script = /<script[^>]+src="([^"]+)"/.exec(html)?.[1];
    if (!script) throw new Error(`the page names no script:\n${html}`);
    const asset = await fetch(new URL(script, url));
    await asset.arrayBuffer();
    if (!asset.ok) throw new Error(`${script} answered HTTP ${asset.status}`);
    const page = since();

    const bridge = async <T>(method: string): Promise<T> => {
      const response = await fetch(new URL(`/bridge/${method}`, url), {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-quayside-token': url.searchParams.get('token')!,
        },
        body: JSON.stringify({ argument: null }),
      });
      const reply = (await response.json()) as { ok: boolean; result?: T; error?: unknown };
      if (!reply.ok) throw new Error(`${method}: ${JSON.stringify(reply.error)}`);
      return reply.result as T;
    };
    const cached = await bridge<{ counts: Record<string, number> }>('getWorklist');
    const cachedWorklist = since();
    const cachedRows = Object.values(cached.counts).reduce((sum, n) => sum + n, 0);
    // The sync status says when the built-in service answered (a sync is under way, or done)
    // and when a sync of this start completed (wall-clock time) after the first full one.
    let serviceUp: number | null = null;
    for (;;) {
      const status = await bridge<{
        progress: number | null;
        lastSuccessAt: string | null;
        firstSync?: boolean;
      }>('getSyncStatus');
      const syncedNow =
        status.lastSuccessAt !== null && Date.parse(status.lastSuccessAt) >= spawnedAtWall;
      if (serviceUp === null && (status.progress !== null || syncedNow)) serviceUp = since();
      if (syncedNow && status.firstSync === false) break;
      if (since() > SYNC_LIMIT_MS) throw new Error('no sync completed within 5 minutes');
      await sleep(20);
    }
    const worklist = await bridge<{ counts: Record<string, number> }>('getWorklist');
    return {
      page,
      cachedWorklist,
      cachedRows,
      serviceUp: serviceUp!,
      worklist: since(),
      rows: Object.values(worklist.counts).reduce((sum, n) => sum + n, 0),
    };
  } finally {
    await app.stop('SIGTERM');
  }
}

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'quayside-bench-app-start-'));
try {
  const serveArgs = [BIN, 'serve', '--port', '0', '--data-dir', path.join(work, 'serve')];
  const appDir = path.join(work, 'app');
  // First starts create the data folders (the app's: the demo account seeded and synced once).
  await timeStart(serveArgs, /listening on /);
  const first = await appStart(appDir);
  console.log(
    `first start: page ${first.page.toFixed(0)} ms, service up ${first.serviceUp.toFixed(0)} ms, ` +
      `synced worklist ${first.worklist.toFixed(0)} ms`,
  );

  const serve = await medianOf(RUNS, () => timeStart(serveArgs, /listening on /));
  const starts: Start[] = [];
  for (let i = 0; i < RUNS; i++) starts.push(await appStart(appDir));
  const medianBy = (pick: (s: (typeof starts)[number]) => number) => median(starts.map(pick));
  const rows = starts[starts.length - 1]!.rows;
  if (rows === 0) throw new Error('the synced worklist is empty: the demo world did not reach it');
  if (starts.some((s) => s.cachedRows === 0))
    throw new Error('a restart found no boxes in its cache: it measured an empty worklist');
  reportResult({
    name: 'app (browser mode) start to its page vs serve',
    value: medianBy((s) => s.page),
    baseline: serve,
    unit: 'ms',
    target: null,
  });
  reportResult({
    name: 'app start to cached worklist vs its page',
    value: medianBy((s) => s.cachedWorklist),
    baseline: medianBy((s) => s.page),
    unit: 'ms',
    target: { max: 2 },
    note: 'from spawn to the worklist answered over the bridge from the cache (what the renderer paints first), against the same process serving its page and script',
  });
  reportResult({
    name: 'app (browser mode) start to built-in service up vs serve',
    value: medianBy((s) => s.serviceUp),
    baseline: serve,
    unit: 'ms',
    target: null,
  });
  reportResult({
    name: 'app (browser mode) start to synced worklist vs serve',
    value: medianBy((s) => s.worklist),
    baseline: serve,
    unit: 'ms',
    target: null,
    note: `${rows} boxes on the worklist`,
  });
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}
