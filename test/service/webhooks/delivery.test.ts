/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies are untyped JSON */
import fs from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ManualClock } from '../../../src/shared/clock';
import { startService, type RunningService } from '../../../src/service';
import type { WebhookStore } from '../../../src/service/store/webhooks';
import type { TrackingEvent } from '../../../src/service/events/event-sink';
import {
  FIXTURE_REFERENCE_DIR,
  seedShipment,
  startTestService,
  type TestService,
} from '../../support/service';
import {
  startReceiver,
  verifySignatures,
  type Answer,
  type Receiver,
} from '../../support/webhook-receiver';
import { until } from '../../support/wait';

const FOUR_HOURS = 4 * 60 * 60_000 + 1000;
const DISCHARGED = 'container.transport.vessel_discharged';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function setup(answer?: (n: number) => Answer, config = {}) {
  const t = await startTestService({ allowPrivateWebhooks: true, ...config });
  cleanups.push(() => t.close());
  const receiver = await startReceiver(answer);
  cleanups.push(() => receiver.close());
  const seeded = await seedShipment(t, t.accountA, 'MEDUWH0001');
  return { t, receiver, seeded };
}

async function createWebhook(t: TestService, url: string, events: string[], key = t.keyA) {
  const res = await t.send(
    'POST',
    '/webhooks',
    { data: { type: 'webhook', attributes: { url, active: true, events } } },
    { key },
  );
  expect(res.status).toBe(201);
  return res.body.data as { id: string; attributes: { secret: string } };
}

/** Adds a transport event and records it through the outbox in one transaction. */
async function discharge(t: TestService | { service: RunningService }, containerId: string) {
  const { tracking, events, context } = t.service.store;
  const row = await tracking.addTransportEvent(containerId, {
    event: DISCHARGED,
    dataSource: 'shipping_line',
    timestamp: '2026-01-20T10:00:00.000Z',
    locationLocode: 'USLAX',
  });
  const event: TrackingEvent = {
    accountId: row.account_id,
    event: DISCHARGED,
    reference: { type: 'transport_event', id: row.id },
    occurredAt: row.created_at,
  };
  await context.stores.transaction((stores) => events.record(stores, event));
  return row;
}

const idle = (t: { service: RunningService }) => t.service.store.context.webhooks.worker.whenIdle();

async function notification(t: TestService, id: string) {
  const res = await t.get(`/webhook_notifications/${id}`);
  expect(res.status).toBe(200);
  return res.body.data;
}

/** Moves the manual clock past the longest retry delay, once per expected retry. */
async function advanceRetries(t: TestService, receiver: Receiver, until: number) {
  for (let i = 0; i < 20 && receiver.received.length < until; i++) {
    t.clock.advance(FOUR_HOURS);
    await idle(t);
  }
}

