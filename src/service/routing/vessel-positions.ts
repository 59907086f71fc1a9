/**
 * The vessel endpoints (`GET /vessels/{id}` and `GET /vessels/{imo}`): the vessel with its
 * current position and, on request (`show_positions`, a paid feature), its position history.
 *
 * Both reference paths share one route shape, so the path parameter is read as a UUID (vessel
 * id) or a 7-digit IMO number. History is asked for with `show_positions=true` or either of
 * `show_positions[from_timestamp]` / `show_positions[to_timestamp]`; the window defaults to
 * the last 7 days up to now and is capped at MAX_POSITIONS_WINDOW_MS.
 */
import type { VesselResource } from '../../shared/api/resources';
import type { VesselsTable } from '../store/schema';
import type { VesselPositionHistory } from './positions';
import type { TrackPoint } from './route-map';

export const DEFAULT_POSITIONS_WINDOW_MS = 7 * 24 * 60 * 60 * 1000;
/** Longest history one request may ask for (keeps a response to a few thousand positions). */
export const MAX_POSITIONS_WINDOW_MS = 31 * 24 * 60 * 60 * 1000;

export type VesselKey = { by: 'id'; id: string } | { by: 'imo'; imo: string };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** How to look the vessel up, or null when the parameter is neither a UUID nor an IMO. */
export function parseVesselKey(param: string): VesselKey | null {
  const value = param.trim();
  if (UUID.test(value)) return { by: 'id', id: value.toLowerCase() };
  const imo = value.replace(/^IMO\s*/i, '');
  if (/^[0-9]{7}$/.test(imo)) return { by: 'imo', imo };
  return null;
}

/** A bad query parameter; the API answers 400 with `source.parameter`. */
export class PositionsQueryError extends Error {
  constructor(
    readonly parameter: string,
    detail: string,
  ) {
    super(detail);
  }
}

export interface PositionsWindow {
  fromMs: number;
  toMs: number;
}

const FROM = 'show_positions[from_timestamp]';
const TO = 'show_positions[to_timestamp]';
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;

function parseTimestamp(value: unknown, parameter: string): number | null {
  if (value === undefined || value === '') return null;
  const text = typeof value === 'string' ? value : null;
  const parsed = text !== null && ISO_DATE_TIME.test(text) ? Date.parse(text) : NaN;
  if (!Number.isFinite(parsed)) {
    throw new PositionsQueryError(parameter, `${parameter} must be an ISO 8601 date-time`);
  }
  return parsed;
}

/**
 * The requested history window, or null when no history was asked for. Accepts both the flat
 * query keys (`show_positions[from_timestamp]`) and a parsed nested object
 * (`show_positions: { from_timestamp }`), whichever the query-string parser produces.
 */
export function parseShowPositions(
  query: Record<string, unknown>,
  now: number,
): PositionsWindow | null {
  const nested =
    typeof query.show_positions === 'object' && query.show_positions !== null
      ? (query.show_positions as Record<string, unknown>)
      : {};
  const fromRaw = query[FROM] ?? nested.from_timestamp;
  const toRaw = query[TO] ?? nested.to_timestamp;
  const flag = typeof query.show_positions === 'string' ? query.show_positions : undefined;
  if (flag !== undefined && !['true', 'false', '1', '0', ''].includes(flag)) {
    throw new PositionsQueryError('show_positions', 'show_positions must be true or false');
  }
  const asked = flag === 'true' || flag === '1' || fromRaw !== undefined || toRaw !== undefined;
  if (!asked) return null;
  const toMs = parseTimestamp(toRaw, TO) ?? now;
  const fromMs = parseTimestamp(fromRaw, FROM) ?? toMs - DEFAULT_POSITIONS_WINDOW_MS;
  if (fromMs > toMs) {
    throw new PositionsQueryError(FROM, `${FROM} must not be after ${TO}`);
  }
  if (toMs - fromMs > MAX_POSITIONS_WINDOW_MS) {
    throw new PositionsQueryError(FROM, `the positions window may span at most 31 days`);
  }
  return { fromMs, toMs };
}

/**
 * The vessel resource: current position from whichever is newer, the stored vessel row or the
 * latest recorded position; `positions` (oldest first, `estimated: false`) when history was
 * asked for.
 */
export function renderVessel(
  vessel: VesselsTable,
  latest: TrackPoint | null,
  positions?: readonly TrackPoint[],
): VesselResource {
  const storedMs = vessel.position_timestamp ? Date.parse(vessel.position_timestamp) : -Infinity;
  const useLatest = latest !== null && latest.at > storedMs;
  const attributes: VesselResource['attributes'] = {
    name: vessel.name,
    imo: vessel.imo,
    mmsi: vessel.mmsi,
    latitude: useLatest ? latest.lat : vessel.latitude,
    longitude: useLatest ? latest.lon : vessel.longitude,
    nautical_speed_knots: useLatest ? latest.speed_knots : vessel.nautical_speed_knots,
    navigational_heading_degrees: useLatest
      ? latest.heading_deg
      : vessel.navigational_heading_degrees,
    position_timestamp: useLatest ? new Date(latest.at).toISOString() : vessel.position_timestamp,
  };
  if (positions) {
    attributes.positions = positions.map((p) => ({
      latitude: p.lat,
      longitude: p.lon,
      heading: p.heading_deg,
      timestamp: new Date(p.at).toISOString(),
      estimated: false,
    }));
  }
  return { id: vessel.id, type: 'vessel', attributes };
}

/** Loads the latest position (and the history window when asked) and renders the vessel. */
export async function vesselDocument(
  vessel: VesselsTable,
  history: VesselPositionHistory,
  window: PositionsWindow | null,
): Promise<{ data: VesselResource }> {
  const key = { imo: vessel.imo, mmsi: vessel.mmsi };
  const [latest, positions] = await Promise.all([
    history.latest(key),
    window ? history.positions(key, window.fromMs, window.toMs) : Promise.resolve(undefined),
  ]);
  return { data: renderVessel(vessel, latest, positions) };
}
