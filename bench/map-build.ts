/**
 * Route map build cost: building the map of a 45-day, two-leg journey (Shanghai -> Singapore ->
 * Rotterdam, 5,000 recorded AIS positions, vessel at sea on the second leg) compared with
 * serializing the same FeatureCollection from a stored copy, the way a completed journey is
 * served. Both measured in this run; medians of several runs.
 *
 *   npx tsx bench/map-build.ts
 *
 * "new vessel position": a position is recorded (appended to the vessel's history, the clock
 * moves on) before each build, as the service sees between two hourly polls; the service keeps
 * each leg's positions and what it made of them, so only the new position and the vessel -> lane
 * stretch are computed. "nothing new": a poll through the service's map response when no
 * position came in (most polls, at the spec's hourly advice). "first build": a journey the
 * process has not built before (every position loaded and simplified).
 */
import type { Position } from 'geojson';
import { positionAlong, type SeaRouter } from '../src/shared/geo/sea-routes';
import type { PortCall } from '../src/service/feeds/normalize/shipment-facts';
import { marineSeaRouter } from '../src/service/routing/network';
import { inProcessSeaRoutes } from '../src/service/routing/sea-routes-client';
import type { VesselPositionHistory } from '../src/service/routing/positions';
import {
  createRouteMapService,
  LegTrackMemo,
  loadRouteMapData,
} from '../src/service/routing/route-map-service';
import { memoryPositionHistory, memoryRouteMapCopies } from '../test/support/memory-routing';
import type { ContainersTable, ShipmentsTable } from '../src/service/store/schema';
import { ManualClock } from '../src/shared/clock';
import {
  buildRouteMap,
  type RoutePort,
  type RouteVessel,
  type TrackPoint,
} from '../src/service/routing/route-map';
import { median, reportResult } from './lib/report';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const T0 = Date.UTC(2026, 0, 5);
const NOW = T0 + 40 * DAY;
const AIS_POINTS = 5000;

const port = (
  n: number,
  locode: string,
  name: string,
  cc: string,
  tz: string,
  lon: number,
  lat: number,
): RoutePort => ({
  id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  locode,
  name,
  state_abbr: null,
  state: null,
  country_code: cc,
  country: cc,
  time_zone: tz,
  latitude: lat,
  longitude: lon,
});
const ports = [
  port(1, 'CNSHA', 'Shanghai', 'CN', 'Asia/Shanghai', 121.8, 31.3),
  port(2, 'SGSIN', 'Singapore', 'SG', 'Asia/Singapore', 103.84, 1.26),
  port(3, 'NLRTM', 'Rotterdam', 'NL', 'Europe/Amsterdam', 4.05, 51.95),
];
const vessels: RouteVessel[] = [
  {
    id: '10000000-0000-4000-8000-000000000001',
    name: 'FEEDER ONE',
    imo: '9000001',
    mmsi: '200000001',
  },
  {
    id: '10000000-0000-4000-8000-000000000002',
    name: 'MOTHER TWO',
    imo: '9000002',
    mmsi: '200000002',
  },
];
const legs = [
  { departed: T0, arrives: T0 + 6 * DAY },
  { departed: T0 + 8 * DAY, arrives: T0 + 45 * DAY },
];
const iso = (ms: number) => new Date(ms).toISOString();
const ref = (v: RouteVessel) => ({ imo: v.imo, name: v.name, voyage_number: 'V1' });
const calls: PortCall[] = [
  {
    sequence: 1,
    label: 'POL',
    locode: 'CNSHA',
    inbound_eta_at: null,
    inbound_ata_at: null,
    outbound_etd_at: iso(legs[0]!.departed),
    outbound_atd_at: iso(legs[0]!.departed),
    inbound_vessel: null,
    outbound_vessel: ref(vessels[0]!),
    updated_at: iso(NOW),
  },
  {
    sequence: 2,
    label: 'TS1',
    locode: 'SGSIN',
    inbound_eta_at: iso(legs[0]!.arrives),
    inbound_ata_at: iso(legs[0]!.arrives),
    outbound_etd_at: iso(legs[1]!.departed),
    outbound_atd_at: iso(legs[1]!.departed),
    inbound_vessel: ref(vessels[0]!),
    outbound_vessel: ref(vessels[1]!),
    updated_at: iso(NOW),
  },
  {
    sequence: 3,
    label: 'POD',
    locode: 'NLRTM',
    inbound_eta_at: iso(legs[1]!.arrives),
    inbound_ata_at: null,
    outbound_etd_at: null,
    outbound_atd_at: null,
    inbound_vessel: ref(vessels[1]!),
    outbound_vessel: null,
    updated_at: iso(NOW),
  },
];

