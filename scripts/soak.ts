/**
 * Soak test: the service with the simulated world at high speed, and five desktop clients (the
 * real SyncEngine, each with its own cache dir) syncing against it for N minutes. It stops by
 * itself and reports:
 * - errors: failed syncs and failed probe requests;
 * - the service process's RSS, sampled every 10 s, and its least-squares slope in MB/min over
 *   the second half of the run (the first half is warm-up: caches, JIT, SQLite pages);
 * - p50/p99 latency of whole sync runs and of a probe GET sent every second.
 *
 * Exits 1 when the RSS slope is above --max-rss-slope (default 2 MB/min: a leak of that size
 * would grow the process by about 3 GB a day) or when more than --max-error-rate (default 1%) of
 * syncs and probes failed; 2 when the run itself broke.
 *
 * Usage: npx tsx scripts/soak.ts [--minutes 10] [--clients 5] [--speed 3600]
 *          [--max-rss-slope 2] [--max-error-rate 0.01]
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Cache } from '../src/main/cache/cache';
import { SyncEngine } from '../src/main/sync/engine';
import { systemClock } from '../src/shared/clock';

const { values } = parseArgs({
  options: {
    minutes: { type: 'string', default: '10' },
    clients: { type: 'string', default: '5' },
    speed: { type: 'string', default: '3600' },
    'max-rss-slope': { type: 'string', default: '2' },
    'max-error-rate': { type: 'string', default: '0.01' },
  },
  strict: true,
});

function positive(name: string, raw: string): number {
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0) {
    console.error(`--${name} must be a positive number (got ${raw})`);
    process.exit(2);
  }
  return n;
}

const minutes = positive('minutes', values.minutes);
const clientCount = Math.round(positive('clients', values.clients));
const speed = positive('speed', values.speed);
const maxRssSlope = positive('max-rss-slope', values['max-rss-slope']);
const maxErrorRate = positive('max-error-rate', values['max-error-rate']);

const RSS_EVERY_MS = 10_000;
const PROBE_EVERY_MS = 1_000;
/** Pause between two syncs of one client (the desktop app syncs a local service every 15 s). */
const SYNC_PAUSE_MS = 2_000;
const SERVICE = fileURLToPath(new URL('./soak/service.ts', import.meta.url));

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** Least-squares slope of y over x. */
function slope(points: { x: number; y: number }[]): number {
  const n = points.length;
  if (n < 2) return NaN;
  const mx = points.reduce((s, p) => s + p.x, 0) / n;
  const my = points.reduce((s, p) => s + p.y, 0) / n;
  const num = points.reduce((s, p) => s + (p.x - mx) * (p.y - my), 0);
  const den = points.reduce((s, p) => s + (p.x - mx) ** 2, 0);
  return den === 0 ? NaN : num / den;
}

/** Resident set size of a process in MB (Linux /proc). */
function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1]);
  return kb / 1024;
}

const workDir = mkdtempSync(join(tmpdir(), 'quayside-soak-'));
const child = spawn(
  process.execPath,
  ['--import', 'tsx', SERVICE, join(workDir, 'service'), String(speed)],
  { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] },
);
const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
let childGone = false;
void exited.then(() => (childGone = true));

// A hard stop in case anything hangs: the soak must end by itself.
const deadline = setTimeout(
  () => {
    console.error('soak: did not finish in time, stopping');
    child.kill('SIGKILL');
    rmSync(workDir, { recursive: true, force: true });
    process.exit(2);
  },
  (minutes + 3) * 60_000,
);
deadline.unref();

const { baseUrl, apiKey } = await new Promise<{ baseUrl: string; apiKey: string }>(
  (resolve, reject) => {
    child.once('message', (m) => resolve(m as { baseUrl: string; apiKey: string }));
    void exited.then((code) => reject(new Error(`service exited (${code}) before it was ready`)));
  },
);
console.log(
  `soak: ${minutes} min, ${clientCount} clients, sim speed ${speed}x, service ${baseUrl} (pid ${child.pid})`,
);

const startedAt = performance.now();
const endAt = startedAt + minutes * 60_000;
const running = () => performance.now() < endAt && !childGone;
const errors: string[] = [];
const syncLatencies: number[] = [];
const probeLatencies: number[] = [];
const rss: { x: number; y: number }[] = [];
let syncs = 0;
let probes = 0;
let syncRequests = 0;

