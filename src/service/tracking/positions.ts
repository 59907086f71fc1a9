/**
 * AIS positions into the store: each known vessel's current position (vessels table) and a
 * thinned position history (vessel_positions, one point per vessel per `minSpacingMs`), which
 * the route map draws as the past path. Positions arrive as a stream and are written in batches
 * on the engine's tick, so a busy feed never holds the database.
 */
import type { Kysely } from 'kysely';
import { v4 as uuidv4 } from 'uuid';
import type { VesselPosition, VesselStatic } from '../feeds';
import type { VesselPositionHistory } from '../routing/positions';
import type { TrackPoint } from '../routing/route-map';
import type { Database, VesselPositionsTable } from '../store/schema';

export const POSITION_SPACING_MS = 15 * 60_000;
/** Most buffered points per flush; the rest wait (the latest position is always kept). */
const MAX_BUFFER = 5_000;

export class PositionRecorder {
  private readonly latest = new Map<string, { p: VesselPosition; mmsi: string }>();
  private readonly pending: VesselPositionsTable[] = [];
  private readonly lastKeptAt = new Map<string, number>();
  stored = 0;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly isKnownVessel: (imo: string) => boolean,
    private readonly minSpacingMs = POSITION_SPACING_MS,
  ) {}

  /** Called for every accepted AIS position; cheap, never throws. */
  offer(position: VesselPosition, vessel: VesselStatic | null): void {
    const imo = vessel?.imo;
    if (!imo || !this.isKnownVessel(imo)) return;
    this.latest.set(imo, { p: position, mmsi: position.mmsi });
    const last = this.lastKeptAt.get(imo);
    if (last !== undefined && position.received_at - last < this.minSpacingMs) return;
    if (this.pending.length >= MAX_BUFFER) return;
    this.lastKeptAt.set(imo, position.received_at);
    this.pending.push({
      id: uuidv4(),
      vessel_imo: imo,
      mmsi: position.mmsi,
      latitude: position.lat,
      longitude: position.lon,
      speed_knots: position.speed_knots,
      heading_degrees: position.heading_deg ?? position.course_deg,
      timestamp: position.timestamp,
    });
  }

  async flush(): Promise<void> {
    if (this.latest.size === 0 && this.pending.length === 0) return;
    const latest = [...this.latest.entries()];
    this.latest.clear();
    const rows = this.pending.splice(0, this.pending.length);
    await this.db.transaction().execute(async (trx) => {
      for (const [imo, { p, mmsi }] of latest) {
        await trx
          .updateTable('vessels')
          .set({
            latitude: p.lat,
            longitude: p.lon,
            nautical_speed_knots: p.speed_knots,
            navigational_heading_degrees: p.heading_deg ?? p.course_deg,
            position_timestamp: p.timestamp,
            mmsi,
          })
          .where('imo', '=', imo)
          .execute();
      }
      for (let i = 0; i < rows.length; i += 200) {
        await trx
          .insertInto('vessel_positions')
          .values(rows.slice(i, i + 200))
          .execute();
      }
    });
    this.stored += rows.length;
  }
}

const point = (r: VesselPositionsTable): TrackPoint => ({
  lon: r.longitude,
  lat: r.latitude,
  at: Date.parse(r.timestamp),
  speed_knots: r.speed_knots,
  heading_deg: r.heading_degrees,
});

/** The stored position history, for the route map and the vessel endpoints. */
export function storedPositionHistory(db: Kysely<Database>): VesselPositionHistory {
  const imoOf = async (v: { imo: string | null; mmsi: string | null }) => {
    if (v.imo) return v.imo;
    if (!v.mmsi) return null;
    const row = await db
      .selectFrom('vessels')
      .select('imo')
      .where('mmsi', '=', v.mmsi)
      .executeTakeFirst();
    return row?.imo ?? null;
  };
  return {
    async positions(vessel, fromMs, toMs) {
      const imo = await imoOf(vessel);
      if (!imo) return [];
      const rows = await db
        .selectFrom('vessel_positions')
        .selectAll()
        .where('vessel_imo', '=', imo)
        .where('timestamp', '>=', new Date(fromMs).toISOString())
        .where('timestamp', '<=', new Date(toMs).toISOString())
        .orderBy('timestamp')
        .execute();
      return rows.map(point);
    },
    async latest(vessel) {
      const imo = await imoOf(vessel);
      if (!imo) return null;
      const row = await db
        .selectFrom('vessel_positions')
        .selectAll()
        .where('vessel_imo', '=', imo)
        .orderBy('timestamp', 'desc')
        .executeTakeFirst();
      return row ? point(row) : null;
    },
  };
}
