/**
 * Owner of vessels as the service records them: AIS positions (the vessels table's current
 * position and the thinned `vessel_positions` history), the position history the route map and
 * the vessel endpoints read, and the port and vessel look-ups of the route builder.
 */
import type { Kysely } from 'kysely';
import { retryOnConflict } from './dialect';
import type { Database, PortsTable, VesselPositionsTable, VesselsTable } from './schema';

/**
 * The one order in which writers take vessel rows (positions, the reference load): two that lock
 * rows in one order never each hold a row the other waits for.
 */
export const byImo = (a: { imo: string }, b: { imo: string }): number =>
  a.imo < b.imo ? -1 : a.imo > b.imo ? 1 : 0;

/** A vessel's latest AIS position, written to the vessels table. */
export interface CurrentPosition {
  imo: string;
  mmsi: string;
  latitude: number;
  longitude: number;
  speedKnots: number | null;
  headingDegrees: number | null;
  timestamp: string;
}

/**
 * A recorded position as the route map reads it (routing's TrackPoint, the same shape: the
 * store answers in its own terms and routing depends on the store, not the other way round).
 */
export interface StoredTrackPoint {
  lon: number;
  lat: number;
  /** Epoch ms. */
  at: number;
  speed_knots: number | null;
  heading_deg: number | null;
}

/** A vessel by MMSI or IMO, whichever is known. */
export interface VesselKey {
  imo: string | null;
  mmsi: string | null;
}

/** The stored positions of a vessel: a time window of them, oldest first, and the latest. */
export interface StoredPositionHistory {
  positions(vessel: VesselKey, fromMs: number, toMs: number): Promise<StoredTrackPoint[]>;
  latest(vessel: VesselKey): Promise<StoredTrackPoint | null>;
}

/** The port and vessel look-ups a route map needs. */
export interface RouteLookups {
  ports(
    locodes: string[],
  ): Promise<
    Pick<
      PortsTable,
      | 'id'
      | 'locode'
      | 'name'
      | 'state_abbr'
      | 'state'
      | 'country_code'
      | 'country'
      | 'time_zone'
      | 'latitude'
      | 'longitude'
    >[]
  >;
  vessel(ref: {
    imo: string | null;
  }): Promise<Pick<VesselsTable, 'id' | 'name' | 'imo' | 'mmsi'> | null>;
}

const point = (r: VesselPositionsTable): StoredTrackPoint => ({
  lon: r.longitude,
  lat: r.latitude,
  at: Date.parse(r.timestamp),
  speed_knots: r.speed_knots,
  heading_deg: r.heading_degrees,
});

export class VesselStore {
  constructor(private readonly db: Kysely<Database>) {}

  async knownImos(): Promise<Set<string>> {
    const rows = await this.db.selectFrom('vessels').select('imo').execute();
    return new Set(rows.map((r) => r.imo));
  }

  async names(): Promise<{ imo: string; name: string }[]> {
    return this.db.selectFrom('vessels').select(['imo', 'name']).execute();
  }

  async find(
    key: { by: 'id'; id: string } | { by: 'imo'; imo: string },
  ): Promise<VesselsTable | undefined> {
    return this.db
      .selectFrom('vessels')
      .selectAll()
      .where(key.by, '=', key.by === 'id' ? key.id : key.imo)
      .executeTakeFirst();
  }

  /** Writes current positions and appends history points, in one transaction. */
  async recordPositions(
    current: readonly CurrentPosition[],
    history: readonly VesselPositionsTable[],
  ): Promise<void> {
    const inKeyOrder = [...current].sort(byImo);
    await retryOnConflict(() =>
      this.db.transaction().execute(async (trx) => {
        for (const p of inKeyOrder) {
          await trx
            .updateTable('vessels')
            .set({
              latitude: p.latitude,
              longitude: p.longitude,
              nautical_speed_knots: p.speedKnots,
              navigational_heading_degrees: p.headingDegrees,
              position_timestamp: p.timestamp,
              mmsi: p.mmsi,
            })
            .where('imo', '=', p.imo)
            .execute();
        }
        for (let i = 0; i < history.length; i += 200) {
          await trx
            .insertInto('vessel_positions')
            .values(history.slice(i, i + 200))
            .execute();
        }
      }),
    );
  }

  /** The stored position history, for the route map and the vessel endpoints. */
  positionHistory(): StoredPositionHistory {
    const db = this.db;
    const imoOf = async (v: VesselKey) => {
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

  /** Port and vessel look-ups over the reference tables, for the route builder. */
  routeLookups(): RouteLookups {
    return storeRouteLookups(this.db);
  }
}

/** Port and vessel look-ups over the service's reference tables. */
export function storeRouteLookups(db: Kysely<Database>): RouteLookups {
  return {
    async ports(locodes) {
      if (locodes.length === 0) return [];
      return db
        .selectFrom('ports')
        .select([
          'id',
          'locode',
          'name',
          'state_abbr',
          'state',
          'country_code',
          'country',
          'time_zone',
          'latitude',
          'longitude',
        ])
        .where('locode', 'in', [...new Set(locodes)])
        .execute();
    },
    async vessel(ref) {
      if (!ref.imo) return null;
      const row = await db
        .selectFrom('vessels')
        .select(['id', 'name', 'imo', 'mmsi'])
        .where('imo', '=', ref.imo)
        .executeTakeFirst();
      return row ?? null;
    },
  };
}