/** 5,000 positions over the sailed time of both legs, with a little GPS noise. */
function tracks(router: SeaRouter): Map<string, TrackPoint[]> {
  const sailed = [legs[0]!.arrives - legs[0]!.departed, NOW - legs[1]!.departed];
  const step = (sailed[0]! + sailed[1]!) / (AIS_POINTS - 1);
  const out = new Map<string, TrackPoint[]>();
  let noise = 1;
  for (let k = 0; k < 2; k++) {
    const from: Position = [ports[k]!.longitude!, ports[k]!.latitude!];
    const to: Position = [ports[k + 1]!.longitude!, ports[k + 1]!.latitude!];
    const route = router.seaRoute(from, to);
    const { departed, arrives } = legs[k]!;
    const points: TrackPoint[] = [];
    for (let t = departed; t <= Math.min(arrives, NOW); t += step) {
      const p = positionAlong(route, (t - departed) / (arrives - departed));
      noise = (noise * 16807) % 2147483647;
      const jitter = (noise / 2147483647 - 0.5) * 0.004;
      points.push({
        lon: p.lon + jitter,
        lat: p.lat - jitter,
        at: Math.round(t),
        speed_knots: 17,
        heading_deg: p.courseDeg,
      });
    }
    out.set(vessels[k]!.mmsi!, points);
  }
  return out;
}

/** Median time per call in ms over `rounds` rounds of `iterations` calls. */
async function measure(
  fn: (i: number) => unknown,
  iterations: number,
  rounds = 7,
): Promise<number> {
  for (let i = 0; i < iterations; i++) await fn(i); // warm-up
  const samples: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const start = performance.now();
    for (let i = 0; i < iterations; i++) await fn(r * iterations + i);
    samples.push((performance.now() - start) / iterations);
  }
  return median(samples);
}

