/**
 * Where a vessel is expected to be on its way to a port: the sea route from a start (the previous
 * port, the vessel's last position or given coordinates) to the destination, sampled at a fixed
 * time step at the vessel's speed. Serves `/vessels/{id}/future_positions[_with_coordinates]`.
 */
import type { Position } from 'geojson';
import { KM_PER_NM, positionAlong, type RouteLookup } from '../../shared/geo/sea-routes';

/** Used when the vessel's reported speed is unknown or that of a ship not under way. */
export const DEFAULT_SPEED_KNOTS = 16;
/** Below this a reported speed is a ship at berth or anchor, not its sailing speed. */
const UNDER_WAY_KNOTS = 3;
/** The reference spaces positions one minute apart... */
const STEP_MS = 60_000;
/** ...but a long voyage is sampled more coarsely, so one answer stays under this many points. */
export const MAX_POSITIONS = 720;

export interface FuturePosition {
  latitude: number;
  longitude: number;
  heading: number | null;
  timestamp: string;
  estimated: boolean;
}

export interface FuturePositionsInput {
  router: RouteLookup;
  /** [lon, lat] */
  from: Position;
  to: Position;
  /** When the vessel is at `from` (ms). */
  startMs: number;
  speedKnots: number | null;
}

/** The sailing speed to assume: the reported one while under way, else the default. */
export function sailingSpeed(reported: number | null): number {
  return reported !== null && Number.isFinite(reported) && reported >= UNDER_WAY_KNOTS
    ? reported
    : DEFAULT_SPEED_KNOTS;
}

/**
 * Positions from `from` to `to` along the sea route, one every minute (or every
 * `duration / MAX_POSITIONS`, rounded up to whole minutes, for long voyages), the arrival last.
 * Throws NoSeaRoute when the router finds no sea route.
 */
export function futurePositions(input: FuturePositionsInput): FuturePosition[] {
  const route = input.router.seaRoute(input.from, input.to);
  const knots = sailingSpeed(input.speedKnots);
  const durationMs = (route.lengthKm / (knots * KM_PER_NM)) * 3_600_000;
  const step = Math.max(STEP_MS, Math.ceil(durationMs / MAX_POSITIONS / STEP_MS) * STEP_MS);
  const out: FuturePosition[] = [];
  for (let t = 0; ; t += step) {
    const last = t >= durationMs;
    const at = positionAlong(route, durationMs > 0 ? Math.min(1, t / durationMs) : 1);
    out.push({
      latitude: round(at.lat),
      longitude: round(at.lon),
      heading: Math.round(at.courseDeg),
      timestamp: new Date(input.startMs + Math.min(t, durationMs)).toISOString(),
      estimated: true,
    });
    if (last) break;
  }
  return out;
}

const round = (n: number) => Math.round(n * 1e5) / 1e5;
