/* eslint-disable @typescript-eslint/no-explicit-any -- API bodies are untyped JSON */
/**
 * The route map and vessel positions through the simulated world (real HTTP and AIS over TCP on
 * loopback, one ManualClock): a box on a trans-Pacific leg gets ports, its vessel's recorded path,
 * the vessel's position and the predicted rest of the leg; after the arrival the vessel point and
 * the prediction are gone and the recorded path reaches the port of discharge. Unchanged maps
 * answer 304 to If-None-Match, and the vessel's stored positions are served to entitled accounts.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Value } from 'typebox/value';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedService, type EmbeddedService } from '../../src/embedded/service-with-world';
import { RouteFeatureCollection } from '../../src/shared/api/resources';
import { ManualClock } from '../../src/shared/clock';
import type { ShipmentPlan } from '../../src/sim/world/plan';
import { withServiceDatabase } from '../support/service-database';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const SEED = 7;
const US_WEST_COAST = new Set(['USLAX', 'USLGB', 'USOAK', 'USSEA', 'USTIW']);

let embedded: EmbeddedService;
let clock: ManualClock;
let dataDir: string;

async function call(
  pathAndQuery: string,
  init: { key?: string; headers?: Record<string, string>; method?: string; body?: string } = {},
): Promise<{ status: number; headers: Headers; text: string; body: any }> {
  const res = await fetch(embedded.baseUrl + pathAndQuery, {
    method: init.method ?? 'GET',
    body: init.body,
    headers: {
      Authorization: `Token ${init.key ?? embedded.apiKey}`,
      'Content-Type': 'application/vnd.api+json',
      ...init.headers,
    },
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, body: text ? JSON.parse(text) : null };
}

async function api(pathAndQuery: string, init: Parameters<typeof call>[1] = {}): Promise<any> {
  const res = await call(pathAndQuery, init);
  if (res.status >= 400) throw new Error(`${res.status} ${res.text}`);
  return res.body;
}

/**
 * Moves the world and the service on by one AIS report interval at a time, waiting for the
 * reports to arrive over TCP before the next move, so each position is stamped when it was sent.
 */
async function sail(ms: number, imo: string): Promise<void> {
  const engine = embedded.service.engine!;
  const store = engine.aisSources()!.store;
  for (let left = ms; left > 0; left -= 15 * MINUTE) {
    clock.advance(Math.min(15 * MINUTE, left));
    // Reports can be missing (the feed drops some, like a real one): wait briefly, not forever.
    for (let i = 0; i < 100 && store.latestByImo(imo)?.received_at !== clock.now(); i++) {
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    await engine.drain();
  }
}

const featuresOf = (fc: any, type: string): any[] =>
  (fc.features as any[]).filter((f) => f.properties.feature_type === type);

/** Great-circle distance in km. */
function km([lon1, lat1]: number[], [lon2, lat2]: number[]): number {
  const rad = Math.PI / 180;
  const a =
    Math.sin(((lat2! - lat1!) * rad) / 2) ** 2 +
    Math.cos(lat1! * rad) * Math.cos(lat2! * rad) * Math.sin(((lon2! - lon1!) * rad) / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.sqrt(a));
}

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quayside-route-it-'));
  clock = new ManualClock(Date.UTC(2026, 0, 10, 12));
  embedded = await startEmbeddedService({ dataDir, port: 0, seed: SEED, clock, seedDemo: false });
});

