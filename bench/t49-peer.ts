/**
 * Syncing a Terminal49-compatible account (no `updated_at`, 100-requests-a-minute limit) with
 * Quayside's sync engine, side by side with the straightforward client (list the shipment and
 * container pages, then the events of every container), at 1k and 10k containers and at 100k
 * shipments of which 2k are still tracked. Reported in minutes of a 100-requests-a-minute budget
 * (requests / 100); the request counts are in the notes.
 *
 * - first sync: Quayside's full walk vs the straightforward client's walk
 * - later sync (15 minutes on, 1% of the tracked containers changed, one new tracking request):
 *   Quayside's active-first sync vs the straightforward client's walk (it has no other way)
 * - at 100k/2k: the second later sync (the history walk's size then known) as a share of
 *   Quayside's own full walk; target <= 3%
 *
 *   npx tsx bench/t49-peer.ts [--quick]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ManualClock } from '../src/shared/clock';
import { Cache } from '../src/main/cache/cache';
import { SyncEngine } from '../src/main/sync/engine';
import { startT49CompatibleServer, type T49Server } from '../test/support/t49-compatible-server';
import { quick } from './lib/load';
import { reportResult } from './lib/report';

const PER_MINUTE = 100;
const CADENCE_MS = 15 * 60_000;
const SCALES = [
  { label: '1k containers', shipments: 1_000, active: 100 },
  { label: '10k containers', shipments: 10_000, active: 400 },
  ...(quick ? [] : [{ label: '100k shipments, 2k active', shipments: 100_000, active: 2_000 }]),
];

const minutes = (requests: number) => requests / PER_MINUTE;

/** The straightforward client: every list page, then every container's events. */
async function straightforwardSync(server: T49Server): Promise<number> {
  let requests = 0;
  const headers = { Authorization: `Token ${server.apiKey}` };
  const get = async (url: string) => {
    requests++;
    const response = await fetch(url, { headers });
    return (await response.json()) as { data: { id: string }[]; links?: { next?: string } };
  };
  const containerIds: string[] = [];
  for (const list of ['shipments', 'containers']) {
    let next: string | undefined = `${server.url}/${list}?page[size]=100`;
    while (next) {
      const page = await get(next);
      if (list === 'containers') containerIds.push(...page.data.map((c) => c.id));
      next = page.links?.next;
    }
  }
  // A few at a time, as such a client would.
  const queue = [...containerIds];
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      for (let id = queue.pop(); id; id = queue.pop()) {
        await get(`${server.url}/containers/${id}/transport_events?page[size]=100`);
      }
    }),
  );
  return requests;
}

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'quayside-bench-t49-'));
try {
  for (const scale of SCALES) {
    const server = await startT49CompatibleServer({
      shipments: scale.shipments,
      containersPerShipment: 1,
      active: scale.active,
      // No sparse records here: a sparse container names no events, so each one costs a
      // request of its own in a full walk, which would flatter the later syncs' ratio.
      sparseEvery: 0,
    });
    const cache = Cache.open(path.join(root, `cache-${scale.shipments}`));
    const clock = new ManualClock(Date.UTC(2026, 2, 1, 12));
    const engine = new SyncEngine({
      cache,
      clock,
      connection: () => ({ baseUrl: server.url, apiKey: server.apiKey }),
      pageSize: 100,
    });
    try {
      const t0 = performance.now();
      const first = await engine.sync();
      const firstSeconds = (performance.now() - t0) / 1000;
      const plain = await straightforwardSync(server);

      const active = server.activeShipments();
      const changed = active.filter((_, n) => n % 100 === 0);
      for (const i of changed) server.changeContainer(i, 0);
      clock.advance(CADENCE_MS);
      server.trackNew();
      const later = await engine.sync();
      if (later.mode !== 'active-first') throw new Error(`unexpected mode ${later.mode}`);
      for (const i of active.filter((_, n) => n % 100 === 1)) server.changeContainer(i, 0);
      clock.advance(CADENCE_MS);
      const steady = await engine.sync();
      console.log(
        `${scale.label}: first sync ${first.requests} requests (${firstSeconds.toFixed(1)} s here), later syncs ${later.requests} and ${steady.requests} requests (${later.changedContainers} and ${steady.changedContainers} changed containers); straightforward client ${plain} requests per sync`,
      );

      reportResult({
        name: `T49 first sync, budget minutes (${scale.label})`,
        value: minutes(first.requests),
        baseline: minutes(plain),
        unit: 'min',
        target: { max: 1 },
        note: `Quayside ${first.requests} requests vs the straightforward client's ${plain} (list pages, then one request per container's events), at ${PER_MINUTE} requests a minute`,
      });
      reportResult({
        name: `T49 later sync, budget minutes (${scale.label})`,
        value: minutes(later.requests),
        baseline: minutes(plain),
        unit: 'min',
        target: { max: 0.03 },
        note: `Quayside active-first ${later.requests} requests (${changed.length} containers changed, one new tracking request, 15 minutes after the last sync) vs the straightforward client's ${plain}, which walks everything every time`,
      });
      if (scale.shipments === 100_000) {
        reportResult({
          name: 'T49 later sync vs own full walk (100k shipments, 2k active)',
          value: steady.requests,
          baseline: first.requests,
          unit: 'req',
          target: { max: 0.03 },
          note: 'the issue: a later sync uses at most 3% of the requests of a full walk',
        });
      }
    } finally {
      cache.close();
      await server.close();
    }
  }
} finally {
  fs.rmSync(root, { recursive: true, force: true });
}
