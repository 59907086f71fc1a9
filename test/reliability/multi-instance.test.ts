/* eslint-disable @typescript-eslint/no-explicit-any -- API bodies are untyped JSON */
/**
 * Several instances, one truth: three service processes on one PostgreSQL database beside a fast
 * simulated world (in this process). 200 tracking requests go to a random live instance each;
 * one instance is killed with SIGKILL half-way. Then: every request reached its final state
 * exactly once (one final webhook event each), every notification was delivered at least once
 * with one stable id and body, no transport event is stored twice, and a desktop sync through a
 * load balancer that picks a random instance per request equals the database.
 */
import { randomBytes } from 'node:crypto';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cache } from '../../src/main/cache/cache';
import { SyncEngine } from '../../src/main/sync/engine';
import { listTrackableNumbers, startSimWorld, type RunningSimWorld } from '../../src/sim';
import { WEBHOOK_EVENT_CATEGORIES } from '../../src/service/webhooks/catalog';
import { ScaledClock, systemClock } from '../../src/shared/clock';
import { checkDigit } from '../../src/shared/iso6346';
import { tempDir } from '../support/cache-fixtures';
import { prng } from '../support/sync-harness';
import { createDatabaseIn } from '../support/store-kinds';
import { postgresAvailable, startPostgres, type PostgresCluster } from '../support/postgres';
import {
  CHILD_PATIENCE_MS,
  startChildService,
  type ChildService,
} from '../support/service-process';
import { startWebhookReceiver, type WebhookReceiver } from '../support/flaky-webhook-receiver';

const SEED = 7;
const SPEED = 12_000;
const INSTANCES = 3;
const REQUESTS = 200;
/** Short leases, so the killed instance's work is taken over within the test. */
const LEASE_MS = 3_000;
const FINAL = new Set(['created', 'failed', 'tracking_stopped']);
const missing = postgresAvailable();

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A container number with a valid check digit that no carrier of the world knows. */
function unknownContainer(serial: number): string {
  const first10 = `ZZZU${String(serial).padStart(6, '0')}`;
  return `${first10}${checkDigit(first10) % 10}`;
}

