/* eslint-disable @typescript-eslint/no-explicit-any -- API bodies are untyped JSON */
/**
 * DCSA event subscriptions, end to end: two standalone services track the same bill of lading at
 * a carrier that offers push (the simulated header-key carrier, reached through a feeds file).
 * One subscribes and only hears pushes; the other polls. After the world moves on, the pushed
 * service holds the same events as the polling one without asking the carrier, a forged
 * callback changes nothing, and stopping tracking removes the subscription at the carrier.
 */
import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService, type ServiceOptions } from '../../../../src/service';
import { testDatabase } from '../../../support/store-kinds';
import { parseFeedsConfig } from '../../../../src/service/feeds/config';
import { ManualClock } from '../../../../src/shared/clock';
import { startSimWorld, type RunningSimWorld } from '../../../../src/sim';
import { buildEvents } from '../../../../src/sim/carriers/events';
import type { ShipmentPlan } from '../../../../src/sim/world/plan';

const START = Date.UTC(2026, 2, 10, 6);
const DAY = 86_400_000;
let clock: ManualClock;
let sim: RunningSimWorld;
let pushed: RunningService;
let polled: RunningService;
const dataDirs: string[] = [];
/** The PostgreSQL database of each data folder (postgres test project), for restarts. */
const databases = new Map<string, ServiceOptions['database']>();
/** API keys by service: shown only at a data folder's first start, so kept across restarts. */
const apiKeys = new Map<string, string>();
let scac: string;
let shipment: ShipmentPlan;

async function startWithFeeds(subscriptions: boolean): Promise<RunningService> {
  const described = parseFeedsConfig(sim.feedsDocument(), 'simulated world');
  const carrier = described.carriers.find((c) => c.scac === scac)!;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quayside-push-'));
  dataDirs.push(dataDir);
  const document = sim.feedsDocument() as { carriers: Record<string, Record<string, unknown>> };
  const feeds = parseFeedsConfig(
    {
      carriers: {
        [scac]: { ...document.carriers[scac], subscriptions, requests_per_minute: 600 },
      },
    },
    `feeds of a ${subscriptions ? 'subscribing' : 'polling'} service`,
  );
  expect(feeds.carriers[0]!.dcsaBaseUrl).toBe(carrier.dcsaBaseUrl);
  const database = await testDatabase();
  databases.set(dataDir, database);
  const service = await startService({ dataDir, database, port: 0, clock, feeds });
  apiKeys.set(service.baseUrl, service.initialKey!);
  return service;
}

beforeAll(async () => {
  clock = new ManualClock(START);
  sim = await startSimWorld({ seed: 42, clock, carrierAuth: true });
  const described = parseFeedsConfig(sim.feedsDocument(), 'simulated world');
  const subscribing = (sim.feedsDocument() as any).carriers as Record<string, any>;
  scac = described.carriers.find((c) => subscribing[c.scac]?.subscriptions === true)!.scac;
  // A shipment the line knows now and that has more events to come in the next two days.
  const now = clock.now();
  shipment = sim.world.model.shipmentsOf(scac, now).find((s) => {
    const events = buildEvents(s, sim.world.model.seed);
    return (
      s.cancelledAt === null &&
      s.blKnownFrom <= now &&
      s.containers.length > 0 &&
      events.some((e) => e.createdAt <= now) &&
      events.filter(
        (e) =>
          e.createdAt > now &&
          e.createdAt <= now + 2 * DAY &&
          (e.body as { eventClassifierCode?: string }).eventClassifierCode === 'ACT' &&
          (e.body as { eventType?: string }).eventType !== 'SHIPMENT',
      ).length >= 2
    );
  })!;
  expect(shipment, `a moving shipment of ${scac}`).toBeDefined();
  pushed = await startWithFeeds(true);
  polled = await startWithFeeds(false);
});
afterAll(async () => {
  await pushed?.close();
  await polled?.close();
  await sim?.close();
  for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
});

