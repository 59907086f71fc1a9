/**
 * Journeys for the route map tests: real port coordinates, port calls shaped like
 * deriveShipmentFacts' output, and AIS-like tracks that follow the real sea lanes.
 */
import type { Position } from 'geojson';
import { positionAlong, type SeaRouter } from '../../../src/shared/geo/sea-routes';
import type { PortCall, VesselRef } from '../../../src/service/feeds/normalize/shipment-facts';
import type {
  RouteLegData,
  RouteMapData,
  RoutePort,
  RouteVessel,
  TrackPoint,
} from '../../../src/service/routing/route-map';
import type { InlandPlace } from '../../../src/service/routing/inland-leg';

const port = (
  n: number,
  locode: string,
  name: string,
  country_code: string,
  country: string,
  time_zone: string,
  longitude: number,
  latitude: number,
  state: [string, string] | null = null,
): RoutePort => ({
  id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  locode,
  name,
  state_abbr: state?.[0] ?? null,
  state: state?.[1] ?? null,
  country_code,
  country,
  time_zone,
  latitude,
  longitude,
});

export const PORTS = {
  shanghai: port(1, 'CNSHA', 'Shanghai', 'CN', 'China', 'Asia/Shanghai', 121.8, 31.3),
  yokohama: port(2, 'JPYOK', 'Yokohama', 'JP', 'Japan', 'Asia/Tokyo', 139.65, 35.45),
  losAngeles: port(
    3,
    'USLAX',
    'Los Angeles',
    'US',
    'United States',
    'America/Los_Angeles',
    -118.26,
    33.73,
    ['CA', 'California'],
  ),
  busan: port(4, 'KRPUS', 'Busan', 'KR', 'Korea, Republic of', 'Asia/Seoul', 129.04, 35.1),
  singapore: port(5, 'SGSIN', 'Singapore', 'SG', 'Singapore', 'Asia/Singapore', 103.84, 1.26),
  rotterdam: port(6, 'NLRTM', 'Rotterdam', 'NL', 'Netherlands', 'Europe/Amsterdam', 4.05, 51.95),
  yantian: port(7, 'CNYTN', 'Yantian', 'CN', 'China', 'Asia/Shanghai', 114.27, 22.57),
  longBeach: port(
    8,
    'USLGB',
    'Long Beach',
    'US',
    'United States',
    'America/Los_Angeles',
    -118.21,
    33.75,
    ['CA', 'California'],
  ),
} satisfies Record<string, RoutePort>;

export const VESSELS: RouteVessel[] = [
  {
    id: '10000000-0000-4000-8000-000000000001',
    name: 'EVER ACE',
    imo: '9893890',
    mmsi: '353136000',
  },
  {
    id: '10000000-0000-4000-8000-000000000002',
    name: 'MSC GULSUN',
    imo: '9839430',
    mmsi: '636019825',
  },
  {
    id: '10000000-0000-4000-8000-000000000003',
    name: 'HMM ALGECIRAS',
    imo: '9863297',
    mmsi: '440326000',
  },
];

/** A rail ramp placed at its metro area's centre, as the service places ramps. */
export const CHICAGO_RAMP: InlandPlace = {
  id: '00000000-0000-4000-8000-000000000100',
  kind: 'rail_terminal',
  name: 'BNSF Logistics Park Chicago',
  firms_code: 'H572',
  city: 'Chicago',
  state_abbr: 'IL',
  country_code: 'US',
  time_zone: 'America/Chicago',
  longitude: -87.63,
  latitude: 41.88,
  position_estimated: true,
};

export const HOUR = 60 * 60 * 1000;
export const DAY = 24 * HOUR;
export const T0 = Date.UTC(2026, 2, 1); // departure from the POL
export const iso = (ms: number) => new Date(ms).toISOString();

const ref = (v: RouteVessel, voyage: string): VesselRef => ({
  imo: v.imo,
  name: v.name,
  voyage_number: voyage,
});

export interface LegPlan {
  vessel: RouteVessel;
  voyage: string;
  etd: number;
  eta: number;
  /** Actual departure; omitted when the leg has not started. */
  atd?: number;
  /** Actual arrival; omitted when the vessel has not arrived. */
  ata?: number;
}

/** Port calls POL, TS1..n, POD for ports[0..n] and one plan per leg. */
export function portCalls(ports: RoutePort[], legs: LegPlan[]): PortCall[] {
  return ports.map((p, i) => {
    const first = i === 0;
    const last = i === ports.length - 1;
    const inbound = first ? undefined : legs[i - 1]!;
    const outbound = last ? undefined : legs[i]!;
    return {
      sequence: i + 1,
      label: first ? 'POL' : last ? 'POD' : `TS${i}`,
      locode: p.locode,
      inbound_eta_at: inbound ? iso(inbound.eta) : null,
      inbound_ata_at: inbound?.ata !== undefined ? iso(inbound.ata) : null,
      outbound_etd_at: outbound ? iso(outbound.etd) : null,
      outbound_atd_at: outbound?.atd !== undefined ? iso(outbound.atd) : null,
      inbound_vessel: inbound ? ref(inbound.vessel, inbound.voyage) : null,
      outbound_vessel: outbound ? ref(outbound.vessel, outbound.voyage) : null,
      updated_at: iso(T0 - DAY),
    };
  });
}

const at = (p: RoutePort): Position => [p.longitude!, p.latitude!];

/**
 * AIS-like positions every `stepMs` along the sea route of a leg, from `start` to `end` (times),
 * as if the vessel sailed the whole leg between `departed` and `arrives` at constant speed.
 */
export function trackAlong(
  router: SeaRouter,
  from: RoutePort,
  to: RoutePort,
  times: { departed: number; arrives: number; start: number; end: number; stepMs: number },
): TrackPoint[] {
  const route = router.seaRoute(at(from), at(to));
  const out: TrackPoint[] = [];
  for (let t = times.start; t <= times.end; t += times.stepMs) {
    const p = positionAlong(route, (t - times.departed) / (times.arrives - times.departed));
    out.push({
      lon: p.lon,
      lat: p.lat,
      at: t,
      speed_knots: 18.5,
      heading_deg: Math.round(p.courseDeg),
    });
  }
  return out;
}

export function mapData(
  ports: RoutePort[],
  calls: PortCall[],
  tracks: TrackPoint[][],
): RouteMapData {
  const legs: RouteLegData[] = calls.slice(0, -1).map((c, k) => {
    const v = VESSELS.find((x) => x.imo === c.outbound_vessel?.imo) ?? null;
    return {
      vessel: v,
      voyage_number: c.outbound_vessel?.voyage_number ?? null,
      track: tracks[k] ?? [],
    };
  });
  return { calls, ports: new Map(ports.map((p) => [p.locode, p])), legs };
}
