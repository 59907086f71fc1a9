/**
 * The route map of one container: port points (POL, TS1..n, POD), the vessels' recorded tracks,
 * the current vessel position, and predicted sea-lane paths for what is still ahead.
 *
 * `buildRouteMap` is pure and synchronous: it takes the shipment's port calls (from
 * deriveShipmentFacts), the ports, and per leg the vessel and its recorded positions, already
 * loaded (see `loadRouteMapData`), plus the time `now`.
 *
 * Rules:
 * - A leg is the voyage from call k to call k + 1. Call j counts as reached when it or any later
 *   call has an actual time (carriers sometimes skip an arrival report).
 * - A leg has started when its departure port has an ATD or its arrival port was reached.
 *   Started legs draw `past_vessel_locations` from the positions recorded between ATD and ATA
 *   (or now); legs not started draw `estimated_full_legs` along sea lanes.
 * - The sailed line starts at the departure port: when the recorded positions start mid-voyage
 *   (the service began tracking late, or positions were lost) the sea lane from the port to the
 *   first position is drawn before them, and for an arrived leg the lane from the last position
 *   to the port after them, each as its own `past_vessel_locations` with `estimated: true`
 *   (recorded ones carry `estimated: false`). An arrived leg without any position is drawn whole
 *   along its lane, estimated. The pieces share their end points, so the line is continuous.
 * - `current_vessel` appears only when all hold: a leg has departed (ATD present) and its next
 *   port is not reached (no ATA); the leg's vessel is known; its latest recorded position since
 *   departure is a valid WGS84 position no older than `freshPositionMs` (24 h by default: AIS
 *   reports every 15 minutes, so a day without one means we no longer know where the ship is)
 *   and not in the future. Then `estimated_partial_leg` runs along sea lanes from that position
 *   (its first coordinate) to the next port.
 * - Coordinates are [lon, lat] normalized to [-180, 180] x [-90, 90]; a line crossing the
 *   antimeridian keeps its jump of more than 180 degrees between consecutive points.
 * - Ports without known coordinates get no point and no predicted leg; sequences still count
 *   them, so labels and ports_total match the shipment.
 */
import type { Position } from 'geojson';
import type { RouteFeatureCollection } from '../../shared/api/resources';
import { isValidLonLat, normalizePosition } from '../../shared/geo/antimeridian';
import {
  haversineKm,
  normalizedPath,
  reachedIndex,
  routeBehind,
  RouteNotKnown,
  type RouteLookup,
  type SeaRoute,
} from '../../shared/geo/sea-routes';
import { simplifyPath, toleranceFor } from '../../shared/geo/simplify';
import type { PortCall, VesselRef } from '../feeds/normalize/shipment-facts';
import type {
  CompleteRouteFeature,
  CurrentVesselFeature,
  EstimatedFullLegFeature,
  EstimatedPartialLegFeature,
  PastVesselLocationsFeature,
  PortFeature,
} from '../../shared/api/route-features';

/** A position is trusted for `current_vessel` for this long after it was recorded. */
export const FRESH_POSITION_MS = 24 * 60 * 60 * 1000;
/** Positions stamped up to this far ahead of `now` are accepted (clock skew between hosts). */
const FUTURE_SKEW_MS = 5 * 60 * 1000;

export interface RoutePort {
  id: string;
  locode: string;
  name: string;
  state_abbr: string | null;
  state: string | null;
  country_code: string;
  country: string;
  time_zone: string;
  latitude: number | null;
  longitude: number | null;
}

export interface RouteVessel {
  id: string;
  name: string;
  imo: string;
  mmsi: string | null;
}

/** One recorded vessel position. */
export interface TrackPoint {
  lon: number;
  lat: number;
  /** Epoch ms. */
  at: number;
  speed_knots: number | null;
  heading_deg: number | null;
}

export interface RouteLegData {
  /** The vessel sailing this leg, when known. */
  vessel: RouteVessel | null;
  voyage_number: string | null;
  /**
   * The vessel's recorded positions over the leg (ATD to ATA, or to now), oldest first. An array
   * passed to an earlier build is taken to have only grown at its end since (as `LegTrackMemo`
   * keeps them): the build looks only at the positions it has not seen.
   */
  track: readonly TrackPoint[];
}

export interface RouteMapData {
  calls: readonly PortCall[];
  /** Ports by UN/LOCODE. */
  ports: ReadonlyMap<string, RoutePort>;
  /** legs[k] is the voyage from calls[k] to calls[k + 1]. */
  legs: readonly RouteLegData[];
}

