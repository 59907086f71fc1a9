import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AlertCenter } from '../../../src/main/alerts/alert-center';
import { RecordingNotifier } from '../../support/recording-notifier';
import { Cache } from '../../../src/main/cache/cache';
import { SyncEngine } from '../../../src/main/sync/engine';
import { testConnection } from '../../../src/main/sync/test-connection';
import type { SyncStatus } from '../../../src/shared/bridge';
import { ManualClock, ScaledClock } from '../../../src/shared/clock';
import { applyFeedAnswer } from '../../support/feed-answers';
import { tempDir } from '../../support/cache-fixtures';
import {
  prng,
  serverState,
  startFaultyProxy,
  startSeededService,
  type Harness,
} from '../../support/sync-harness';

const START = Date.UTC(2026, 2, 1, 12);
const H = 3_600_000;

/** The cache holds exactly what the service serves: same records, same events, nothing else. */
async function expectCacheEqualsServer(cache: Cache, h: Harness) {
  const server = await serverState(h);
  expect(cache.allShipments()).toEqual(server.shipments);
  expect(cache.allContainers()).toEqual(server.containers);
  for (const [id, events] of server.events) {
    expect([...cache.eventsOf(id)].sort((a, b) => a.id.localeCompare(b.id))).toEqual(events);
  }
  expect(cache.counts().events).toBe([...server.events.values()].reduce((n, e) => n + e.length, 0));
  expect(cache.integrityCheck()).toBe('ok');
}

describe('sync against a real service', () => {
  let serviceClock: ManualClock;
  let h: Harness;
  let tmp: ReturnType<typeof tempDir>;
  let cache: Cache;
  let notifier: RecordingNotifier;
  let engine: SyncEngine;
  let statuses: SyncStatus[];
  let clock: ManualClock;

  beforeAll(async () => {
    serviceClock = new ManualClock(START);
    h = await startSeededService({ clock: serviceClock, shipments: 12, containersPerShipment: 3 });
  });
  afterAll(async () => {
    await h.close();
  });
  beforeEach(() => {
    tmp = tempDir('quayside-sync-');
    cache = Cache.open(tmp.dir);
    clock = new ManualClock(START);
    notifier = new RecordingNotifier();
    statuses = [];
    engine = new SyncEngine({
      cache,
      clock,
      alerts: new AlertCenter(cache, notifier, clock),
      connection: () => ({ baseUrl: h.baseUrl, apiKey: h.apiKey }),
      onStatus: (s) => statuses.push(s),
      pageSize: 10,
    });
  });
  afterEach(() => {
    cache.close();
    tmp.remove();
  });

  it('a full sync makes the cache equal the server, without alerts for old data', async () => {
    const result = await engine.sync();
    expect(result).toMatchObject({ mode: 'full', shipments: 12, containers: 36, skipped: [] });
    // The custom field definitions + 2 shipment pages + 4 container pages (events and shipments
    // came included) + 1 map call refused with 403 (this account has no routing entitlement).
    expect(result.requests).toBe(8);
    await expectCacheEqualsServer(cache, h);
    expect(notifier.notifications).toEqual([]);
    expect(statuses[0]).toMatchObject({ state: 'syncing', progress: 0 });
    expect(statuses.at(-1)).toMatchObject({ state: 'idle', progress: null, message: null });
    // "Last synced" is wall-clock time, whatever the app's (here: manual) clock says.
    const syncedAt = Date.parse(statuses.at(-1)!.lastSuccessAt!);
    expect(Math.abs(syncedAt - Date.now())).toBeLessThan(60_000);
    const progress = statuses.map((s) => s.progress).filter((p): p is number => p !== null);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
  });

  it('a second sync with no changes makes at most 3 requests, and a changed LFD raises one alert', async () => {
    await engine.sync();
    clock.advance(5 * 60_000);
    const quiet = await engine.sync();
    expect(quiet.mode).toBe('incremental');
    expect(quiet.requests).toBeLessThanOrEqual(3);
    expect(quiet.changedContainers).toBe(0);

    const target = cache.allContainers()[7]!;
    serviceClock.advance(10 * 60_000);
    await applyFeedAnswer(h.service.store, target.id, {
      lineLastFreeDay: new Date(START + 9 * 24 * H).toISOString(),
    });
    clock.advance(5 * 60_000);
    const changed = await engine.sync();
    expect(changed.changedContainers).toBe(1);
    expect(changed.requests).toBeLessThanOrEqual(3);
    expect(notifier.notifications).toHaveLength(1);
    expect(notifier.notifications[0]).toMatchObject({
      kind: 'lfd_changed',
      containerId: target.id,
    });
    expect(cache.listAlerts().total).toBe(1);
    await expectCacheEqualsServer(cache, h);
    // And nothing more on the next run.
    clock.advance(5 * 60_000);
    await engine.sync();
    expect(notifier.notifications).toHaveLength(1);
  });

  it('serializes runs: concurrent calls share one follow-up run', async () => {
    const first = engine.sync();
    const second = engine.sync();
    const third = engine.sync();
    expect(third).toBe(second);
    const [a, b] = await Promise.all([first, second, third]);
    expect(a.mode).toBe('full');
    expect(b.mode).toBe('incremental');
    expect(cache.counts().containers).toBe(36);
  });

  it('converges through a proxy that injects 429s, 500s, timeouts and truncated JSON', async () => {
    const proxy = await startFaultyProxy(
      h.baseUrl,
      { rateLimited: 0.12, serverError: 0.12, hang: 0.1, truncated: 0.12 },
      prng(11),
    );
    const fastClock = new ScaledClock(START, 2000);
    const faulty = new SyncEngine({
      cache,
      clock: fastClock,
      connection: () => ({ baseUrl: proxy.baseUrl, apiKey: h.apiKey }),
      pageSize: 5,
      client: { timeoutMs: 250, maxAttempts: 8, random: prng(3) },
    });
    try {
      let done = false;
      for (let attempt = 0; attempt < 10 && !done; attempt++) {
        done = await faulty.sync().then(
          () => true,
          () => false,
        );
      }
      expect(done).toBe(true);
      for (const kind of ['rateLimited', 'serverError', 'hang', 'truncated'] as const) {
        expect(proxy.faults[kind], kind).toBeGreaterThan(0);
      }
      await expectCacheEqualsServer(cache, h);
    } finally {
      await proxy.close();
    }
  });
});

