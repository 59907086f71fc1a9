/* eslint-disable @typescript-eslint/no-explicit-any -- API bodies are untyped JSON */
/**
 * A standalone service (no simulated world beside it) configured by a feeds file tracks a bill of
 * lading through a carrier behind OAuth2: the carrier here is the simulated one, reached only
 * through the file, its credentials given as environment variables the way an operator would.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../../../../src/service';
import { loadFeedsFile, parseFeedsConfig } from '../../../../src/service/feeds/config';
import { ManualClock } from '../../../../src/shared/clock';
import { startSimWorld, type RunningSimWorld } from '../../../../src/sim';
import { buildEvents } from '../../../../src/sim/carriers/events';
import type { ShipmentPlan } from '../../../../src/sim/world/plan';

const START = Date.UTC(2026, 2, 10, 6);
const ENV = { id: 'QS_TEST_CARRIER_CLIENT_ID', secret: 'QS_TEST_CARRIER_CLIENT_SECRET' };
let clock: ManualClock;
let sim: RunningSimWorld;
let service: RunningService;
let dataDir: string;
let scac: string;

beforeAll(async () => {
  clock = new ManualClock(START);
  sim = await startSimWorld({ seed: 42, clock, carrierAuth: true, tokenLifetimeSeconds: 3600 });
  // The simulated carriers' own description tells this test which one uses OAuth2 and its keys.
  const described = parseFeedsConfig(sim.feedsDocument(), 'simulated world');
  const carrier = described.carriers.find((c) => c.auth.type === 'oauth2_client_credentials')!;
  if (carrier.auth.type !== 'oauth2_client_credentials') throw new Error('no OAuth2 carrier');
  scac = carrier.scac;
  process.env[ENV.id] = carrier.auth.clientId.reveal();
  process.env[ENV.secret] = carrier.auth.clientSecret.reveal();

  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quayside-feeds-standalone-'));
  const file = path.join(dataDir, 'feeds.yaml');
  fs.writeFileSync(
    file,
    [
      'carriers:',
      `  ${scac}:`,
      `    dcsa: ${carrier.dcsaBaseUrl}`,
      `    auth: { type: oauth2_client_credentials, token_url: ${carrier.auth.tokenUrl},`,
      `            client_id: \${${ENV.id}}, client_secret: \${${ENV.secret}} }`,
      '    requests_per_minute: 600',
      '',
    ].join('\n'),
  );
  service = await startService({ dataDir, port: 0, clock, feeds: loadFeedsFile(file) });
});
afterAll(async () => {
  await service?.close();
  await sim?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
  delete process.env[ENV.id];
  delete process.env[ENV.secret];
});

async function call(method: string, p: string, body?: unknown): Promise<any> {
  const res = await fetch(service.baseUrl + p, {
    method,
    headers: {
      Authorization: `Token ${service.initialKey}`,
      'Content-Type': 'application/vnd.api+json',
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

/** Shipments of the OAuth2 carrier whose bill of lading the line already answers for. */
function trackableShipments(): ShipmentPlan[] {
  const now = clock.now();
  return sim.world.model
    .shipmentsOf(scac, now)
    .filter(
      (s) =>
        s.cancelledAt === null &&
        s.blKnownFrom <= now &&
        s.containers.length > 0 &&
        buildEvents(s, sim.world.model.seed).some((e) => e.createdAt <= now),
    );
}