export interface RouteMapOptions {
  now: number;
  router: RouteLookup;
  freshPositionMs?: number;
  /** Douglas-Peucker tolerance in degrees; by default it scales with each line's size. */
  toleranceDeg?: number;
}

const ms = (iso: string | null): number | null => (iso === null ? null : Date.parse(iso));

/**
 * A vessel this far from its leg's sea lane is routed over the whole network instead of joining
 * the lane (it sails a different way, or the lane would be reached across land).
 */
const OFF_LANE_KM = 150;

/**
 * Recorded positions that start (or, for an arrived leg, stop) farther than this from the port
 * leave a gap, drawn along the sea lane and marked estimated. Nearer, the vessel was still in
 * the port's approaches and the recorded line is the whole story.
 */
const ESTIMATED_GAP_KM = 50;

/**
 * Simplified lines of the port-to-port sea routes, per tolerance. Keyed by the router's own
 * route objects, so an entry lives exactly as long as the router keeps that route.
 */
const simplifiedLanes = new WeakMap<SeaRoute, Map<string, SimplifiedLane | null>>();
interface SimplifiedLane {
  /** Normalized, as drawn. */
  coordinates: [number, number][];
  /** For each coordinate, the index of the route point it was kept from. */
  routeIndex: number[];
}

/** Which route point each simplified coordinate was kept from (simplification keeps points). */
function keptIndexes(route: SeaRoute, coordinates: readonly Position[]): number[] {
  const normalized = normalizedPath(route);
  const out: number[] = [];
  let i = 0;
  for (const [lon, lat] of coordinates) {
    let j = i;
    while (j < normalized.length && (normalized[j]![0] !== lon || normalized[j]![1] !== lat)) j++;
    // Not found: an end pinned to the port's exact place; it stands for the route's own end.
    if (j === normalized.length) j = out.length === 0 ? 0 : normalized.length - 1;
    out.push(j);
    i = j;
  }
  return out;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * What the builds so far made of one recorded track, so the next build after a new position
 * costs that position, not the voyage: the valid positions' ends, the finished UTC days already
 * simplified, and the open day's positions. Keyed by the track array itself (see
 * `RouteLegData.track`: a track seen again is taken to have only grown at its end).
 */
interface RecordedTrack {
  vesselId: string;
  startMs: number;
  toleranceDeg: number;
  /** Positions of the array looked at so far. */
  seen: number;
  first: TrackPoint | null;
  last: TrackPoint | null;
  /** The finished days, simplified one day at a time and joined (continuous). */
  finished: [number, number][];
  /** The open day's positions, led by the previous day's last position when there is one. */
  open: [number, number][];
  openDay: number;
  /** `open` simplified, until a position is added. */
  openSimplified: [number, number][] | null;
  /** The estimated stretch from the departure port to `first`, once drawn. */
  behind?: { key: string; coordinates: [number, number][] | null };
}
const recordedTracks = new WeakMap<readonly TrackPoint[], RecordedTrack>();

/**
 * The valid positions of `track` in [startMs, endMs] and their line, simplified one UTC day at a
 * time (each day's stretch starting where the previous one ended, so the line stays continuous;
 * every dropped position within `toleranceDeg` of it). Only positions not seen by an earlier
 * build of the same track array are looked at.
 */
function recordedTrack(
  track: readonly TrackPoint[],
  vesselId: string,
  startMs: number,
  endMs: number,
  toleranceDeg: number,
): RecordedTrack {
  let state = recordedTracks.get(track);
  if (
    !state ||
    state.vesselId !== vesselId ||
    state.startMs !== startMs ||
    state.toleranceDeg !== toleranceDeg ||
    state.seen > track.length ||
    (state.last !== null && state.last.at > endMs)
  ) {
    state = {
      vesselId,
      startMs,
      toleranceDeg,
      seen: 0,
      first: null,
      last: null,
      finished: [],
      open: [],
      openDay: NaN,
      openSimplified: null,
    };
    recordedTracks.set(track, state);
  }
  for (let i = state.seen; i < track.length; i++) {
    const p = track[i]!;
    // Oldest first: a position past the end waits for a later build (a later `now`).
    if (p.at > endMs && Number.isFinite(p.at)) break;
    state.seen = i + 1;
    if (!validPoint(p) || p.at < startMs) continue;
    const day = Math.floor(p.at / DAY_MS);
    if (state.last === null) {
      state.first = p;
      state.open = [[p.lon, p.lat]];
    } else if (day !== state.openDay) {
      const stretch = simplifyPath(state.open, toleranceDeg);
      state.finished.push(...(state.finished.length > 0 ? stretch.slice(1) : stretch));
      state.open = [
        [state.last.lon, state.last.lat],
        [p.lon, p.lat],
      ];
    } else {
      state.open.push([p.lon, p.lat]);
    }
    state.openDay = day;
    state.last = p;
    state.openSimplified = null;
  }
  return state;
}

