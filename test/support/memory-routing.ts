/**
 * Position histories and route-map copies held in memory, for tests and benchmarks that build
 * route maps without a store: the AIS feed's vessel store read directly, fixed positions per
 * vessel, and copies in a map.
 */
import type { AisVesselStore, VesselPosition } from '../../src/service/feeds/ais/vessel-store';
import type { PositionKey, VesselPositionHistory } from '../../src/service/routing/positions';
import type { RouteMapCopies, StoredRouteMap } from '../../src/service/routing/route-cache';
import type { TrackPoint } from '../../src/service/routing/route-map';

function trackPointOf(p: VesselPosition): TrackPoint {
  return {
    lon: p.lon,
    lat: p.lat,
    at: p.received_at,
    speed_knots: p.speed_knots,
    // True heading when the transponder sends one, else the course over ground.
    heading_deg: p.heading_deg ?? p.course_deg,
  };
}

/** First index in `sorted` (by `at`) whose time is >= t. */
function lowerBound(sorted: readonly VesselPosition[], t: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]!.received_at < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Positions straight from the AIS feed's vessel store. Its history is bounded per vessel (historyLimit);
 * a 45-day voyage at one report per 15 minutes needs about 4,400 positions.
 */
export function aisPositionHistory(store: AisVesselStore): VesselPositionHistory {
  const mmsiOf = (v: PositionKey): string | null =>
    v.mmsi ?? (v.imo ? store.mmsiForImo(v.imo) : null);
  return {
    async positions(vessel, fromMs, toMs) {
      const mmsi = mmsiOf(vessel);
      if (!mmsi) return [];
      // Receive times only grow, so the history is sorted by time.
      const history = store.history(mmsi);
      const out: TrackPoint[] = [];
      for (let i = lowerBound(history, fromMs); i < history.length; i++) {
        const p = history[i]!;
        if (p.received_at > toMs) break;
        out.push(trackPointOf(p));
      }
      return out;
    },
    async latest(vessel) {
      const mmsi = mmsiOf(vessel);
      const p = mmsi ? store.latest(mmsi) : null;
      return p ? trackPointOf(p) : null;
    },
  };
}

/** An in-memory history, for tests and tools: positions per MMSI or IMO, any order. */
export function memoryPositionHistory(
  byVessel: ReadonlyMap<string, readonly TrackPoint[]>,
): VesselPositionHistory {
  const sorted = new Map<string, TrackPoint[]>();
  for (const [key, points] of byVessel)
    sorted.set(
      key,
      [...points].sort((a, b) => a.at - b.at),
    );
  const find = (v: PositionKey) =>
    (v.mmsi ? sorted.get(v.mmsi) : undefined) ?? (v.imo ? sorted.get(v.imo) : undefined) ?? [];
  return {
    positions: async (vessel, fromMs, toMs) =>
      find(vessel).filter((p) => p.at >= fromMs && p.at <= toMs),
    latest: async (vessel) => find(vessel).at(-1) ?? null,
  };
}

export function memoryRouteMapCopies(): RouteMapCopies {
  const copies = new Map<string, StoredRouteMap>();
  return {
    get: async (id) => copies.get(id) ?? null,
    put: async (copy) => {
      copies.set(copy.container_id, copy);
    },
  };
}
