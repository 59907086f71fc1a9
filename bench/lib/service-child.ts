/** The process side of bench/lib/service-process.ts. */
import fs from 'node:fs';
import { startService } from '../../src/service';
import { marineSeaRoutes } from '../../src/service/routing/sea-routes-client';
import { applyFeedAnswer } from '../../test/support/feed-answers';
import { seedBenchData, type BenchSeedOptions } from './seed';

interface Args {
  mode: 'seed' | 'serve';
  dataDir: string;
  /** A PostgreSQL URL to serve from instead of the data folder's SQLite file. */
  database?: string;
  /** `--db-read-staleness-ms` on PostgreSQL. */
  readStalenessMs?: number;
  seed?: BenchSeedOptions;
}

/**
 * Resident bytes of the C allocator's main heap (`[heap]` in /proc/self/smaps): SQLite's page
 * cache and Node's native buffers live there, and freed chunks it cannot give back stay counted
 * in RSS. Undefined where /proc is not there.
 */
function cAllocatorHeap(): number | undefined {
  let smaps: string;
  try {
    smaps = fs.readFileSync('/proc/self/smaps', 'utf8');
  } catch {
    return undefined;
  }
  let inHeap = false;
  let kB = 0;
  for (const line of smaps.split('\n')) {
    if (/^[0-9a-f]+-[0-9a-f]+ /.test(line)) inHeap = line.endsWith('[heap]');
    else if (inHeap && line.startsWith('Rss:')) kB += Number(/(\d+)/.exec(line)![1]);
  }
  return kB * 1024;
}

const args = JSON.parse(process.argv[2]!) as Args;
const send = (message: object) => process.send!(message);
const service = await startService({
  dataDir: args.dataDir,
  ...(args.database
    ? { database: { url: args.database, readStalenessMs: args.readStalenessMs } }
    : {}),
  port: 0,
  config: { requestsPerMinute: 1e12, trackingRequestsPerMinute: 1e12 },
});

if (args.mode === 'seed') {
  const account = (await service.store.accounts.primary())!;
  await seedBenchData(
    { dataDir: args.dataDir, ...(args.database ? { database: { url: args.database } } : {}) },
    service.store,
    account.id,
    args.seed!,
  );
  await service.close();
  send({ type: 'seeded', key: service.initialKey });
  process.disconnect();
} else {
  send({ type: 'ready', baseUrl: service.baseUrl, key: service.initialKey ?? null });
  process.on('message', (message: { type: string; count?: number; round?: number }) => {
    void (async () => {
      if (message.type === 'memory') {
        // Every process is read in the state a running service reaches seconds after start,
        // its sea-route worker running with the graph built (startService starts it
        // ROUTER_WARM_UP_DELAY_MS after listening). Otherwise a long walk (100k containers) is
        // read with the worker and a short one (no data, 10k) without.
        await marineSeaRoutes().ready();
        // Buffers are freed after a collection, off the main thread: collect, let that finish,
        // and collect again, so the reading is what the process keeps, not garbage on its way.
        const gc = (globalThis as { gc?: () => void }).gc;
        gc?.();
        await new Promise((resolve) => setTimeout(resolve, 250));
        gc?.();
        const usage = process.memoryUsage();
        send({
          type: 'memory',
          rss: usage.rss,
          peakRss: process.resourceUsage().maxRSS * 1024,
          heapUsed: usage.heapUsed,
          heapTotal: usage.heapTotal,
          external: usage.external,
          cHeap: cAllocatorHeap(),
        });
      } else if (message.type === 'cpu') {
        const { user, system } = process.cpuUsage();
        send({ type: 'cpu', micros: user + system });
      } else if (message.type === 'touch') {
        // Changed the way production changes a box: a feed answer (a new line LFD) applied by
        // the engine's apply step.
        const account = (await service.store.accounts.primary())!;
        const { rows } = await service.store.context.stores.reads.containerKeys(
          account.id,
          {},
          { size: message.count!, offset: message.count! * message.round! },
        );
        const lastFreeDay = new Date(Date.now() + (message.round! + 7) * 86_400_000).toISOString();
        for (const c of rows)
          await applyFeedAnswer(service.store, c.id, { lineLastFreeDay: lastFreeDay });
        send({ type: 'touched' });
      } else if (message.type === 'close') {
        await service.close();
        process.disconnect();
      }
    })();
  });
}