async function call(service: RunningService, method: string, p: string, body?: unknown) {
  const res = await fetch(service.baseUrl + p, {
    method,
    headers: {
      Authorization: `Token ${service.initialKey ?? apiKeys.get(service.baseUrl)}`,
      ...(body === undefined ? {} : { 'Content-Type': 'application/vnd.api+json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
}

async function track(service: RunningService): Promise<string> {
  const created = await call(service, 'POST', '/tracking_requests', {
    data: {
      type: 'tracking_request',
      attributes: { request_type: 'bill_of_lading', request_number: shipment.billOfLading, scac },
    },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  await service.engine!.drain();
  const request = await call(service, 'GET', `/tracking_requests/${created.body.data.id}`);
  expect(request.body.data.attributes.status).toBe('created');
  return request.body.data.relationships.tracked_object.data.id;
}

/** What a dispatcher sees of the shipment's boxes: each container's events, in order. */
async function eventsSeen(service: RunningService, shipmentId: string) {
  const got = await call(service, 'GET', `/shipments/${shipmentId}?include=containers`);
  const out: Record<string, string[]> = {};
  for (const container of got.body.included as any[]) {
    const events = await call(service, 'GET', `/containers/${container.id}/transport_events`);
    out[container.attributes.number] = (events.body.data as any[])
      .map((e) => `${e.attributes.timestamp} ${e.attributes.event}`)
      .sort();
  }
  return out;
}

async function scrape(service: RunningService, name: string, labels: string): Promise<number> {
  const text = await (await fetch(service.baseUrl.replace(/\/v2$/, '/metrics'))).text();
  const line = text.split('\n').find((l) => l.startsWith(`${name}{`) && l.includes(labels));
  return line ? Number(line.split(' ').at(-1)) : 0;
}

const carrierRequests = (service: RunningService) =>
  scrape(service, 'quayside_feed_requests_total', `source="${scac}",kind="carrier"`);

describe('DCSA event subscriptions', () => {
  let pushedId: string;
  let polledId: string;

  it('subscribe after the first lookup, with a callback on the service', async () => {
    pushedId = await track(pushed);
    polledId = await track(polled);
    const held = sim.carrierSubscriptions.all().filter((s) => s.scac === scac);
    expect(held).toHaveLength(1); // the polling service holds none
    expect(held[0]!.callbackUrl).toMatch(
      new RegExp(`^http://127\\.0\\.0\\.1:${pushed.port}/feeds/dcsa/callbacks/[0-9a-f-]{36}$`),
    );
    expect(held[0]!.filter).toEqual({ transportDocumentReference: shipment.billOfLading });
  });

  it('pushed events reach the same state as polling, without asking the carrier', async () => {
    const before = await eventsSeen(pushed, pushedId);
    expect(before).toEqual(await eventsSeen(polled, polledId));
    const asked = await carrierRequests(pushed);

    clock.advance(2 * DAY);
    await polled.engine!.drain(); // its line check is due: it polls
    const polledState = await eventsSeen(polled, polledId);
    expect(polledState).not.toEqual(before);

    // The carrier pushes on its own every second; this only saves the wait.
    await sim.pushCarrierSubscriptions();
    await expect
      .poll(() => eventsSeen(pushed, pushedId), { timeout: 60_000, interval: 100 })
      .toEqual(polledState);
    // Its own line check was due too, but a live subscription stands in for it.
    await pushed.engine!.drain();
    expect(await carrierRequests(pushed)).toBe(asked);
    expect(
      await scrape(pushed, 'quayside_subscription_callbacks_total', 'verdict="accepted"'),
    ).toBeGreaterThan(0);
  });

  it('refuses a forged callback and does not apply a replayed one twice', async () => {
    const subscription = sim.carrierSubscriptions.all().find((s) => s.scac === scac)!;
    const state = await eventsSeen(pushed, pushedId);
    const known = buildEvents(shipment, sim.world.model.seed).filter(
      (e) => e.createdAt <= clock.now(),
    );
    const body = JSON.stringify(known.slice(0, 3).map((e) => e.body));
    const send = (secret: Buffer) =>
      fetch(subscription.callbackUrl, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          'Notification-Signature': `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`,
        },
        body,
      });

    const forged = await send(Buffer.alloc(32, 7));
    expect(forged.status).toBe(401);
    expect(((await forged.json()) as any).errors[0].source).toEqual({
      header: 'Notification-Signature',
    });
    expect(await eventsSeen(pushed, pushedId)).toEqual(state);
    expect(await scrape(pushed, 'quayside_subscription_callbacks_total', 'verdict="refused"')).toBe(
      1,
    );

    const unknown = await fetch(subscription.callbackUrl.replace(/[0-9a-f-]{36}$/, 'nope'), {
      method: 'POST',
      body,
    });
    expect(unknown.status).toBe(404);

    // Signed with the real secret: accepted once (events already known change nothing), then
    // acknowledged as a replay and not applied again. The simulated carrier keeps pushing (and
    // retrying) on its own meanwhile, so the counts are compared around each send.
    const secret = Buffer.from(subscription.secret, 'base64');
    const verdicts = async () => ({
      accepted: await scrape(pushed, 'quayside_subscription_callbacks_total', 'verdict="accepted"'),
      replayed: await scrape(pushed, 'quayside_subscription_callbacks_total', 'verdict="replayed"'),
    });
    const beforeFirst = await verdicts();
    expect((await send(secret)).status).toBe(204);
    const afterFirst = await verdicts();
    expect(afterFirst.accepted).toBeGreaterThan(beforeFirst.accepted);
    expect((await send(secret)).status).toBe(204);
    expect((await verdicts()).replayed).toBeGreaterThan(afterFirst.replayed);
    expect(await eventsSeen(pushed, pushedId)).toEqual(state);
  });

  it('keeps its subscription across a restart and deletes it when tracking stops', async () => {
    const dataDir = dataDirs[0]!;
    const key = apiKeys.get(pushed.baseUrl)!;
    await pushed.close();
    const document = sim.feedsDocument() as { carriers: Record<string, Record<string, unknown>> };
    pushed = await startService({
      dataDir,
      database: databases.get(dataDir),
      port: 0,
      clock,
      feeds: parseFeedsConfig(
        { carriers: { [scac]: { ...document.carriers[scac], subscriptions: true } } },
        'feeds after restart',
      ),
    });
    apiKeys.set(pushed.baseUrl, key);
    expect(sim.carrierSubscriptions.all().filter((s) => s.scac === scac)).toHaveLength(1);

    const stopped = await call(pushed, 'PATCH', `/shipments/${pushedId}/stop_tracking`);
    expect(stopped.status).toBe(200);
    await pushed.engine!.drain();
    expect(sim.carrierSubscriptions.all().filter((s) => s.scac === scac)).toHaveLength(0);
  });
});