async function trackBl(bl: string): Promise<any> {
  const created = await call('POST', '/tracking_requests', {
    data: {
      type: 'tracking_request',
      attributes: { request_type: 'bill_of_lading', request_number: bl, scac },
    },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  await service.engine!.drain();
  return (await call('GET', `/tracking_requests/${created.body.data.id}`)).body.data;
}

describe('a standalone service with a feeds file', () => {
  it('tracks a bill of lading through an OAuth2 carrier, fetching one token', async () => {
    const [shipment] = trackableShipments();
    expect(shipment, `a shipment of ${scac}`).toBeDefined();
    const request = await trackBl(shipment!.billOfLading);
    expect(request.attributes.status).toBe('created');
    const shipmentId = request.relationships.tracked_object.data.id;
    const got = await call('GET', `/shipments/${shipmentId}?include=containers`);
    expect(got.body.data.attributes.bill_of_lading_number).toBe(shipment!.billOfLading);
    const numbers = got.body.included.map((c: any) => c.attributes.number).sort();
    expect(numbers).toEqual(shipment!.containers.map((c) => c.number).sort());
    const containerId = got.body.included[0].id;
    const events = await call('GET', `/containers/${containerId}/transport_events`);
    expect(events.body.data.length).toBeGreaterThan(0);
    // Every lookup of the run (events, line deadlines) shared one token.
    expect(sim.carrierTokens.issued).toBe(1);
  });

  it('renews the token once after the carrier refuses it, and retries', async () => {
    const second = trackableShipments()[1];
    expect(second, `a second shipment of ${scac}`).toBeDefined();
    sim.carrierTokens.revokeAll();
    const request = await trackBl(second!.billOfLading);
    expect(request.attributes.status).toBe('created');
    expect(sim.carrierTokens.issued).toBe(2);
  });

  it('refuses a line it has no source for, naming the ones it has', async () => {
    const other = sim.world.model.shipments.find((s) => s.scac !== scac)!;
    const res = await call('POST', '/tracking_requests', {
      data: {
        type: 'tracking_request',
        attributes: {
          request_type: 'bill_of_lading',
          request_number: other.billOfLading,
          scac: other.scac,
        },
      },
    });
    expect(res.status).toBe(422);
    expect(res.body.errors[0].source).toEqual({ pointer: '/data/attributes/scac' });
    expect(res.body.errors[0].detail).toContain(`Supported: ${scac}`);
    const lines = (await call('GET', '/shipping_lines')).body.data as any[];
    const flag = (code: string) =>
      lines.find((l) => l.attributes.scac === code)?.attributes.bill_of_lading_tracking_support;
    expect(flag(scac)).toBe(true);
    expect(flag(other.scac)).toBe(false);
  });

  it('serves Prometheus metrics that move with the traffic, and a health answer, without a key', async () => {
    const scrape = async () => {
      const res = await fetch(service.baseUrl.replace(/\/v2$/, '/metrics'));
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/plain');
      return res.text();
    };
    const sample = (text: string, name: string, labels: string): number => {
      const line = text.split('\n').find((l) => l.startsWith(`${name}{`) && l.includes(labels));
      return line ? Number(line.split(' ').at(-1)) : 0;
    };
    const before = await scrape();
    // Prometheus text format: comments, or `name{labels} value`.
    for (const line of before.split('\n').filter(Boolean)) {
      expect(line).toMatch(/^(# (HELP|TYPE) .+|[a-zA-Z_:][\w:]*(\{.*\})? -?[\d.e+-]+|.* NaN)$/);
    }
    const requestsBefore = sample(
      before,
      'quayside_feed_requests_total',
      `source="${scac}",kind="carrier"`,
    );
    expect(requestsBefore).toBeGreaterThan(0);
    expect(sample(before, 'quayside_tracking_requests', 'state="created"')).toBe(2);

    const third = trackableShipments()[2];
    if (third) await trackBl(third.billOfLading);
    else {
      clock.advance(6 * 3600_000);
      await service.engine!.drain();
    }
    const after = await scrape();
    expect(
      sample(after, 'quayside_feed_requests_total', `source="${scac}",kind="carrier"`),
    ).toBeGreaterThan(requestsBefore);

    const health = await fetch(service.baseUrl.replace(/\/v2$/, '/healthz'));
    expect(health.status).toBe(200);
    const report = (await health.json()) as {
      status: string;
      database: { status: string };
      feeds: { source: string; kind: string; last_success_at: string }[];
    };
    expect(report).toMatchObject({ status: 'ok', database: { status: 'ok' } });
    // Each source's last useful answer, so an operator sees a feed gone quiet.
    expect(report.feeds).toContainEqual({
      source: scac,
      kind: 'carrier',
      last_success_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
  });
});
