/**
 * Service memory as the data grows: the resident memory of the service process after every
 * container and shipment has been read through the API (full list walks, as a desktop full sync
 * does, and each container's transport events for a sample), at 10k and 100k containers, as
 * ratios to the same service on an empty data folder after the same walk. Targets (issue 22):
 * 10k <= 1.5x empty, and 100k about the same as 10k (render caches bounded in bytes).
 *
 *   npx tsx bench/service-memory.ts [--quick]     (--quick: 10k and 30k)
 *
 * RSS after a forced GC is what the process keeps; the peak includes transient request garbage.
 * Every process is read with its sea-route graph built, as a service is seconds after start
 * (see bench/lib/service-child.ts), whatever the length of its walk.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { quick } from './lib/load';
import { reportResult } from './lib/report';
import {
  seedInChild,
  serveInChild,
  type ChildService,
  type ServiceMemory,
} from './lib/service-process';

const MB = 1024 * 1024;
const described = (m: ServiceMemory) =>
  `RSS ${(m.rss / MB).toFixed(0)} MB, peak ${(m.peakRss / MB).toFixed(0)} MB, heap ${(m.heapUsed / MB).toFixed(0)}/${(m.heapTotal / MB).toFixed(0)} MB, external ${(m.external / MB).toFixed(0)} MB` +
  (m.cHeap === undefined ? '' : `, C heap ${(m.cHeap / MB).toFixed(0)} MB`);
const SIZES = process.env.QUAYSIDE_BENCH_MEMORY_SIZES
  ? process.env.QUAYSIDE_BENCH_MEMORY_SIZES.split(',').map(Number)
  : quick
    ? [10_000, 30_000]
    : [10_000, 100_000];
const EVENTS_PER_CONTAINER = 10;
const EVENT_SAMPLE = 2_000;

async function walk(service: ChildService): Promise<number> {
  const headers = { Authorization: `Token ${service.key}`, Accept: 'application/vnd.api+json' };
  const get = async (url: string) => {
    const response = await fetch(`${service.baseUrl}${url}`, { headers });
    if (!response.ok) throw new Error(`${url}: ${response.status}`);
    return (await response.json()) as { data: { id: string }[]; links?: { next?: string | null } };
  };
  let requests = 0;
  const ids: string[] = [];
  for (const collection of ['containers', 'shipments']) {
    for (let page = 1; ; page++) {
      const doc = await get(`/${collection}?page[size]=100&page[number]=${page}`);
      requests++;
      if (collection === 'containers') ids.push(...doc.data.map((r) => r.id));
      if (doc.data.length < 100) break;
    }
  }
  const step = Math.max(1, Math.floor(ids.length / EVENT_SAMPLE));
  for (let i = 0; i < ids.length; i += step) {
    await get(`/containers/${ids[i]}/transport_events`);
    requests++;
  }
  return requests;
}

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'quayside-bench-memory-'));
try {
  const empty = await serveInChild(path.join(root, 'empty'), null);
  await walk(empty);
  const emptyMemory = await empty.memory();
  await empty.close();
  console.log(`empty service after a walk: ${described(emptyMemory)}`);

  const bySize: { size: number; rss: number; peakRss: number }[] = [];
  for (const size of SIZES) {
    const dataDir = path.join(root, `s${size}`);
    const t0 = performance.now();
    const key = await seedInChild(dataDir, {
      containers: size,
      containersPerShipment: 4,
      transportEventsPerContainer: EVENTS_PER_CONTAINER,
      rawEventsPerContainer: 1,
    });
    const seededS = (performance.now() - t0) / 1000;
    const service = await serveInChild(dataDir, key);
    try {
      const requests = await walk(service);
      // A second walk: what stays is what the caches keep, not first-touch garbage.
      await walk(service);
      const memory = await service.memory();
      bySize.push({ size, rss: memory.rss, peakRss: memory.peakRss });
      console.log(
        `${size} containers (seeded in ${seededS.toFixed(0)} s), ${requests} requests per walk: ${described(memory)}`,
      );
    } finally {
      await service.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }

  const [small, large] = bySize;
  const label = (n: number) => `${n / 1000}k`;
  reportResult({
    name: `service RSS holding ${label(small!.size)} containers`,
    value: small!.rss / MB,
    baseline: emptyMemory.rss / MB,
    unit: 'MB',
    target: { max: 1.5 },
    note: `RSS after GC of the service process after walking every container and shipment page twice and ${EVENT_SAMPLE} containers' events, vs the same service on an empty data folder after the same walk (peak ${(small!.peakRss / MB).toFixed(0)} MB vs ${(emptyMemory.peakRss / MB).toFixed(0)} MB).`,
  });
  reportResult({
    name: `service RSS ${label(large!.size)} vs ${label(small!.size)} containers`,
    value: large!.rss / MB,
    baseline: small!.rss / MB,
    unit: 'MB',
    // "Flat": ten times the data may not cost more than a fifth more memory.
    target: { max: 1.2 },
    note: `RSS after GC after the same walks at ${label(large!.size)} and ${label(small!.size)} containers (peak ${(large!.peakRss / MB).toFixed(0)} MB vs ${(small!.peakRss / MB).toFixed(0)} MB).`,
  });
} finally {
  fs.rmSync(root, { recursive: true, force: true });
}
