import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/shared/clock';
import { AisVesselStore } from '../../../src/service/feeds/ais/vessel-store';
import type { PortCall } from '../../../src/service/feeds/normalize/shipment-facts';
import { marineSeaRoutes } from '../../../src/service/routing/sea-routes-client';
import { aisPositionHistory } from '../../support/memory-routing';
import {
  createRouteMapService,
  LegTrackMemo,
  type RouteDataSource,
  type RouteMapService,
} from '../../../src/service/routing/route-map-service';
import {
  etagMatches,
  isJourneyComplete,
  routeEtag,
} from '../../../src/service/routing/route-cache';
import type { ContainersTable, ShipmentsTable } from '../../../src/service/store/schema';
import type { InlandLegData } from '../../../src/service/routing/inland-leg';
import { routeMapCopiesIn } from '../../support/route-map-copies';
import { CHICAGO_RAMP, DAY, HOUR, PORTS, T0, VESSELS, portCalls, type LegPlan } from './fixtures';

describe('ETags', () => {
  it('hashes the exact body', () => {
    const a = routeEtag('{"type":"FeatureCollection","features":[]}');
    expect(a).toMatch(/^"m3\.[A-Za-z0-9_-]{22}"$/);
    expect(routeEtag('{"type":"FeatureCollection","features":[]}')).toBe(a);
    expect(routeEtag('{"type":"FeatureCollection","features":[1]}')).not.toBe(a);
  });

  it('matches If-None-Match lists, weak tags and *', () => {
    const tag = routeEtag('x');
    expect(etagMatches(undefined, tag)).toBe(false);
    expect(etagMatches(tag, tag)).toBe(true);
    expect(etagMatches(`"other", ${tag}`, tag)).toBe(true);
    expect(etagMatches(`W/${tag}`, tag)).toBe(true);
    expect(etagMatches('*', tag)).toBe(true);
    expect(etagMatches('"other"', tag)).toBe(false);
    expect(etagMatches(['"a"', tag], tag)).toBe(true);
  });
});

const NOT_LEFT = {
  pod_full_out_at: null,
  ind_ata_at: null,
  ind_rail_unloaded_at: null,
  final_destination_full_out_at: null,
  empty_terminated_at: null,
};
const TRACKING = { line_tracking_stopped_at: null };

describe('isJourneyComplete', () => {
  const ports = [PORTS.shanghai, PORTS.losAngeles];
  const plan = (extra: Partial<LegPlan>): LegPlan => ({
    vessel: VESSELS[0]!,
    voyage: 'V1',
    etd: T0,
    eta: T0 + 14 * DAY,
    ...extra,
  });
  const arrived = portCalls(ports, [plan({ atd: T0, ata: T0 + 14 * DAY })]);
  const atSea = portCalls(ports, [plan({ atd: T0 })]);
  const out = '2026-03-20T10:00:00.000Z';

  it('needs the POD arrival and the container gone from the POD (or tracking stopped)', () => {
    // Left by rail: the rail leg and ramp still change until the box arrives at the ramp.
    const onRail = { ...NOT_LEFT, pod_rail_departed_at: out } as typeof NOT_LEFT;
    expect(isJourneyComplete(arrived, onRail, TRACKING)).toBe(false);
    expect(isJourneyComplete(atSea, { ...NOT_LEFT, pod_full_out_at: out }, TRACKING)).toBe(false);
    expect(isJourneyComplete(arrived, NOT_LEFT, TRACKING)).toBe(false);
    for (const key of Object.keys(NOT_LEFT)) {
      expect(isJourneyComplete(arrived, { ...NOT_LEFT, [key]: out }, TRACKING)).toBe(true);
    }
    expect(isJourneyComplete(arrived, NOT_LEFT, { line_tracking_stopped_at: out })).toBe(true);
    expect(isJourneyComplete([], { ...NOT_LEFT, pod_full_out_at: out }, TRACKING)).toBe(false);
  });
});