/** The line of a recorded track: finished days, then the open day (simplified once per change). */
function recordedLine(state: RecordedTrack): [number, number][] {
  state.openSimplified ??= simplifyPath(state.open, state.toleranceDeg);
  if (state.finished.length === 0) return state.openSimplified.slice();
  return state.finished.concat(state.openSimplified.slice(1));
}

const iso = (epochMs: number): string => new Date(epochMs).toISOString();

/** True when call j or any later call has an actual arrival or departure. */
export function reachedFrom(calls: readonly PortCall[]): boolean[] {
  const reached = calls.map(() => false);
  let later = false;
  for (let j = calls.length - 1; j >= 0; j--) {
    const c = calls[j]!;
    later = later || c.inbound_ata_at !== null || c.outbound_atd_at !== null;
    reached[j] = later;
  }
  return reached;
}

/** Index k of the leg under way (departed, next port not reached), or -1. Latest wins. */
export function legUnderWay(calls: readonly PortCall[]): number {
  const reached = reachedFrom(calls);
  for (let k = calls.length - 2; k >= 0; k--) {
    if (calls[k]!.outbound_atd_at !== null && !reached[k + 1]) return k;
  }
  return -1;
}

/** The vessel of leg k as the port calls name it: the departure's, else the arrival's. */
export function legVesselRef(calls: readonly PortCall[], k: number): VesselRef | null {
  return calls[k]?.outbound_vessel ?? calls[k + 1]?.inbound_vessel ?? null;
}

const validPoint = (p: TrackPoint): boolean =>
  isValidLonLat(p.lon, p.lat) && !(p.lon === 0 && p.lat === 0) && Number.isFinite(p.at);

const portPosition = (port: RoutePort | undefined): Position | null =>
  port &&
  port.longitude !== null &&
  port.latitude !== null &&
  isValidLonLat(port.longitude, port.latitude)
    ? [port.longitude, port.latitude]
    : null;