/** An HTTP load balancer on 127.0.0.1: each request to a random backend still alive. */
async function startBalancer(
  backends: () => string[],
  random: () => number,
): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    const live = backends();
    const target = new URL(live[Math.floor(random() * live.length)]!);
    const upstream = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers: req.headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe.skipIf(missing !== null)(`several instances on one PostgreSQL database`, () => {
  let cluster: PostgresCluster;
  let databaseUrl: string;
  let sim: RunningSimWorld;
  let receiver: WebhookReceiver;
  const dirs = Array.from({ length: INSTANCES + 1 }, () => tempDir('quayside-multi-'));
  const random = prng(20261123);
  const realStart = Date.now();
  const origin = Date.now();
  const secretKeyHex = randomBytes(32).toString('hex');
  let children: (ChildService | null)[] = [];

  beforeAll(async () => {
    cluster = await startPostgres();
    databaseUrl = await createDatabaseIn(cluster.url);
    sim = await startSimWorld({
      seed: SEED,
      clock: new ScaledClock(origin, SPEED),
      host: '127.0.0.1',
    });
    receiver = await startWebhookReceiver({ failureRate: 0.1, slowRate: 0.05, slowMs: 80, random });
  });

  afterAll(async () => {
    for (const child of children) await child?.kill();
    await receiver?.close();
    await sim?.close();
    await cluster?.stop();
    for (const dir of dirs) dir.remove();
  });

  const start = (i: number) =>
    startChildService({
      dataDir: dirs[i]!.dir,
      feeds: sim.feedsDocument(),
      origin,
      realStart,
      speed: SPEED,
      databaseUrl,
      secretKeyHex,
      leaseMs: LEASE_MS,
    });

  // Every wait below ends on its condition; on a busy machine that takes minutes (the limit,
  // half an hour, only ends a run that hangs).
  it('runs each request once, delivers every notification and serves one truth', async () => {
    // The first start records the service's account; the others join it together.
    const began = Date.now();
    children = [await start(0)];
    children.push(...(await Promise.all([1, 2].map(start))));
    const apiKey = children[0]!.initialKey!;
    console.log(`multi-instance: started in ${Date.now() - began} ms`);
    const live = () => children.filter((c): c is ChildService => c !== null);
    const anyLive = () => live()[Math.floor(random() * live().length)]!;
    const api = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${anyLive().baseUrl}${path}`, {
        method,
        headers: { Authorization: `Token ${apiKey}`, 'Content-Type': 'application/vnd.api+json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as any };
    };

    const events = WEBHOOK_EVENT_CATEGORIES.flatMap((c) => c.events.map((e) => e.name));
    const hook = await api('POST', '/webhooks', {
      data: { type: 'webhook', attributes: { url: receiver.url, events } },
    });
    expect(hook.status).toBe(201);
    receiver.secret = hook.body.data.attributes.secret;

    // The world's bills of lading and boxes (some of them duplicates of each other), then
    // numbers no carrier knows: 200 in all.
    const known = listTrackableNumbers(SEED).filter((n) => n.request_type !== 'booking_number');
    const scac = known[0]!.scac;
    const requests = [
      ...known.map(({ request_type, request_number, scac }) => ({
        request_type,
        request_number,
        scac,
      })),
      ...Array.from({ length: REQUESTS - known.length }, (_, i) => ({
        request_type: 'container',
        request_number: unknownContainer(i + 1),
        scac,
      })),
    ].slice(0, REQUESTS);
    expect(requests).toHaveLength(REQUESTS);

    // Ten at a time, as several dispatchers would send them.
    const phases: string[] = [];
    let phaseStart = Date.now();
    const phase = (name: string) => {
      phases.push(`${name} ${((Date.now() - phaseStart) / 1000).toFixed(1)} s`);
      console.log(`multi-instance: ${phases.at(-1)}`);
      phaseStart = Date.now();
    };
    for (let i = 0; i < REQUESTS; i += 10) {
      if (i === REQUESTS / 2) {
        // Half-way, while the instances look requests up: one dies without a word.
        await children[2]!.kill();
        children[2] = null;
      }
      const batch = await Promise.all(
        requests
          .slice(i, i + 10)
          .map((attributes) =>
            api('POST', '/tracking_requests', { data: { type: 'tracking_request', attributes } }),
          ),
      );
      for (const created of batch) expect(created.status, JSON.stringify(created.body)).toBe(201);
    }
    phase('requests sent');
    const db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    try {
      const statuses = async () =>
        (await db.query<{ id: string; status: string }>('SELECT id, status FROM tracking_requests'))
          .rows;
      const deadline = Date.now() + CHILD_PATIENCE_MS;
      while (Date.now() < deadline && (await statuses()).some((r) => !FINAL.has(r.status)))
        await sleep(250);
      const rows = await statuses();
      expect(rows).toHaveLength(REQUESTS);
      expect(rows.filter((r) => !FINAL.has(r.status))).toEqual([]);
      phase('all final');

      // Stop looking things up; every notification is then delivered (the dead instance's
      // leased deliveries are taken over once their leases expire).
      await Promise.all(live().map((c) => c.drain()));
      phase('delivered');

      // Exactly once: one succeeded-or-failed event per request.
      const outcomes = await db.query<{ ref: string; n: string }>(
        `SELECT reference_object_id AS ref, COUNT(*) AS n FROM webhook_notifications
          WHERE event IN ('tracking_request.succeeded', 'tracking_request.failed')
          GROUP BY reference_object_id`,
      );
      expect(outcomes.rows.filter((r) => Number(r.n) !== 1)).toEqual([]);
      expect(outcomes.rows.map((r) => r.ref).sort()).toEqual(rows.map((r) => r.id).sort());

      // At least once, with a stable id and body; nothing delivered that is not stored.
      const notifications = (
        await db.query<{ id: string; delivery_status: string; payload: string }>(
          'SELECT id, delivery_status, payload FROM webhook_notifications',
        )
      ).rows;
      expect(notifications.filter((n) => n.delivery_status !== 'succeeded')).toEqual([]);
      expect(notifications.filter((n) => !receiver.acknowledged.has(n.id))).toEqual([]);
      const stored = new Map(notifications.map((n) => [n.id, n.payload]));
      expect([...receiver.bodies.keys()].filter((id) => !stored.has(id))).toEqual([]);
      const variants = [...receiver.bodies].filter(
        ([id, bodies]) => bodies.size !== 1 || [...bodies][0] !== stored.get(id),
      );
      expect(variants.map(([id]) => id)).toEqual([]);
      expect(receiver.rejected).toEqual([]);
      const attempts = await db.query(
        `SELECT n.id FROM webhook_notifications n
           LEFT JOIN webhook_delivery_attempts a ON a.notification_id = n.id
          GROUP BY n.id
         HAVING COUNT(a.id) != n.attempt_count`,
      );
      expect(attempts.rows).toEqual([]);

      const duplicates = await db.query(
        `SELECT container_id, event, timestamp, location_locode, COUNT(*) AS n
           FROM transport_events
          GROUP BY container_id, event, timestamp, location_locode
         HAVING COUNT(*) > 1`,
      );
      expect(duplicates.rows).toEqual([]);
      const eventCount = Number(
        (await db.query<{ n: string }>('SELECT COUNT(*) AS n FROM transport_events')).rows[0]!.n,
      );
      expect(eventCount).toBeGreaterThan(0);

      // The desktop app syncs through a load balancer: each request to a random instance.
      const balancer = await startBalancer(() => live().map((c) => c.baseUrl), random);
      const cacheDir = dirs[INSTANCES]!;
      const cache = Cache.open(cacheDir.dir);
      try {
        const sync = new SyncEngine({
          cache,
          clock: systemClock,
          connection: () => ({ baseUrl: `${balancer.url}/v2`, apiKey }),
          pageSize: 50,
        });
        const result = await sync.sync();
        phase('synced');
        expect(result.skipped).toEqual([]);
        const containers = (
          await db.query<{ id: string; updated_at: Date }>(
            'SELECT id, updated_at FROM containers ORDER BY id',
          )
        ).rows.map((row) => ({ id: row.id, updated_at: row.updated_at.toISOString() }));
        const shipments = (await db.query<{ id: string }>('SELECT id FROM shipments ORDER BY id'))
          .rows;
        expect(containers.length).toBeGreaterThan(0);
        expect(
          cache.allContainers().map((c) => ({ id: c.id, updated_at: c.attributes.updated_at })),
        ).toEqual(containers);
        expect(cache.allShipments().map((s) => s.id)).toEqual(shipments.map((s) => s.id));
        expect(cache.counts().events).toBe(eventCount);
      } finally {
        cache.close();
        await new Promise((resolve) => balancer.server.close(resolve));
      }
      console.log(
        `multi-instance: ${INSTANCES} instances (1 killed), ${rows.length} requests, ` +
          `${notifications.length} notifications, ${receiver.deliveries} deliveries, ` +
          `${eventCount} transport events; ${phases.join(', ')}`,
      );
    } finally {
      await db.end();
    }
  }, 1_800_000);
});

if (missing) it.skip(`several instances on PostgreSQL: ${missing}`, () => {});
