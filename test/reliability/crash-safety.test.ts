/**
 * Crash safety: the service runs in a child process beside a fast simulated world (which stays up
 * in this process, as the outside world would) and delivers webhooks to a receiver here that
 * sometimes fails or answers slowly. The child is killed with SIGKILL at random points while it
 * tracks and delivers, and restarted on the same data dir each time. At the end the database must
 * be intact and every notification it holds delivered, at least once and always with the same
 * body; nothing delivered that the database does not hold as succeeded.
 */
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { demoTrackingRequests, listTrackableNumbers, startSimWorld } from '../../src/sim';
import type { RunningSimWorld } from '../../src/sim';
import { DATABASE_FILE } from '../../src/service/store/db';
import { WEBHOOK_EVENT_CATEGORIES } from '../../src/service/webhooks/catalog';
import { ScaledClock } from '../../src/shared/clock';
import { tempDir } from '../support/cache-fixtures';
import { prng } from '../support/sync-harness';
import { startChildService, type ChildService } from '../support/service-process';
import { startWebhookReceiver, type WebhookReceiver } from '../support/flaky-webhook-receiver';

const SEED = 7;
/** Simulated seconds per real second: about five simulated days over the run. */
const SPEED = 12_000;
const KILLS = 5;
const REQUEST_STATES = new Set([
  'pending',
  'awaiting_manifest',
  'created',
  'failed',
  'tracking_stopped',
]);

let sim: RunningSimWorld;
let receiver: WebhookReceiver;
const tmp = tempDir('quayside-crash-');
const random = prng(20261121);
const realStart = Date.now();
const origin = Date.now();
const clock = new ScaledClock(origin, SPEED);

beforeAll(async () => {
  sim = await startSimWorld({
    seed: SEED,
    clock,
    host: '127.0.0.1',
    errorRates: { serverError: 0.05, malformed: 0.02 },
  });
  receiver = await startWebhookReceiver({ failureRate: 0.1, slowRate: 0.1, slowMs: 80, random });
});

afterAll(async () => {
  await receiver?.close();
  await sim?.close();
  tmp.remove();
});

function startChild(): Promise<ChildService> {
  return startChildService({
    dataDir: tmp.dir,
    feeds: sim.feedsDocument(),
    origin,
    realStart,
    speed: SPEED,
  });
}