export function buildRouteMap(
  data: RouteMapData,
  options: RouteMapOptions,
): RouteFeatureCollection | null {
  const { calls, ports, legs } = data;
  if (calls.length === 0) return null;
  const { now, router } = options;
  const freshMs = options.freshPositionMs ?? FRESH_POSITION_MS;
  const total = calls.length;
  const portOf = (k: number) => ports.get(calls[k]!.locode);
  const reached = reachedFrom(calls);
  const underWay = legUnderWay(calls);
  const features: CompleteRouteFeature[] = [];

  calls.forEach((call, k) => {
    const port = portOf(k);
    const at = portPosition(port);
    if (!port || !at) return;
    const feature: PortFeature = {
      type: 'Feature',
      geometry: { type: 'Point', coordinates: normalizePosition(at) },
      properties: {
        feature_type: 'port',
        ports_sequence: call.sequence,
        ports_total: total,
        location_id: port.id,
        location_type: 'Port',
        name: port.name,
        state_abbr: port.state_abbr,
        state: port.state,
        country_code: port.country_code,
        country: port.country,
        time_zone: port.time_zone,
        label: call.label,
        inbound_eta_at: call.inbound_eta_at,
        inbound_ata_at: call.inbound_ata_at,
        outbound_etd_at: call.outbound_etd_at,
        outbound_atd_at: call.outbound_atd_at,
        updated_at: call.updated_at,
      },
    };
    features.push(feature);
  });

  const line = (path: readonly Position[]): [number, number][] | null => {
    const coordinates = simplifyPath(path, options.toleranceDeg);
    return coordinates.length >= 2 ? coordinates : null;
  };
  const pinEnds = (path: Position[], from: Position, to: Position): Position[] => {
    // Unwrapping shifts the ends by 360 and back; pin them to the exact places, bit for bit.
    path[0] = normalizePosition(from);
    path[path.length - 1] = normalizePosition(to);
    return path;
  };
  const lane = (from: Position, to: Position): SeaRoute | null => {
    try {
      return router.seaRoute(from, to);
    } catch (error) {
      // Not computed yet: the build is run again once it is (sea-routes-client.ts).
      if (error instanceof RouteNotKnown) throw error;
      return null; // No route on the network (e.g. an inland port): draw nothing rather than fail.
    }
  };
  /** A port-to-port leg's lane, simplified once per route and tolerance, then reused. */
  const simplifiedLane = (from: Position, to: Position): SimplifiedLane | null => {
    const route = lane(from, to);
    if (!route) return null;
    let byTolerance = simplifiedLanes.get(route);
    if (!byTolerance) simplifiedLanes.set(route, (byTolerance = new Map()));
    const key = String(options.toleranceDeg ?? 'auto');
    if (!byTolerance.has(key)) {
      const coordinates = line(pinEnds(normalizedPath(route), from, to));
      byTolerance.set(
        key,
        coordinates && { coordinates, routeIndex: keptIndexes(route, coordinates) },
      );
    }
    return byTolerance.get(key) ?? null;
  };
  const laneLine = (from: Position, to: Position): [number, number][] | null => {
    const cached = simplifiedLane(from, to);
    return cached && cached.coordinates.map((p) => [p[0], p[1]] as [number, number]);
  };
  /**
   * From the vessel to the next port: the vessel, then the rest of the leg's simplified lane from
   * the point it has reached (only that first stretch is new on each build), or a route of its own
   * when off the lane.
   */
  const aheadLine = (
    vessel: Position,
    from: Position | null,
    to: Position,
  ): [number, number][] | null => {
    const route = from ? lane(from, to) : null;
    const simplified = route && simplifiedLane(from!, to);
    // Where the vessel is on the full lane (dense points), then the simplified points from there.
    const reached = route && simplified ? reachedIndex(route.path, vessel, OFF_LANE_KM) : -1;
    if (simplified && reached >= 0) {
      const path: [number, number][] = [normalizePosition(vessel)];
      simplified.coordinates.forEach((p, j) => {
        if (simplified.routeIndex[j]! >= reached) path.push([p[0], p[1]]);
      });
      if (path.length >= 2) {
        path[path.length - 1] = normalizePosition(to);
        return path;
      }
    }
    const own = lane(vessel, to);
    return own && line(pinEnds(normalizedPath(own), vessel, to));
  };

  /** From the departure port to a vessel position along the leg's lane, or a route of its own. */
  const behindPath = (from: Position, to: Position | null, vessel: Position): Position[] | null => {
    const route = to ? lane(from, to) : null;
    const behind = route && routeBehind(route, vessel, OFF_LANE_KM);
    if (behind)
      return pinEnds(
        behind.map((p) => normalizePosition(p)),
        from,
        vessel,
      );
    const own = lane(from, vessel);
    return own && pinEnds(normalizedPath(own), from, vessel);
  };

  for (let k = 0; k < total - 1; k++) {
    const departure = calls[k]!;
    const arrival = calls[k + 1]!;
    const leg = legs[k] ?? { vessel: null, voyage_number: null, track: [] };
    const started = departure.outbound_atd_at !== null || reached[k + 1]!;
    const from = portPosition(portOf(k));
    const to = portPosition(portOf(k + 1));

    if (!started) {
      const coordinates = from && to ? laneLine(from, to) : null;
      if (coordinates) {
        const feature: EstimatedFullLegFeature = {
          type: 'Feature',
          geometry: { type: 'LineString', coordinates },
          properties: {
            feature_type: 'estimated_full_legs',
            ports_sequence: departure.sequence,
            previous_port_id: portOf(k)!.id,
            next_port_id: portOf(k + 1)!.id,
            point_count: coordinates.length,
          },
        };
        features.push(feature);
      }
      continue;
    }

    // Positions recorded while the vessel sailed this leg.
    const startMs = ms(departure.outbound_atd_at) ?? -Infinity;
    const endMs = Math.min(ms(arrival.inbound_ata_at) ?? now, now + FUTURE_SKEW_MS);
    // One tolerance per leg (from its ports when known), so finished days can be reused.
    const toleranceDeg =
      options.toleranceDeg ??
      toleranceFor(
        from && to
          ? [from, to]
          : leg.track.filter((p) => p.at >= startMs && p.at <= endMs).map((p) => [p.lon, p.lat]),
      );
    const recorded = recordedTrack(leg.track, leg.vessel?.id ?? '', startMs, endMs, toleranceDeg);
    const first = recorded.first;
    const latest = recorded.last;
    if (leg.vessel) {
      const arrivedAt = arrival.inbound_ata_at ?? arrival.outbound_atd_at;
      const sailed = (
        coordinates: [number, number][] | null,
        start: string | null,
        end: string | null,
        estimated: boolean,
      ) => {
        if (!coordinates || coordinates.length < 2 || start === null || end === null) return;
        const feature: PastVesselLocationsFeature = {
          type: 'Feature',
          geometry: { type: 'LineString', coordinates },
          properties: {
            feature_type: 'past_vessel_locations',
            ports_sequence: departure.sequence,
            vessel_id: leg.vessel!.id,
            start_time: start,
            end_time: end,
            point_count: coordinates.length,
            outbound_atd_at: departure.outbound_atd_at,
            inbound_ata_at: arrival.inbound_ata_at,
            inbound_eta_at: arrival.inbound_eta_at,
            estimated,
          },
        };
        features.push(feature);
      };
      if (!first || !latest) {
        // Nothing recorded (the service started tracking after this leg): an arrived leg is drawn
        // whole along its lane, marked estimated; one still under way stays undrawn.
        if (reached[k + 1] && from && to) {
          sailed(laneLine(from, to), departure.outbound_atd_at ?? arrivedAt, arrivedAt, true);
        }
      } else {
        const firstAt: Position = [first.lon, first.lat];
        if (from && haversineKm(from, firstAt) > ESTIMATED_GAP_KM) {
          // Positions start mid-voyage: the lane from the departure port to the first of them.
          const key = `${from.join()}>${to?.join() ?? ''}@${toleranceDeg}`;
          if (recorded.behind?.key !== key) {
            const behind = behindPath(from, to, firstAt);
            recorded.behind = { key, coordinates: behind && line(behind) };
          }
          sailed(
            recorded.behind.coordinates?.slice() ?? null,
            departure.outbound_atd_at ?? iso(first.at),
            iso(first.at),
            true,
          );
        }
        if (latest !== first) {
          sailed(recordedLine(recorded), iso(first.at), iso(latest.at), false);
        }
        const lastAt: Position = [latest.lon, latest.lat];
        if (reached[k + 1] && to && haversineKm(lastAt, to) > ESTIMATED_GAP_KM) {
          // Arrived, but positions stop short of the port: the lane for the rest of the way.
          sailed(aheadLine(lastAt, from, to), iso(latest.at), arrivedAt, true);
        }
      }
    }

    if (k !== underWay) continue;
    const departurePort = portOf(k);
    if (
      !latest ||
      !leg.vessel ||
      !departurePort ||
      now - latest.at > freshMs ||
      latest.at > now + FUTURE_SKEW_MS
    ) {
      continue;
    }
    const position = normalizePosition([latest.lon, latest.lat]);
    const next = portOf(k + 1);
    const vessel: CurrentVesselFeature = {
      type: 'Feature',
      geometry: { type: 'Point', coordinates: position },
      properties: {
        feature_type: 'current_vessel',
        ports_sequence: departure.sequence,
        vessel_id: leg.vessel.id,
        vessel_name: leg.vessel.name,
        vessel_imo: leg.vessel.imo,
        voyage_number: leg.voyage_number,
        vessel_location_timestamp: iso(latest.at),
        vessel_location_heading: latest.heading_deg,
        vessel_location_speed: latest.speed_knots,
        departure_port_id: departurePort.id,
        departure_port_name: departurePort.name,
        departure_port_state_abbr: departurePort.state_abbr,
        departure_port_state: departurePort.state,
        departure_port_country_code: departurePort.country_code,
        departure_port_country: departurePort.country,
        departure_port_label: departure.label,
        departure_port_atd: departure.outbound_atd_at,
        departure_port_time_zone: departurePort.time_zone,
        arrival_port_id: next?.id ?? null,
        arrival_port_name: next?.name ?? null,
        arrival_port_state_abbr: next?.state_abbr ?? null,
        arrival_port_state: next?.state ?? null,
        arrival_port_country_code: next?.country_code ?? null,
        arrival_port_country: next?.country ?? null,
        arrival_port_label: next ? arrival.label : null,
        arrival_port_eta: arrival.inbound_eta_at,
        arrival_port_time_zone: next?.time_zone ?? null,
      },
    };
    features.push(vessel);

    const coordinates = to ? aheadLine(position, from, to) : null;
    if (coordinates && next) {
      // Simplification keeps the first point; pin it to the vessel point bit for bit.
      coordinates[0] = [position[0], position[1]];
      const partial: EstimatedPartialLegFeature = {
        type: 'Feature',
        geometry: { type: 'LineString', coordinates },
        properties: {
          feature_type: 'estimated_partial_leg',
          ports_sequence: departure.sequence,
          current_port_id: departurePort.id,
          next_port_id: next.id,
          point_count: coordinates.length,
        },
      };
      features.push(partial);
    }
  }

  return features.length > 0 ? { type: 'FeatureCollection', features } : null;
}