describe('GET map_geojson wired to the route map service', () => {
  // Yokohama -> Los Angeles; the vessel reports over AIS into the feed's real vessel store.
  const clock = new ManualClock(T0 + 5 * DAY);
  const vessel = VESSELS[0]!;
  const ports = [PORTS.yokohama, PORTS.losAngeles];
  const atSeaCalls = portCalls(ports, [
    { vessel, voyage: 'V1', etd: T0, eta: T0 + 12 * DAY, atd: T0 },
  ]);
  const store = new AisVesselStore(clock, { historyLimit: 10_000 });
  const calls = new Map<string, PortCall[]>();
  let portCallLoads = 0;
  const source: RouteDataSource = {
    async portCalls({ container }) {
      portCallLoads++;
      return calls.get(container.id) ?? [];
    },
    ports: async (locodes) => ports.filter((p) => locodes.includes(p.locode)),
    vessel: async (ref) => VESSELS.find((v) => v.imo === ref.imo) ?? null,
    positions: aisPositionHistory(store),
    inland: async ({ container }) => inlandLegs.get(container.id) ?? null,
  };
  const inlandLegs = new Map<string, InlandLegData>();
  const containers = new Map<string, ContainersTable>();
  const shipment = { ...TRACKING } as ShipmentsTable;
  let dir: string;
  let copies: Awaited<ReturnType<typeof routeMapCopiesIn>>;
  let app: FastifyInstance;
  let base: string;
  let service: RouteMapService;

  const report = (lon: number, lat: number) => {
    store.apply({
      kind: 'position',
      messageType: 1,
      mmsi: vessel.mmsi!,
      lat,
      lon,
      speedKnots: 19,
      courseDeg: 80,
      headingDeg: 81,
      navStatus: 0,
    });
  };

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quayside-route-'));
    copies = await routeMapCopiesIn(dir);
    service = createRouteMapService({
      source,
      clock,
      routes: marineSeaRoutes(),
      copies: copies.copies,
    });
    app = Fastify();
    // The wiring the API handler needs (after its entitlement and ownership checks).
    app.get('/v2/containers/:id/map_geojson', async (request, reply) => {
      const container = containers.get((request.params as { id: string }).id)!;
      const response = await service.respond({
        container,
        shipment,
        ifNoneMatch: request.headers['if-none-match'],
      });
      reply.header('etag', response.etag).header('cache-control', response.cacheControl);
      if (response.status === 304) return reply.code(304).send();
      return reply.code(200).type('application/json').send(response.body);
    });
    base = await app.listen({ host: '127.0.0.1', port: 0 });
  });

  afterAll(async () => {
    await app?.close();
    await copies?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const get = (id: string, etag?: string) =>
    fetch(`${base}/v2/containers/${id}/map_geojson`, {
      headers: etag ? { 'if-none-match': etag } : {},
    });

  it('answers an empty FeatureCollection while there is no route data', async () => {
    containers.set('c-empty', { id: 'c-empty', ...NOT_LEFT } as ContainersTable);
    const res = await get('c-empty');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ type: 'FeatureCollection', features: [] });
    expect(res.headers.get('etag')).toBe(routeEtag('{"type":"FeatureCollection","features":[]}'));
  });

  it('answers 304 to an unchanged poll and 200 once the vessel has moved', async () => {
    containers.set('c-sea', { id: 'c-sea', ...NOT_LEFT } as ContainersTable);
    calls.set('c-sea', atSeaCalls);
    report(165, 42);
    clock.advance(HOUR);
    report(166, 42.2);
    const first = await get('c-sea');
    expect(first.status).toBe(200);
    expect(first.headers.get('cache-control')).toBe('private, no-cache');
    const etag = first.headers.get('etag')!;
    const body = (await first.json()) as { features: { properties: { feature_type: string } }[] };
    expect(body.features.map((f) => f.properties.feature_type)).toContain('current_vessel');

    const again = await get('c-sea', etag);
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');

    clock.advance(HOUR);
    report(167.5, 42.4);
    const moved = await get('c-sea', etag);
    expect(moved.status).toBe(200);
    expect(moved.headers.get('etag')).not.toBe(etag);
  });

  it('serves a completed journey from its stored copy', async () => {
    const arrivedCalls = portCalls(ports, [
      { vessel, voyage: 'V1', etd: T0, eta: T0 + 12 * DAY, atd: T0, ata: T0 + 5 * DAY + HOUR },
    ]);
    containers.set('c-done', {
      id: 'c-done',
      ...NOT_LEFT,
      pod_full_out_at: new Date(T0 + 6 * DAY).toISOString(),
    } as ContainersTable);
    calls.set('c-done', arrivedCalls);
    const before = portCallLoads;
    const first = await get('c-done');
    expect(first.status).toBe(200);
    expect(first.headers.get('cache-control')).toBe('private, max-age=86400');
    const body = await first.text();
    const etag = first.headers.get('etag')!;
    expect(etag).toBe(routeEtag(body));
    const row = await copies.copies.get('c-done');
    expect(row).toMatchObject({ body, etag });
    expect(portCallLoads).toBe(before + 1);

    // Later carrier data no longer changes what is served, and nothing is rebuilt.
    calls.set('c-done', []);
    clock.advance(DAY);
    const second = await get('c-done');
    expect(second.status).toBe(200);
    expect(await second.text()).toBe(body);
    const third = await get('c-done', etag);
    expect(third.status).toBe(304);
    expect(portCallLoads).toBe(before + 1);
  });

  it('draws the rail leg to the ramp, and keeps the map live until the box is at the ramp', async () => {
    const arrivedCalls = portCalls(ports, [
      { vessel, voyage: 'V1', etd: T0, eta: T0 + 12 * DAY, atd: T0, ata: T0 + 4 * DAY },
    ]);
    const departed = new Date(T0 + 5 * DAY).toISOString();
    containers.set('c-rail', {
      id: 'c-rail',
      ...NOT_LEFT,
      pod_rail_departed_at: departed,
    } as ContainersTable);
    calls.set('c-rail', arrivedCalls);
    const leg: InlandLegData = {
      ramp: CHICAGO_RAMP,
      rail_loaded_at: departed,
      rail_departed_at: departed,
      eta_at: new Date(T0 + 8 * DAY).toISOString(),
      arrived_at: null,
      unloaded_at: null,
      places: [],
    };
    inlandLegs.set('c-rail', leg);
    type Body = {
      features: { properties: { feature_type: string } }[];
      inland: { features: { properties: Record<string, unknown> }[] };
    };
    const onRail = await get('c-rail');
    expect(onRail.headers.get('cache-control')).toBe('private, no-cache');
    const etag = onRail.headers.get('etag')!;
    const body = (await onRail.json()) as Body;
    // The ocean legs are what they were; the rail leg and the ramp ride beside them.
    expect(body.features.map((f) => f.properties.feature_type)).not.toContain('rail_leg');
    expect(body.inland.features.map((f) => f.properties.feature_type)).toEqual([
      'rail_leg',
      'ramp',
    ]);
    expect(body.inland.features[0]!.properties).toMatchObject({
      status: 'under_way',
      estimated: true,
    });
    expect((await get('c-rail', etag)).status).toBe(304);

    // The rail carrier reports the arrival: a new map, now complete and stored.
    const arrivedAt = new Date(T0 + 8 * DAY).toISOString();
    inlandLegs.set('c-rail', { ...leg, arrived_at: arrivedAt });
    containers.set('c-rail', { ...containers.get('c-rail')!, ind_ata_at: arrivedAt });
    const atRamp = await get('c-rail', etag);
    expect(atRamp.status).toBe(200);
    expect(atRamp.headers.get('cache-control')).toBe('private, max-age=86400');
    const ramp = ((await atRamp.json()) as Body).inland.features[1]!.properties;
    expect(ramp).toMatchObject({ label: 'Ramp', last_stop: true, inbound_ata_at: arrivedAt });
  });

  it('rebuilds once a copy stored by an older builder, then serves the new copy', async () => {
    const arrivedCalls = portCalls(ports, [
      { vessel, voyage: 'V1', etd: T0, eta: T0 + 12 * DAY, atd: T0, ata: T0 + 5 * DAY + HOUR },
    ]);
    containers.set('c-old', {
      id: 'c-old',
      ...NOT_LEFT,
      pod_full_out_at: new Date(T0 + 6 * DAY).toISOString(),
    } as ContainersTable);
    calls.set('c-old', arrivedCalls);
    // What an earlier version stored: two pins and no path, under an ETag of its own format.
    const oldBody = '{"type":"FeatureCollection","features":[]}';
    await copies.copies.put({
      container_id: 'c-old',
      body: oldBody,
      etag: '"0lJ4fWm2S3nqf0hWcWTL9Q"',
      stored_at: new Date(T0).toISOString(),
    });
    const res = await get('c-old', '"0lJ4fWm2S3nqf0hWcWTL9Q"');
    expect(res.status).toBe(200);
    const body = await res.text();
    expect(body).not.toBe(oldBody);
    const types = (
      JSON.parse(body) as { features: { properties: { feature_type: string } }[] }
    ).features.map((f) => f.properties.feature_type);
    expect(types).toContain('past_vessel_locations');
    const row = await copies.copies.get('c-old');
    expect(row).toMatchObject({ body, etag: res.headers.get('etag') });
  });
});

