/**
 * Stored copies of completed journeys' route maps (`route_map_copies`); routing/route-cache.ts
 * decides when a copy is stored and served.
 */
import type { Kysely } from 'kysely';

export interface StoredRouteMap {
  container_id: string;
  /** The serialized FeatureCollection, exactly as served. */
  body: string;
  etag: string;
  stored_at: string;
}

/** Row of the `route_map_copies` table (see createRouteMapCopiesTable). */
export interface RouteMapCopiesTable {
  container_id: string;
  body: string;
  etag: string;
  stored_at: string;
}
export interface RouteMapCopiesDatabase {
  route_map_copies: RouteMapCopiesTable;
}

/**
 * Creates the copies table; call it from a store migration. One row per container; the foreign
 * key removes the copy with its container.
 */
export async function createRouteMapCopiesTable(
  db: Kysely<RouteMapCopiesDatabase>,
  options: { containersForeignKey?: boolean } = {},
): Promise<void> {
  await db.schema
    .createTable('route_map_copies')
    .ifNotExists()
    .addColumn('container_id', 'text', (c) => {
      const column = c.primaryKey();
      return options.containersForeignKey === false
        ? column
        : column.references('containers.id').onDelete('cascade');
    })
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('etag', 'text', (c) => c.notNull())
    .addColumn('stored_at', 'text', (c) => c.notNull())
    .execute();
}

/** Copies in the `route_map_copies` table of any database that has it (e.g. the service store). */
export function sqlRouteMapCopies<DB extends RouteMapCopiesDatabase>(
  store: Kysely<DB>,
): {
  get(containerId: string): Promise<StoredRouteMap | null>;
  put(copy: StoredRouteMap): Promise<void>;
} {
  // Kysely's database type is invariant; the queries below touch only route_map_copies.
  const db = store as unknown as Kysely<RouteMapCopiesDatabase>;
  return {
    async get(containerId) {
      const row = await db
        .selectFrom('route_map_copies')
        .selectAll()
        .where('container_id', '=', containerId)
        .executeTakeFirst();
      return row ?? null;
    },
    async put(copy) {
      // A copy changes only when the builder's format does (routing/route-cache.ts); a second
      // writer racing us stores the same body.
      await db
        .insertInto('route_map_copies')
        .values(copy)
        .onConflict((oc) =>
          oc
            .column('container_id')
            .doUpdateSet({ body: copy.body, etag: copy.etag, stored_at: copy.stored_at }),
        )
        .execute();
    },
  };
}