async function api(
  child: ChildService,
  apiKey: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: { data?: { id: string; attributes: { secret?: string } } } }> {
  const res = await fetch(`${child.baseUrl}${path}`, {
    method,
    headers: { Authorization: `Token ${apiKey}`, 'Content-Type': 'application/vnd.api+json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as never };
}

/** Tracking requests for a lively account: the demo set plus more of the world's numbers. */
function requestsToTrack(): { request_type: string; request_number: string; scac: string }[] {
  const demo = demoTrackingRequests(SEED);
  const taken = new Set(demo.map((r) => r.request_number));
  const more = listTrackableNumbers(SEED)
    .filter((n) => !taken.has(n.request_number) && n.request_type !== 'booking_number')
    .slice(0, 30);
  return [...demo, ...more];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// Five restarts and a drain, each waiting on its condition: minutes on a busy machine (the
// limit, half an hour, only ends a run that hangs).
it('SIGKILL during tracking and webhook delivery loses and corrupts nothing', async () => {
  let child = await startChild();
  const apiKey = child.initialKey!;
  expect(apiKey).toBeTruthy();

  const events = WEBHOOK_EVENT_CATEGORIES.flatMap((c) => c.events.map((e) => e.name));
  const hook = await api(child, apiKey, 'POST', '/webhooks', {
    data: { type: 'webhook', attributes: { url: receiver.url, events } },
  });
  expect(hook.status).toBe(201);
  receiver.secret = hook.body.data!.attributes.secret ?? null;

  // Half the requests now, the rest while kills happen (some of those may die with the child).
  const requests = requestsToTrack();
  const first = requests.slice(0, Math.ceil(requests.length / 2));
  const later = requests.slice(first.length);
  for (const r of first) {
    const created = await api(child, apiKey, 'POST', '/tracking_requests', {
      data: { type: 'tracking_request', attributes: r },
    });
    expect(created.status).toBe(201);
  }

  for (let kill = 0; kill < KILLS; kill++) {
    const current = child;
    const creating = (async () => {
      for (const r of later.splice(0, 5)) {
        await api(current, apiKey, 'POST', '/tracking_requests', {
          data: { type: 'tracking_request', attributes: r },
        }).catch(() => undefined);
      }
    })();
    await sleep(800 + Math.floor(random() * 2_200));
    await child.kill();
    await creating;
    child = await startChild();
  }

  // A last stretch of normal running, then stop tracking and let every delivery finish.
  await sleep(1_500);
  await child.drain();
  expect(await child.stop()).toBe(0);

  const db = new SQLite(join(tmp.dir, DATABASE_FILE), { readonly: true });
  try {
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(db.pragma('foreign_key_check')).toEqual([]);

    const notifications = db
      .prepare('SELECT id, delivery_status, payload FROM webhook_notifications')
      .all() as { id: string; delivery_status: string; payload: string }[];
    // The run must have produced real work for the checks below to mean anything.
    expect(notifications.length).toBeGreaterThan(50);
    const undelivered = notifications.filter((n) => !receiver.acknowledged.has(n.id));
    expect(undelivered.map((n) => `${n.id} ${n.delivery_status}`)).toEqual([]);
    expect(notifications.filter((n) => n.delivery_status !== 'succeeded')).toEqual([]);
    // The receiver got exactly what the database holds: each body as stored, never a variant.
    const stored = new Map(notifications.map((n) => [n.id, n.payload]));
    const unknown = [...receiver.bodies.keys()].filter((id) => !stored.has(id));
    expect(unknown).toEqual([]);
    const variants = [...receiver.bodies].filter(
      ([id, bodies]) => bodies.size !== 1 || [...bodies][0] !== stored.get(id),
    );
    expect(variants.map(([id]) => id)).toEqual([]);
    expect(receiver.acknowledged.size).toBe(
      notifications.filter((n) => n.delivery_status === 'succeeded').length,
    );
    expect(receiver.rejected).toEqual([]);
    // Each recorded attempt is written with its notification's update: counts always agree,
    // and a succeeded notification has exactly one succeeded attempt.
    const attemptMismatch = db
      .prepare(
        `SELECT n.id FROM webhook_notifications n
           LEFT JOIN webhook_delivery_attempts a ON a.notification_id = n.id
          GROUP BY n.id
         HAVING COUNT(a.id) != n.attempt_count
             OR SUM(a.succeeded) != (n.delivery_status = 'succeeded')`,
      )
      .all();
    expect(attemptMismatch).toEqual([]);

    const duplicateEvents = db
      .prepare(
        `SELECT container_id, event, timestamp, location_locode, COUNT(*) AS n
           FROM transport_events
          GROUP BY container_id, event, timestamp, location_locode
         HAVING n > 1`,
      )
      .all();
    expect(duplicateEvents).toEqual([]);
    const eventCount = (
      db.prepare('SELECT COUNT(*) AS n FROM transport_events').get() as {
        n: number;
      }
    ).n;
    expect(eventCount).toBeGreaterThan(0);

    const trackingRequests = db
      .prepare(
        `SELECT r.id, r.status, r.failed_reason, r.shipment_id, s.id AS shipment
           FROM tracking_requests r LEFT JOIN shipments s ON s.id = r.shipment_id`,
      )
      .all() as {
      id: string;
      status: string;
      failed_reason: string | null;
      shipment_id: string | null;
      shipment: string | null;
    }[];
    expect(trackingRequests.length).toBeGreaterThanOrEqual(first.length);
    const invalid = trackingRequests.filter(
      (r) =>
        !REQUEST_STATES.has(r.status) ||
        (r.status === 'failed' && !r.failed_reason) ||
        ((r.status === 'created' || r.status === 'tracking_stopped') && !r.shipment) ||
        (r.status !== 'created' && r.status !== 'tracking_stopped' && r.shipment_id !== null),
    );
    expect(invalid).toEqual([]);
    expect(trackingRequests.some((r) => r.status === 'created')).toBe(true);

    console.log(
      `crash-safety: ${KILLS} kills, ${notifications.length} notifications, ` +
        `${receiver.deliveries} deliveries (${[...receiver.acknowledged.values()].filter((n) => n > 1).length} redelivered after an ack), ` +
        `${eventCount} transport events, ${trackingRequests.length} tracking requests`,
    );
  } finally {
    db.close();
  }
}, 1_800_000);