describe('positions kept between polls', () => {
  it('picks up positions stored after a poll but stamped before it', async () => {
    const vessel = VESSELS[0]!;
    const stored: { lon: number; lat: number; at: number; speed_knots: null; heading_deg: null }[] =
      [];
    // The vessel history as the store answers it: whatever is stored, by timestamp.
    const history = {
      positions: async (_v: unknown, fromMs: number, toMs: number) =>
        stored.filter((p) => p.at >= fromMs && p.at <= toMs),
      latest: async () => stored.at(-1) ?? null,
    };
    const at = (hours: number, lon: number) => ({
      lon,
      lat: 40,
      at: T0 + hours * HOUR,
      speed_knots: null,
      heading_deg: null,
    });
    stored.push(at(1, 150), at(2, 151));
    const memo = new LegTrackMemo();
    const first = await memo.load(history, vessel, T0, T0 + 3 * HOUR, false);
    expect(first.map((p) => p.lon)).toEqual([150, 151]);
    // A batch written after that poll, stamped 2.5 h and 2.9 h (before the poll's 3 h).
    stored.push(at(2.5, 152), at(2.9, 153), at(3.5, 154));
    const next = await memo.load(history, vessel, T0, T0 + 4 * HOUR, false);
    expect(next.map((p) => p.lon)).toEqual([150, 151, 152, 153, 154]);
    // The same array, grown at its end: what the builder relies on to pick up where it left off.
    expect(next).toBe(first);
  });
});