describe('route maps', () => {
  it('fetches maps for containers at sea at most hourly, and stops after a 403', async () => {
    const serviceClock = new ManualClock(START);
    const entitled = await startSeededService({
      clock: serviceClock,
      shipments: 2,
      containersPerShipment: 2,
      routing: true,
    });
    const tmp = tempDir('quayside-maps-');
    const cache = Cache.open(tmp.dir);
    const clock = new ManualClock(START);
    const connection = { baseUrl: entitled.baseUrl, apiKey: entitled.apiKey };
    const engine = new SyncEngine({ cache, clock, connection: () => connection, pageSize: 100 });
    try {
      const first = await engine.sync();
      // Each run: 1 shipment page + 1 container page; the first also the custom field
      // definitions (read again after 10 minutes of real time) and 4 maps (all seeded
      // containers are on ship).
      expect(first.requests).toBe(7);
      expect(cache.getRouteMap(cache.allContainers()[0]!.id)).toMatchObject({ completed: false });
      clock.advance(30 * 60_000);
      expect((await engine.sync()).requests).toBe(2);
      clock.advance(31 * 60_000);
      expect((await engine.sync()).requests).toBe(6);

      // Without the entitlement: one refused call, then the map is not asked for again.
      await entitled.service.store.accounts.setRouting(entitled.accountId, false);
      clock.advance(2 * H);
      expect((await engine.sync()).requests).toBe(3);
      clock.advance(2 * H);
      expect((await engine.sync()).requests).toBe(2);
    } finally {
      cache.close();
      tmp.remove();
      await entitled.close();
    }
  });
});

describe('progress', () => {
  it('is told to the windows to the whole percent, however many maps a run fetches', async () => {
    const entitled = await startSeededService({
      clock: new ManualClock(START),
      shipments: 40,
      containersPerShipment: 3,
      routing: true,
    });
    const tmp = tempDir('quayside-progress-');
    const cache = Cache.open(tmp.dir);
    const statuses: SyncStatus[] = [];
    const connection = { baseUrl: entitled.baseUrl, apiKey: entitled.apiKey };
    const engine = new SyncEngine({
      cache,
      clock: new ManualClock(START),
      connection: () => connection,
      onStatus: (s) => statuses.push(s),
      pageSize: 100,
    });
    try {
      const run = await engine.sync();
      // A map a container, all 120 at sea: 120 steps inside the last five percent of the bar.
      expect(run.requests).toBeGreaterThan(120);
      const percents = statuses
        .map((s) => s.progress)
        .filter((p): p is number => p !== null)
        .map((p) => Math.floor(p * 100));
      expect(new Set(percents).size).toBe(percents.length);
      expect(percents.filter((p) => p >= 95).length).toBeLessThanOrEqual(6);
      expect(statuses.at(-1)).toMatchObject({ state: 'idle', progress: null });
    } finally {
      cache.close();
      tmp.remove();
      await entitled.close();
    }
  });
});

describe('testConnection', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startSeededService({
      clock: new ManualClock(START),
      shipments: 1,
      containersPerShipment: 1,
    });
  });
  afterAll(async () => {
    await h.close();
  });

  it('accepts a working service and key', async () => {
    const check = await testConnection(h.baseUrl, h.apiKey);
    expect(check).toEqual({
      ok: true,
      message:
        'Connected. The account has 1 shipment. This is a Quayside service with incremental ' +
        'sync: each sync asks only for what changed.',
      incrementalSync: true,
    });
  });

  it('says what is wrong in plain words', async () => {
    expect((await testConnection('not a url', 'k')).message).toMatch(/not a valid URL/);
    expect((await testConnection('ftp://example.com/v2', 'k')).message).toMatch(
      /http:\/\/ or https:\/\//,
    );
    expect((await testConnection(h.baseUrl, 'qs_wrong')).message).toMatch(/refused the API key/);
    const noV2 = await testConnection(h.baseUrl.replace(/\/v2$/, ''), h.apiKey);
    expect(noV2.message).toMatch(
      /No \/v2 tracking service at this address\. Does the address end in \/v2\?/,
    );

    const html = createServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/html' });
      res.end('<html>hello</html>');
    });
    await new Promise<void>((r) => html.listen(0, '127.0.0.1', r));
    const port = (html.address() as AddressInfo).port;
    expect((await testConnection(`http://127.0.0.1:${port}/v2`, 'k')).message).toMatch(
      /does not answer like a \/v2 tracking service/,
    );
    await new Promise<void>((r) => html.close(() => r()));
    expect((await testConnection(`http://127.0.0.1:${port}/v2`, 'k')).message).toMatch(
      /Nothing is listening at 127\.0\.0\.1:\d+/,
    );
  });
});