afterAll(async () => {
  await embedded?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('route map through the simulated world', () => {
  let plan: ShipmentPlan;
  let imo: string;
  let containerId: string;
  let shipmentId: string;
  let trackedFrom: number;

  it('draws a box at sea: ports, past path, current vessel and the rest of the leg', async () => {
    const found = embedded.sim.world.model.shipments.find(
      (s) =>
        s.kind === 'arriving' &&
        s.legs.length === 1 &&
        /^(CN|JP|KR|TW|HK|VN)/.test(s.pol) &&
        US_WEST_COAST.has(s.pod),
    );
    expect(found, 'the world has a box arriving from Asia on the US West Coast').toBeDefined();
    plan = found!;
    imo = plan.legs[0]!.vessel.imo;
    trackedFrom = clock.now();

    const created = await api('/tracking_requests', {
      method: 'POST',
      body: JSON.stringify({
        data: {
          type: 'tracking_request',
          attributes: {
            request_type: 'bill_of_lading',
            request_number: plan.billOfLading,
            scac: plan.scac,
          },
        },
      }),
    });
    // Two hours of AIS reports: the path since tracking began.
    await sail(2 * HOUR, imo);
    const request = await api(`/tracking_requests/${created.data.id}`);
    expect(request.data.attributes.status).toBe('created');
    shipmentId = request.data.relationships.tracked_object.data.id;
    const shipment = await api(`/shipments/${shipmentId}?include=containers`);
    const box = (shipment.included as any[]).find(
      (r) => r.type === 'container' && r.attributes.number === plan.containers[0]!.number,
    );
    containerId = box.id;
    expect(shipment.data.attributes.pod_ata_at).toBeNull();

    const res = await call(`/containers/${containerId}/map_geojson`);
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).toMatch(/^"[A-Za-z0-9_.-]+"$/);
    expect(res.headers.get('cache-control')).toContain('no-cache');
    const map = res.body;
    expect(Value.Check(RouteFeatureCollection, map)).toBe(true);

    const ports = featuresOf(map, 'port');
    expect(ports.map((p) => p.properties.label)).toEqual(['POL', 'POD']);
    expect(ports[1].properties.outbound_atd_at).toBeNull();
    expect(ports[0].properties.outbound_atd_at).not.toBeNull();

    const sailed = featuresOf(map, 'past_vessel_locations');
    const past = sailed.find((f) => f.properties.estimated === false);
    expect(past).toBeDefined();
    // The sailed line starts at the loading port: the lane up to the first stored position
    // (estimated) when tracking began farther out, and each piece starts where the last ended.
    expect(km(sailed[0].geometry.coordinates[0], ports[0].geometry.coordinates)).toBeLessThan(50);
    for (let i = 1; i < sailed.length; i++) {
      expect(sailed[i].geometry.coordinates[0]).toEqual(sailed[i - 1].geometry.coordinates.at(-1));
    }
    expect(past.geometry.coordinates.length).toBeGreaterThanOrEqual(2);
    expect(Date.parse(past.properties.start_time)).toBeGreaterThanOrEqual(trackedFrom);

    const [vessel] = featuresOf(map, 'current_vessel');
    expect(vessel).toBeDefined();
    expect(vessel.properties.vessel_imo).toBe(imo);
    expect(vessel.properties.departure_port_label).toBe('POL');
    expect(vessel.properties.arrival_port_label).toBe('POD');
    // The vessel point is where the world's ship was at its last report.
    const live = embedded.service.engine!.aisSources()!.store.latestByImo(imo)!;
    expect(km(vessel.geometry.coordinates, [live.lon, live.lat])).toBeLessThan(20);

    const [partial] = featuresOf(map, 'estimated_partial_leg');
    expect(partial).toBeDefined();
    expect(partial.geometry.coordinates[0]).toEqual(vessel.geometry.coordinates);
    expect(km(partial.geometry.coordinates.at(-1), ports[1].geometry.coordinates)).toBeLessThan(1);
    expect(featuresOf(map, 'estimated_full_legs')).toHaveLength(0);

    // The same map again: 304 with no body when the client already has it.
    const again = await call(`/containers/${containerId}/map_geojson`, {
      headers: { 'If-None-Match': res.headers.get('etag')! },
    });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    expect(again.headers.get('etag')).toBe(res.headers.get('etag'));
    // A stale copy gets the new map.
    const stale = await call(`/containers/${containerId}/map_geojson`, {
      headers: { 'If-None-Match': '"stale"' },
    });
    expect(stale.status).toBe(200);
    expect(stale.text).toBe(res.text);
  }, 30_000);

  it('after the arrival the vessel point is gone and the past path reaches the port', async () => {
    expect(containerId).toBeDefined();
    const before = (await api(`/containers/${containerId}/map_geojson`)) as any;
    const recorded = (map: any) =>
      featuresOf(map, 'past_vessel_locations').filter((f) => f.properties.estimated === false);
    const pastBefore = recorded(before)[0];

    const arrival = plan.legs[0]!.discharge.arrive;
    await sail(arrival - clock.now() + 2 * HOUR, imo);
    // The line reports the arrival on its next check.
    for (let i = 0; i < 12; i++) {
      const s = await api(`/shipments/${shipmentId}`);
      if (s.data.attributes.pod_ata_at !== null) break;
      await sail(HOUR, imo);
    }
    const shipment = await api(`/shipments/${shipmentId}`);
    expect(shipment.data.attributes.pod_ata_at).not.toBeNull();

    const res = await call(`/containers/${containerId}/map_geojson`);
    expect(res.status).toBe(200);
    const map = res.body;
    expect(Value.Check(RouteFeatureCollection, map)).toBe(true);
    expect(featuresOf(map, 'current_vessel')).toHaveLength(0);
    expect(featuresOf(map, 'estimated_partial_leg')).toHaveLength(0);
    expect(featuresOf(map, 'estimated_full_legs')).toHaveLength(0);

    const ports = featuresOf(map, 'port');
    const pod = ports.find((p) => p.properties.label === 'POD');
    expect(pod.properties.inbound_ata_at).toBe(shipment.data.attributes.pod_ata_at);

    const past = recorded(map);
    expect(past).toHaveLength(1);
    const leg = past[0];
    // The whole leg as recorded: from the first report since tracking began to the arrival,
    // ending at the port of discharge.
    expect(leg.properties.start_time).toBe(pastBefore.properties.start_time);
    expect(leg.geometry.coordinates[0]).toEqual(pastBefore.geometry.coordinates[0]);
    expect(Date.parse(leg.properties.end_time)).toBeLessThanOrEqual(
      Date.parse(pod.properties.inbound_ata_at),
    );
    expect(Date.parse(leg.properties.end_time)).toBeGreaterThan(
      Date.parse(pod.properties.inbound_ata_at) - HOUR,
    );
    expect(leg.properties.inbound_ata_at).toBe(pod.properties.inbound_ata_at);
    expect(km(leg.geometry.coordinates.at(-1), pod.geometry.coordinates)).toBeLessThan(30);
    expect(leg.properties.point_count).toBeGreaterThan(pastBefore.properties.point_count);

    const again = await call(`/containers/${containerId}/map_geojson`, {
      headers: { 'If-None-Match': res.headers.get('etag')! },
    });
    expect(again.status).toBe(304);
  }, 30_000);

  it('serves the stored positions of a vessel to an entitled account only', async () => {
    expect(imo).toBeDefined();
    const from = new Date(trackedFrom).toISOString();
    const to = new Date(clock.now()).toISOString();
    const query = `show_positions[from_timestamp]=${from}&show_positions[to_timestamp]=${to}`;
    const doc = await api(`/vessels/${imo}?${query}`);
    expect(doc.data.attributes.imo).toBe(imo);

    const stored = await withServiceDatabase({ dataDir }, (db) =>
      db
        .selectFrom('vessel_positions')
        .selectAll()
        .where('vessel_imo', '=', imo)
        .where('timestamp', '>=', from)
        .where('timestamp', '<=', to)
        .orderBy('timestamp')
        .execute(),
    );
    expect(stored.length).toBeGreaterThan(10);
    const positions = doc.data.attributes.positions as any[];
    expect(positions.map((p) => [p.timestamp, p.longitude, p.latitude])).toEqual(
      stored.map((r) => [new Date(r.timestamp).toISOString(), r.longitude, r.latitude]),
    );
    expect(positions.every((p) => p.estimated === false)).toBe(true);

    // By id the same vessel; without show_positions no history.
    const byId = await api(`/vessels/${doc.data.id}`);
    expect(byId.data.attributes.imo).toBe(imo);
    expect(byId.data.attributes.positions).toBeUndefined();

    const bad = await call(`/vessels/${imo}?show_positions[from_timestamp]=yesterday`);
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].source.parameter).toBe('show_positions[from_timestamp]');

    // An account without the routing entitlement sees the vessel but not its history.
    const { accounts } = embedded.service.store;
    const other = await accounts.create('no-routing');
    const key = await accounts.createKey(other.id);
    const refused = await call(`/vessels/${imo}?${query}`, { key });
    expect(refused.status).toBe(403);
    expect(refused.body.errors[0].detail).toBe(
      'Routing data feature is not enabled for this account',
    );
    expect((await call(`/vessels/${imo}`, { key })).status).toBe(200);
    expect((await call(`/containers/${containerId}/map_geojson`, { key })).status).toBe(403);
  });
});