async function main() {
  const t = performance.now();
  const router = marineSeaRouter();
  const networkMs = performance.now() - t;
  const byMmsi = tracks(router);
  const total = [...byMmsi.values()].reduce((n, p) => n + p.length, 0);
  const history = memoryPositionHistory(byMmsi);
  const source = {
    ports: async () => ports,
    vessel: async (r: { imo: string | null }) => vessels.find((v) => v.imo === r.imo) ?? null,
    positions: history,
  };

  const build = async (now: number, h: VesselPositionHistory = history, memo?: LegTrackMemo) => {
    const data = await loadRouteMapData(calls, { ...source, positions: h }, now, memo);
    return JSON.stringify(buildRouteMap(data, { now, router }));
  };

  const stored = JSON.parse(await build(NOW)) as unknown;
  const storedBody = JSON.stringify(stored);
  const features = (
    stored as { features: { properties: { feature_type: string; point_count?: number } }[] }
  ).features;

  const serializeMs = await measure(() => JSON.stringify(stored), 200);
  // A journey not built before: fresh position arrays, nothing kept.
  const firstMs = await measure(() => build(NOW, memoryPositionHistory(byMmsi)), 3, 5);

  // The live vessel reports every 15 minutes: each build sees one more position and a later now.
  const live = appendableHistory(byMmsi);
  const memo = new LegTrackMemo();
  let now = NOW;
  const lane = router.seaRoute(
    [ports[1]!.longitude!, ports[1]!.latitude!],
    [ports[2]!.longitude!, ports[2]!.latitude!],
  );
  const moveAndBuild = () => {
    now += 15 * 60 * 1000;
    const at = now - 60_000;
    const p = positionAlong(
      lane,
      (at - legs[1]!.departed) / (legs[1]!.arrives - legs[1]!.departed),
    );
    live.append(vessels[1]!.mmsi!, {
      lon: p.lon,
      lat: p.lat,
      at,
      speed_knots: 17,
      heading_deg: p.courseDeg,
    });
    return build(now, live, memo);
  };
  await build(now, live, memo);
  const newPositionMs = await measure(moveAndBuild, 10, 7);

  // Polls through the service's response with nothing new since the last one.
  const clock = new ManualClock(now);
  const service = createRouteMapService({
    source: { ...source, positions: live, portCalls: async () => calls },
    clock,
    routes: inProcessSeaRoutes(router),
    copies: memoryRouteMapCopies(),
  });
  const input = {
    container: {
      id: 'bench-container',
      pod_full_out_at: null,
      pod_rail_departed_at: null,
      final_destination_full_out_at: null,
      empty_terminated_at: null,
    } as ContainersTable,
    shipment: { line_tracking_stopped_at: null } as ShipmentsTable,
  };
  await service.respond(input);
  const cacheHitMs = await measure(() => service.respond(input), 50);

  console.log(
    `journey: 45 days, 2 legs, ${total} AIS positions; network graph built once in ${networkMs.toFixed(0)} ms`,
  );
  console.log(
    `features: ${features.map((f) => `${f.properties.feature_type}${f.properties.point_count ? `(${f.properties.point_count})` : ''}`).join(', ')}; body ${storedBody.length} bytes`,
  );
  console.log(`serialize stored copy (baseline): ${(serializeMs * 1000).toFixed(1)} us`);
  const row = (label: string, valueMs: number) =>
    console.log(
      `${label.padEnd(34)} ${(valueMs * 1000).toFixed(1)} us  ratio ${(valueMs / serializeMs).toFixed(1)}x`,
    );
  row('first build of the journey:', firstMs);
  row('build after a new vessel position:', newPositionMs);
  row('poll with nothing new (cache hit):', cacheHitMs);
  const note = `45-day two-leg journey, ${total} AIS positions; baseline: JSON.stringify of the stored FeatureCollection (${storedBody.length} bytes).`;
  reportResult({
    name: 'map build, first build of a journey',
    value: firstMs,
    baseline: serializeMs,
    unit: 'ms',
    target: null,
    note,
  });
  reportResult({
    name: 'map build, new vessel position',
    value: newPositionMs,
    baseline: serializeMs,
    unit: 'ms',
    // Each leg's positions and simplified days are kept; only the new position, the open day
    // and the vessel -> lane stretch are computed.
    target: { max: 3 },
    note,
  });
  reportResult({
    name: 'map read, nothing new (cache hit)',
    value: cacheHitMs,
    baseline: serializeMs,
    unit: 'ms',
    target: { max: 3 },
    note: `${note} Through the map response (port calls, new-position check, kept body).`,
  });
}

/** A vessel history that records new positions as the AIS feed does (appended, time order). */
function appendableHistory(
  initial: ReadonlyMap<string, readonly TrackPoint[]>,
): VesselPositionHistory & { append(mmsi: string, p: TrackPoint): void } {
  const byMmsi = new Map([...initial].map(([k, v]) => [k, [...v]]));
  const lowerBound = (points: readonly TrackPoint[], t: number) => {
    let lo = 0;
    let hi = points.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (points[mid]!.at < t) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  const find = (v: { mmsi: string | null }) => (v.mmsi ? byMmsi.get(v.mmsi) : undefined) ?? [];
  return {
    append: (mmsi, p) => byMmsi.get(mmsi)!.push(p),
    async positions(vessel, fromMs, toMs) {
      const points = find(vessel);
      return points.slice(lowerBound(points, fromMs), lowerBound(points, toMs + 1));
    },
    latest: async (vessel) => find(vessel).at(-1) ?? null,
  };
}

await main();
