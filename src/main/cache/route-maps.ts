/**
 * The route maps owner: each container's map as the service sent it (GeoJSON with its ETag), and
 * which containers' maps are due (at sea and stale, or arrived since the last fetch).
 */
import { CacheOwner } from './connection';
import type { DueRouteMapScan, RouteMapRecord } from './interface';
import { RAIL_PENDING_SQL } from './route-map-final';

/**
 * A container's route map is final: it arrived at its port of discharge (its own record or its
 * shipment says so) and does not move on by rail, or is at the ramp already (RAIL_PENDING_SQL).
 */
const ARRIVED_SQL = `((c.pod_arrived_at IS NOT NULL OR s.pod_ata_at IS NOT NULL) AND NOT ${RAIL_PENDING_SQL})`;
/** Containers read per call when looking for due route maps. */
const DUE_MAP_SCAN = 1000;

export class RouteMapCache extends CacheOwner {
  dueRouteMaps(staleBefore: string, after: number): DueRouteMapScan {
    // At sea (on a ship, or departed and not arrived): a map missing or fetched before
    // `staleBefore`. Arrived since the last fetch: one final fetch. A final map never again.
    // A range of the containers' own order per call: reading 10k wide rows at once holds the
    // main thread for tens of milliseconds.
    const upTo = after + DUE_MAP_SCAN;
    const rows = this.stmt(
      `SELECT id, arrived FROM (
         SELECT c.id, c.seq, c.current_status AS status,
           (s.pol_atd_at IS NOT NULL) AS departed,
           ${ARRIVED_SQL} AS arrived,
           m.fetched_at AS fetchedAt, coalesce(m.completed, 0) AS completed
         FROM containers c
         LEFT JOIN shipments s ON s.id = c.shipment_id
         LEFT JOIN route_maps m ON m.container_id = c.id
         WHERE c.seq > ? AND c.seq <= ?
       )
       WHERE completed = 0 AND CASE
         WHEN status = 'on_ship' OR (departed AND NOT arrived)
           THEN fetchedAt IS NULL OR fetchedAt <= ?
         ELSE arrived AND fetchedAt IS NOT NULL
       END
       ORDER BY seq`,
    ).all(after, upTo, staleBefore) as { id: string; arrived: number }[];
    const last =
      (this.stmt('SELECT max(seq) AS last FROM containers').get() as { last: number | null })
        .last ?? 0;
    return {
      due: rows.map((r) => ({ id: r.id, arrived: r.arrived === 1 })),
      next: upTo < last ? upTo : null,
      last,
    };
  }

  containerArrived(id: string): boolean {
    const row = this.stmt(
      `SELECT ${ARRIVED_SQL} AS arrived
       FROM containers c LEFT JOIN shipments s ON s.id = c.shipment_id WHERE c.id = ?`,
    ).get(id) as { arrived: number } | undefined;
    return row?.arrived === 1;
  }

  getRouteMap(containerId: string): RouteMapRecord | null {
    const row = this.stmt(
      'SELECT container_id, geojson, fetched_at, etag, completed FROM route_maps WHERE container_id = ?',
    ).get(containerId) as
      | {
          container_id: string;
          geojson: string;
          fetched_at: string;
          etag: string | null;
          completed: number;
        }
      | undefined;
    return row
      ? {
          containerId: row.container_id,
          geojson: row.geojson,
          fetchedAt: row.fetched_at,
          etag: row.etag,
          completed: row.completed === 1,
        }
      : null;
  }

  putRouteMap(map: RouteMapRecord): void {
    this.stmt(
      `INSERT INTO route_maps (container_id, geojson, fetched_at, etag, completed)
       VALUES (?, ?, ?, ?, ?)
       ON CONFLICT(container_id) DO UPDATE SET geojson = excluded.geojson,
         fetched_at = excluded.fetched_at, etag = excluded.etag, completed = excluded.completed`,
    ).run(map.containerId, map.geojson, map.fetchedAt, map.etag, map.completed ? 1 : 0);
  }

  /** A 304 answer: the stored map is current as of `fetchedAt`. */
  touchRouteMap(containerId: string, fetchedAt: string, completed: boolean): void {
    this.stmt('UPDATE route_maps SET fetched_at = ?, completed = ? WHERE container_id = ?').run(
      fetchedAt,
      completed ? 1 : 0,
      containerId,
    );
  }
}
