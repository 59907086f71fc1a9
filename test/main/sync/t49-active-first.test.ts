/**
 * A large Terminal49-compatible account (100k shipments, 2k still tracked, no `updated_at`):
 * after the first full walk, a sync reads active work, new tracking requests and a slice of the
 * history, at a small fraction of a full walk's requests, and still sees every change to an
 * active container.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cache } from '../../../src/main/cache/cache';
import { SyncEngine, type SyncResult } from '../../../src/main/sync/engine';
import { ManualClock } from '../../../src/shared/clock';
import { startT49CompatibleServer, type T49Server } from '../../support/t49-compatible-server';
import { tempDir } from '../../support/cache-fixtures';

const START = Date.UTC(2026, 2, 1, 12);
const SHIPMENTS = 100_000;
const ACTIVE = 2_000;
/** The sync interval this account is run at (a remote service's setting). */
const CADENCE_MS = 15 * 60_000;

describe('active-first sync of a large account without updated_at', () => {
  let server: T49Server;
  let tmp: ReturnType<typeof tempDir>;
  let cache: Cache;
  let engine: SyncEngine;
  let clock: ManualClock;
  let full: SyncResult;

  beforeAll(async () => {
    server = await startT49CompatibleServer({
      shipments: SHIPMENTS,
      containersPerShipment: 1,
      active: ACTIVE,
      // Sparse containers name no events, so a full walk asks for each one's events: that
      // would inflate the walk this test compares against.
      sparseEvery: 0,
    });
    tmp = tempDir('quayside-t49-large-');
    cache = Cache.open(tmp.dir);
    clock = new ManualClock(START);
    engine = new SyncEngine({
      cache,
      clock,
      connection: () => ({ baseUrl: server.url, apiKey: server.apiKey }),
      pageSize: 100,
    });
    full = await engine.sync();
  }, 1_200_000);
  afterAll(async () => {
    cache.close();
    tmp.remove();
    await server.close();
  });

  it('a later sync uses at most 3% of the full walk and sees every change to active containers', async () => {
    expect(full).toMatchObject({ mode: 'full', shipments: SHIPMENTS, containers: SHIPMENTS });
    const active = server.activeShipments();
    expect(active).toHaveLength(ACTIVE);
    // Changes spread over the active containers, and two new tracking requests.
    const changed = active.filter((_, n) => n % 97 === 0);
    for (const i of changed) server.changeContainer(i, 0);
    clock.advance(CADENCE_MS);
    const added = [server.trackNew(), server.trackNew()];

    const logFrom = server.requests.log.length;
    const later = await engine.sync();
    expect(later.mode).toBe('active-first');
    expect(later.requests).toBeLessThanOrEqual(full.requests * 0.03);
    const logTo = server.requests.log.length;

    for (const i of [...changed, ...added]) {
      const served = server.container(i, 0);
      const cached = cache.getContainer(served.id);
      expect(cached, `container of shipment ${i}`).not.toBeNull();
      expect(cached!.attributes.current_status).toBe(served.attributes!.current_status);
      expect(cached!.attributes.pickup_lfd).toBe(served.attributes!.pickup_lfd);
      expect(
        cache
          .eventsOf(served.id)
          .map((e) => e.id)
          .sort(),
      ).toEqual(
        server
          .events(i, 0)
          .map((e) => e.id)
          .sort(),
      );
    }
    // Events were asked for only for the changed containers and the new shipments' ones, and
    // updated_at filters went only where this service offers them.
    const log = server.requests.log.slice(logFrom, logTo);
    expect(log.filter((p) => p.includes('/transport_events')).length).toBe(
      changed.length + added.length,
    );
    expect(log.filter((p) => /^\/v2\/(shipments|containers)\b.*updated_at/.test(p))).toEqual([]);
    expect(
      log.some((p) => p.startsWith('/v2/tracking_requests?') && p.includes('updated_at')),
    ).toBe(true);

    // The run after, with the history walk's size known: still within 3%, still current.
    const more = active.filter((_, n) => n % 89 === 1);
    for (const i of more) server.changeContainer(i, 0);
    clock.advance(CADENCE_MS);
    const next = await engine.sync();
    expect(next.requests).toBeLessThanOrEqual(full.requests * 0.03);
    for (const i of more) {
      const served = server.container(i, 0);
      expect(cache.getContainer(served.id)!.attributes.current_status).toBe(
        served.attributes!.current_status,
      );
    }
  }, 600_000);
});