async function runClient(index: number): Promise<void> {
  const cache = Cache.open(join(workDir, `client-${index}`));
  const engine = new SyncEngine({
    cache,
    clock: systemClock,
    connection: () => ({ baseUrl, apiKey }),
  });
  try {
    // Spread the clients over the first pause so they do not all ask at once.
    await sleep((SYNC_PAUSE_MS / clientCount) * index);
    while (running()) {
      const t = performance.now();
      try {
        const result = await engine.sync();
        syncRequests += result.requests;
        syncLatencies.push(performance.now() - t);
      } catch (error) {
        errors.push(`client ${index} sync: ${error instanceof Error ? error.message : error}`);
      }
      syncs++;
      await sleep(SYNC_PAUSE_MS);
    }
  } finally {
    engine.stop();
    cache.close();
  }
}

async function runProbe(): Promise<void> {
  while (running()) {
    const next = performance.now() + PROBE_EVERY_MS;
    const t = performance.now();
    try {
      const res = await fetch(`${baseUrl}/containers?page[size]=10`, {
        headers: { Authorization: `Token ${apiKey}` },
        signal: AbortSignal.timeout(10_000),
      });
      await res.arrayBuffer();
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      probeLatencies.push(performance.now() - t);
    } catch (error) {
      errors.push(`probe: ${error instanceof Error ? error.message : error}`);
    }
    probes++;
    await sleep(Math.max(0, next - performance.now()));
  }
}

async function sampleRss(): Promise<void> {
  while (running()) {
    const minute = (performance.now() - startedAt) / 60_000;
    try {
      const mb = rssMb(child.pid!);
      rss.push({ x: minute, y: mb });
      console.log(
        `soak: ${minute.toFixed(1)} min  rss ${mb.toFixed(1)} MB  errors ${errors.length}`,
      );
    } catch (error) {
      errors.push(`rss: ${error instanceof Error ? error.message : error}`);
    }
    await sleep(Math.min(RSS_EVERY_MS, Math.max(0, endAt - performance.now())));
  }
}

let broken = false;
try {
  await Promise.all([
    ...Array.from({ length: clientCount }, (_, i) => runClient(i)),
    runProbe(),
    sampleRss(),
  ]);
  if (childGone) {
    errors.push('service process died during the soak');
    broken = true;
  }
} finally {
  child.kill('SIGTERM');
  const stopTimer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(stopTimer);
  rmSync(workDir, { recursive: true, force: true });
}

const secondHalf = rss.filter((p) => p.x >= minutes / 2);
const rssSlope = slope(secondHalf);
const operations = syncs + probes;
const errorRate = operations === 0 ? 1 : errors.length / operations;
const report = {
  minutes,
  clients: clientCount,
  simSpeed: speed,
  syncs,
  syncRequests,
  probes,
  errors: errors.length,
  errorRate: Number(errorRate.toFixed(4)),
  firstErrors: errors.slice(0, 5),
  rssMb: {
    first: rss[0]?.y.toFixed(1),
    last: rss.at(-1)?.y.toFixed(1),
    max: Math.max(...rss.map((p) => p.y)).toFixed(1),
    samples: rss.length,
    secondHalfSlopeMbPerMin: Number.isNaN(rssSlope) ? null : Number(rssSlope.toFixed(3)),
  },
  syncMs: {
    p50: Math.round(percentile(syncLatencies, 50)),
    p99: Math.round(percentile(syncLatencies, 99)),
  },
  probeMs: {
    p50: Number(percentile(probeLatencies, 50).toFixed(1)),
    p99: Number(percentile(probeLatencies, 99).toFixed(1)),
  },
};
console.log(JSON.stringify(report, null, 2));

const failures: string[] = [];
if (broken) failures.push('the service process died');
if (errorRate > maxErrorRate)
  failures.push(`error rate ${errorRate.toFixed(4)} above ${maxErrorRate}`);
// A slope needs a few samples; a short development run only reports it.
if (secondHalf.length >= 6 && rssSlope > maxRssSlope)
  failures.push(
    `RSS grows ${rssSlope.toFixed(2)} MB/min over the second half (limit ${maxRssSlope})`,
  );
else if (secondHalf.length < 6)
  console.log('soak: run too short for the RSS slope check (needs 6 samples in the second half)');

if (failures.length) {
  console.error(`soak FAILED: ${failures.join('; ')}`);
  process.exit(broken ? 2 : 1);
}
console.log('soak passed');
process.exit(0);
