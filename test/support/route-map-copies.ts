/**
 * Route-map copies in a SQLite file of their own, for route tests that run the builder without a
 * whole service store.
 */
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import {
  createRouteMapCopiesTable,
  sqlRouteMapCopies,
  type RouteMapCopiesDatabase,
} from '../../src/service/store/route-map-copies';

export async function routeMapCopiesIn(
  dir: string,
): Promise<{ copies: ReturnType<typeof sqlRouteMapCopies>; close(): Promise<void> }> {
  const db = new Kysely<RouteMapCopiesDatabase>({
    dialect: new SqliteDialect({ database: new SQLite(path.join(dir, 'routes.sqlite')) }),
  });
  await createRouteMapCopiesTable(db, { containersForeignKey: false });
  return { copies: sqlRouteMapCopies(db), close: () => db.destroy() };
}