describe('webhook delivery', () => {
  it('delivers a subscribed event once, signed both ways, with the payload of its family', async () => {
    const { t, receiver, seeded } = await setup();
    const hook = await createWebhook(t, receiver.url, [DISCHARGED]);
    const container = seeded.containers[0]!;
    const row = await discharge(t, container.id);
    await idle(t);

    expect(receiver.received).toHaveLength(1);
    const got = receiver.received[0]!;
    expect(verifySignatures(got, hook.attributes.secret)).toEqual({
      reference: true,
      standard: true,
    });
    expect(verifySignatures(got, 'whsec_' + Buffer.from('wrong').toString('base64'))).toEqual({
      reference: false,
      standard: false,
    });
    expect(got.headers['content-type']).toBe('application/json');
    expect(Number(got.headers['webhook-timestamp'])).toBe(Math.floor(t.clock.now() / 1000));
    const body = got.json;
    expect(got.headers['webhook-id']).toBe(body.data.id);
    expect(body.data).toMatchObject({
      type: 'webhook_notification',
      attributes: { event: DISCHARGED, delivery_status: 'pending' },
      relationships: {
        webhook: { data: { type: 'webhook', id: hook.id } },
        reference_object: { data: { type: 'transport_event', id: row.id } },
      },
    });
    const types = body.included.map((r: any) => `${r.type}:${r.id}`);
    expect(types).toEqual(
      expect.arrayContaining([
        `transport_event:${row.id}`,
        `container:${container.id}`,
        `shipment:${seeded.shipment.id}`,
      ]),
    );
    expect(body.included.some((r: any) => r.type === 'port')).toBe(true);

    const n = await notification(t, body.data.id);
    expect(n.attributes.delivery_status).toBe('succeeded');
    expect(n.attributes.delivery_attempts).toHaveLength(1);
    expect(n.attributes.delivery_attempts[0]).toMatchObject({ status_code: 200, error: null });

    // Listing with include resolves the reference object and the webhook.
    const list = await t.get('/webhook_notifications?include=reference_object,webhook');
    expect(list.body.data).toHaveLength(1);
    expect(list.body.included.map((r: any) => r.type).sort()).toEqual([
      'transport_event',
      'webhook',
    ]);
    // Nothing else arrives later.
    t.clock.advance(FOUR_HOURS);
    await idle(t);
    expect(receiver.received).toHaveLength(1);
  });

  it('does not send events the webhook is not subscribed to, nor to other accounts', async () => {
    const { t, receiver, seeded } = await setup();
    await createWebhook(t, receiver.url, ['container.transport.vessel_loaded']);
    const other = await startReceiver();
    cleanups.push(() => other.close());
    await createWebhook(t, other.url, [DISCHARGED], t.keyB);
    await discharge(t, seeded.containers[0]!.id);
    await idle(t);
    expect(receiver.received).toHaveLength(0);
    expect(other.received).toHaveLength(0);
    expect((await t.get('/webhook_notifications')).body.meta.total).toBe(0);
  });

  it('writes nothing when the change that caused the event rolls back', async () => {
    const { t, receiver, seeded } = await setup();
    await createWebhook(t, receiver.url, [DISCHARGED]);
    const { events, context } = t.service.store;
    await expect(
      context.stores.transaction(async (stores) => {
        await events.record(stores, {
          accountId: t.accountA,
          event: DISCHARGED,
          reference: { type: 'container', id: seeded.containers[0]!.id },
          occurredAt: new Date(t.clock.now()).toISOString(),
        });
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    await idle(t);
    expect(receiver.received).toHaveLength(0);
    expect((await t.get('/webhook_notifications')).body.meta.total).toBe(0);
  });

  it('retries a failing receiver: 3 failures then success is exactly 4 attempts', async () => {
    const { t, receiver, seeded } = await setup((n) => (n < 3 ? 500 : 200));
    await createWebhook(t, receiver.url, [DISCHARGED]);
    await discharge(t, seeded.containers[0]!.id);
    await idle(t);
    expect(receiver.received).toHaveLength(1);
    const id = receiver.received[0]!.json.data.id;
    expect((await notification(t, id)).attributes).toMatchObject({
      delivery_status: 'pending',
      attempt_count: 1,
    });

    await advanceRetries(t, receiver, 4);
    // Further time brings no more attempts.
    for (let i = 0; i < 3; i++) {
      t.clock.advance(FOUR_HOURS);
      await idle(t);
    }
    expect(receiver.received).toHaveLength(4);
    // The same notification id on every attempt (receivers deduplicate on it).
    expect(new Set(receiver.received.map((r) => r.headers['webhook-id']))).toEqual(new Set([id]));
    const n = await notification(t, id);
    expect(n.attributes.delivery_status).toBe('succeeded');
    expect(n.attributes.delivery_attempts.map((a: any) => a.status_code)).toEqual([
      500, 500, 500, 200,
    ]);
    expect((await t.get('/webhook_notifications')).body.meta.total).toBe(1);
  });

  it('gives up after 12 retries and marks the notification failed', async () => {
    const { t, receiver, seeded } = await setup(() => 503);
    await createWebhook(t, receiver.url, [DISCHARGED]);
    await discharge(t, seeded.containers[0]!.id);
    await idle(t);
    await advanceRetries(t, receiver, 14);
    expect(receiver.received).toHaveLength(13);
    const n = await notification(t, receiver.received[0]!.json.data.id);
    expect(n.attributes.delivery_status).toBe('failed');
    expect(n.attributes.next_attempt_at).toBeNull();
    expect(n.attributes.delivery_attempts).toHaveLength(13);
    expect(n.attributes.delivery_attempts.every((a: any) => a.error === 'HTTP 503')).toBe(true);
  });

  it('backs off exponentially between attempts', async () => {
    const { t, receiver, seeded } = await setup(() => 500);
    await createWebhook(t, receiver.url, [DISCHARGED]);
    await discharge(t, seeded.containers[0]!.id);
    await idle(t);
    const id = receiver.received[0]!.json.data.id;
    const gaps: number[] = [];
    for (let k = 1; k <= 4; k++) {
      const before = (await notification(t, id)).attributes;
      const gap = Date.parse(before.next_attempt_at) - Date.parse(before.last_attempt_at);
      gaps.push(gap);
      // Not yet due one second before: no attempt.
      t.clock.advanceTo(Date.parse(before.next_attempt_at) - 1000);
      await idle(t);
      expect(receiver.received).toHaveLength(k);
      t.clock.advance(1000);
      await idle(t);
      expect(receiver.received).toHaveLength(k + 1);
    }
    // Base 30 s doubling with jitter in [50%, 100%].
    gaps.forEach((gap, i) => {
      expect(gap).toBeGreaterThanOrEqual(15_000 * 2 ** i);
      expect(gap).toBeLessThanOrEqual(30_000 * 2 ** i);
    });
  });

  it('resumes pending deliveries after a restart on the same data dir', async () => {
    const { t, receiver, seeded } = await setup((n) => (n === 0 ? 500 : 200));
    await createWebhook(t, receiver.url, [DISCHARGED]);
    await discharge(t, seeded.containers[0]!.id);
    await idle(t);
    expect(receiver.received).toHaveLength(1);
    const id = receiver.received[0]!.json.data.id;

    await t.service.close();
    const clock = new ManualClock(t.clock.now());
    const restarted = await startService({
      dataDir: t.dataDir,
      database: t.database,
      host: '127.0.0.1',
      port: 0,
      clock,
      referenceDir: FIXTURE_REFERENCE_DIR,
      config: { allowPrivateWebhooks: true },
    });
    // The first service is closed; the cleanup closes the new one and removes the dir.
    cleanups.push(async () => {
      await restarted.close();
      fs.rmSync(t.dataDir, { recursive: true, force: true });
    });
    (t as { close: () => Promise<void> }).close = async () => {};
    const again = { service: restarted };
    await idle(again);
    expect(receiver.received).toHaveLength(1);
    clock.advance(FOUR_HOURS);
    await idle(again);
    expect(receiver.received).toHaveLength(2);
    expect(receiver.received[1]!.json.data.id).toBe(id);
    const res = await fetch(`${restarted.baseUrl}/webhook_notifications/${id}`, {
      headers: { Authorization: `Token ${t.keyA}` },
    });
    const n = ((await res.json()) as any).data;
    expect(n.attributes.delivery_status).toBe('succeeded');
    expect(n.attributes.delivery_attempts).toHaveLength(2);
  });

  it('a slow receiver does not delay another receiver', async () => {
    // The slow receiver holds its requests until released: the sender must not give up on them
    // first (10 s by default), or its two waiting notifications would go out in their place and
    // it would hold six. A busy machine can take longer than that to record the six discharges.
    const { t, seeded } = await setup(undefined, { webhookTimeoutMs: 300_000 });
    const slow = await startReceiver(() => 'hold');
    cleanups.push(() => slow.close());
    const fast = await startReceiver();
    cleanups.push(() => fast.close());
    await createWebhook(t, slow.url, [DISCHARGED]);
    await createWebhook(t, fast.url, [DISCHARGED]);
    for (let i = 0; i < 6; i++) await discharge(t, seeded.containers[i % 2]!.id);
    // The slow receiver holds at most its per-webhook share of delivery slots; the fast one gets
    // every notification meanwhile.
    await until(() => fast.received.length === 6 && slow.held === 4);
    await until(async () => {
      const list = await t.get('/webhook_notifications?page[size]=100');
      return (
        list.body.data.filter((n: any) => n.attributes.delivery_status === 'succeeded').length === 6
      );
    });
    expect(slow.held).toBe(4);
    expect(slow.received).toHaveLength(4);
    while (slow.received.length < 6 || slow.held > 0) {
      slow.release(200);
      await new Promise((r) => setTimeout(r, 10));
    }
    await idle(t);
    const list = await t.get('/webhook_notifications?page[size]=100');
    expect(list.body.data).toHaveLength(12);
    expect(list.body.data.every((n: any) => n.attributes.delivery_status === 'succeeded')).toBe(
      true,
    );
  });

  it('counts a receiver that does not answer in time as a failed attempt', async () => {
    const { t, receiver, seeded } = await setup(() => 'hold', { webhookTimeoutMs: 200 });
    await createWebhook(t, receiver.url, [DISCHARGED]);
    await discharge(t, seeded.containers[0]!.id);
    await idle(t);
    const n = await notification(t, receiver.received[0]!.json.data.id);
    expect(n.attributes.delivery_status).toBe('pending');
    expect(n.attributes.delivery_attempts[0]).toMatchObject({
      status_code: null,
      error: 'timed out after 200 ms',
    });
  });

  it('does not follow redirects', async () => {
    const target = await startReceiver();
    cleanups.push(() => target.close());
    const { t, receiver, seeded } = await setup(() => ({
      status: 302,
      headers: { location: target.url },
    }));
    await createWebhook(t, receiver.url, [DISCHARGED]);
    await discharge(t, seeded.containers[0]!.id);
    await idle(t);
    expect(receiver.received).toHaveLength(1);
    expect(target.received).toHaveLength(0);
    const n = await notification(t, receiver.received[0]!.json.data.id);
    expect(n.attributes.delivery_attempts[0].error).toMatch(/redirect not followed/);
  });

  it('holds deliveries of an inactive webhook until it is active again', async () => {
    const { t, receiver, seeded } = await setup();
    const hook = await createWebhook(t, receiver.url, [DISCHARGED]);
    // Deactivate after the event was recorded (a notification exists), then reactivate.
    const patch = (active: boolean) =>
      t.send('PATCH', `/webhooks/${hook.id}`, {
        data: { type: 'webhook', attributes: { active } },
      });
    await t.service.store.context.webhooks.worker.stop();
    await discharge(t, seeded.containers[0]!.id);
    expect((await patch(false)).status).toBe(200);
    t.service.store.context.webhooks.worker.start();
    await idle(t);
    expect(receiver.received).toHaveLength(0);
    await patch(true);
    await until(() => receiver.received.length === 1);
    // Inactive webhooks get no new notifications at all.
    await patch(false);
    await discharge(t, seeded.containers[1]!.id);
    await idle(t);
    expect((await t.get('/webhook_notifications')).body.meta.total).toBe(1);

    // Deleting the webhook removes its notifications and their attempts.
    const res = await fetch(`${t.baseUrl}/webhooks/${hook.id}`, {
      method: 'DELETE',
      headers: { Authorization: `Token ${t.keyA}` },
    });
    expect(res.status).toBe(200);
    expect((await t.get('/webhook_notifications')).body.meta.total).toBe(0);
  });

  it('a look-up or a recording that fails (database busy) is tried again without new work', async () => {
    const { t, receiver, seeded } = await setup();
    await createWebhook(t, receiver.url, [DISCHARGED]);
    // The worker's own store: the one place a database failure reaches delivery.
    const { worker } = t.service.store.context.webhooks;
    const store = (worker as unknown as { store: WebhookStore }).store;
    const lookUp = vi
      .spyOn(store, 'dueDeliveries')
      .mockRejectedValueOnce(new Error('SQLITE_BUSY: database is locked'));
    await discharge(t, seeded.containers[0]!.id);
    // Nothing new is recorded after the failed look-up: only the worker's own retry delivers.
    await until(() => receiver.received.length === 1);
    expect(lookUp.mock.calls.length).toBeGreaterThan(1);
    // That delivery's own recording finishes before the next part counts recordings.
    await idle(t);

    const record = vi
      .spyOn(store, 'recordAttempt')
      .mockRejectedValueOnce(new Error('SQLITE_BUSY: database is locked'));
    await discharge(t, seeded.containers[1]!.id);
    await until(() => receiver.received.length === 3);
    await idle(t);
    expect(record).toHaveBeenCalledTimes(2);
    // The unrecorded send went again after the pause, with the same id; the record is whole.
    const [second, third] = receiver.received.slice(1).map((r) => r.json.data.id as string);
    expect(third).toBe(second);
    const n = await notification(t, second!);
    expect(n.attributes.delivery_status).toBe('succeeded');
    expect(n.attributes.delivery_attempts).toHaveLength(1);
  }, 180_000);
});
