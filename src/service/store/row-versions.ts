/**
 * Row versions for caches that several instances must be able to trust. On PostgreSQL a row's
 * `xmin` is the id of the transaction that wrote its current version: every committed update
 * changes it, whichever instance ran it, even within one millisecond or without touching
 * `updated_at`, and it costs writers nothing. Reads that feed the rendered-resource cache select
 * it as `row_version`; a cached rendering is used only while the row still has that version.
 * Every write that changes what a container or shipment renders (its events, its containers)
 * updates that row in the same transaction (tracking-store.ts), so its version moves too.
 *
 * SQLite has no such column; there one process owns the file and the cache keeps using the
 * database's write counter (db.ts), so `row_version` is not selected.
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import { storeKindOf } from './dialect';
import type { Database } from './schema';

/** A row as read for rendering: with its version where the store has one. */
export type Versioned<T> = T & { row_version?: string };

/** True when reads on `db` carry row versions (PostgreSQL, outside a transaction). */
export function carriesRowVersions(db: Kysely<Database> | Transaction<Database>): boolean {
  return !db.isTransaction && storeKindOf(db) === 'postgres';
}

/** The selection of a rendered table's row version. */
export function rowVersion(table: 'containers' | 'shipments') {
  return sql<string>`${sql.ref(`${table}.xmin`)}::text`.as('row_version');
}
