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
  remainingRoute,
  routeBehind,
  type SeaRoute,
  type SeaRouter,
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
  /** The vessel's recorded positions over the leg (ATD to ATA, or to now), oldest first. */
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
  router: SeaRouter;
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
const simplifiedLanes = new WeakMap<SeaRoute, Map<string, [number, number][] | null>>();

const DAY_MS = 24 * 60 * 60 * 1000;
/** Simplified day stretches of recorded tracks kept for reuse (least recently used dropped). */
const TRACK_STRETCHES_KEPT = 50_000;
const trackStretches = new Map<string, [number, number][]>();

/**
 * A recorded track simplified one UTC day at a time, each day's stretch starting where the
 * previous one ended so the line stays continuous. Finished days are reused from the last build
 * (positions are only ever appended), so a new position costs the simplification of its own day.
 * Every dropped position still lies within `toleranceDeg` of the line.
 */
function simplifiedTrack(
  vesselId: string,
  track: readonly TrackPoint[],
  toleranceDeg: number,
): [number, number][] {
  const out: [number, number][] = [];
  let start = 0;
  while (start < track.length) {
    const day = Math.floor(track[start]!.at / DAY_MS);
    let end = start;
    while (end + 1 < track.length && Math.floor(track[end + 1]!.at / DAY_MS) === day) end++;
    const from = start > 0 ? start - 1 : start;
    const first = track[from]!;
    const last = track[end]!;
    const key = [
      vesselId,
      toleranceDeg,
      end - from,
      first.at,
      first.lon,
      first.lat,
      last.at,
      last.lon,
      last.lat,
    ].join('|');
    let stretch = trackStretches.get(key);
    if (stretch)
      trackStretches.delete(key); // re-inserted below as the most recent
    else {
      stretch = simplifyPath(
        track.slice(from, end + 1).map((p) => [p.lon, p.lat]),
        toleranceDeg,
      );
    }
    trackStretches.set(key, stretch);
    if (trackStretches.size > TRACK_STRETCHES_KEPT) {
      trackStretches.delete(trackStretches.keys().next().value!);
    }
    stretch.forEach((p, i) => {
      if (i > 0 || out.length === 0) out.push([p[0], p[1]]);
    });
    start = end + 1;
  }
  return out;
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
    } catch {
      return null; // No route on the network (e.g. an inland port): draw nothing rather than fail.
    }
  };
  /** A port-to-port leg's line: simplified once per route and tolerance, then reused. */
  const laneLine = (from: Position, to: Position): [number, number][] | null => {
    const route = lane(from, to);
    if (!route) return null;
    let byTolerance = simplifiedLanes.get(route);
    if (!byTolerance) simplifiedLanes.set(route, (byTolerance = new Map()));
    const key = String(options.toleranceDeg ?? 'auto');
    if (!byTolerance.has(key)) {
      byTolerance.set(key, line(pinEnds(normalizedPath(route), from, to)));
    }
    const cached = byTolerance.get(key) ?? null;
    return cached && cached.map((p) => [p[0], p[1]] as [number, number]);
  };
  /**
   * From the vessel to the next port: the rest of the leg's lane from the lane point nearest the
   * vessel (the lane is routed once per port pair), or a route of its own when off the lane.
   */
  const aheadPath = (vessel: Position, from: Position | null, to: Position): Position[] | null => {
    const route = from ? lane(from, to) : null;
    const rest = route && remainingRoute(route, vessel, OFF_LANE_KM);
    if (rest)
      return pinEnds(
        rest.map((p) => normalizePosition(p)),
        vessel,
        to,
      );
    const own = lane(vessel, to);
    return own && pinEnds(normalizedPath(own), vessel, to);
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
    const track = leg.track.filter((p) => validPoint(p) && p.at >= startMs && p.at <= endMs);
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
      const first = track[0];
      const last = track[track.length - 1];
      if (!first) {
        // Nothing recorded (the service started tracking after this leg): an arrived leg is drawn
        // whole along its lane, marked estimated; one still under way stays undrawn.
        if (reached[k + 1] && from && to) {
          sailed(laneLine(from, to), departure.outbound_atd_at ?? arrivedAt, arrivedAt, true);
        }
      } else {
        const firstAt: Position = [first.lon, first.lat];
        if (from && haversineKm(from, firstAt) > ESTIMATED_GAP_KM) {
          // Positions start mid-voyage: the lane from the departure port to the first of them.
          const behind = behindPath(from, to, firstAt);
          sailed(
            behind && line(behind),
            departure.outbound_atd_at ?? iso(first.at),
            iso(first.at),
            true,
          );
        }
        if (track.length >= 2) {
          // One tolerance per leg (from its ports when known), so finished days can be reused.
          const toleranceDeg =
            options.toleranceDeg ??
            toleranceFor(from && to ? [from, to] : track.map((p) => [p.lon, p.lat]));
          sailed(
            simplifiedTrack(leg.vessel.id, track, toleranceDeg),
            iso(first.at),
            iso(last!.at),
            false,
          );
        }
        const lastAt: Position = [last!.lon, last!.lat];
        if (reached[k + 1] && to && haversineKm(lastAt, to) > ESTIMATED_GAP_KM) {
          // Arrived, but positions stop short of the port: the lane for the rest of the way.
          const ahead = aheadPath(normalizePosition(lastAt), from, to);
          sailed(ahead && line(ahead), iso(last!.at), arrivedAt, true);
        }
      }
    }

    if (k !== underWay) continue;
    const latest = track[track.length - 1];
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

    const path = to ? aheadPath(position, from, to) : null;
    const coordinates = path && line(path);
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
