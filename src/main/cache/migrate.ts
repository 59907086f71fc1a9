/**
 * Brings a cache file to this version's schema (migrations.ts, one transaction per step), with
 * the steps that also fill data from the stored JSON. A file from a newer version is refused.
 */
import type Database from 'better-sqlite3';
import type { CachedContainer } from '../../shared/cached-resources';
import { MIGRATIONS } from './migrations';
import { containerRow } from './projection';
import { SEARCH_INSERT } from './search-index';

export function migrate(db: Database.Database): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > MIGRATIONS.length) {
    throw new Error(
      `The cache file was written by a newer Quayside (schema ${current}); this version knows ${MIGRATIONS.length}.`,
    );
  }
  for (let version = current; version < MIGRATIONS.length; version++) {
    db.transaction(() => {
      db.exec(MIGRATIONS[version]!);
      if (version + 1 === LFD_COLUMNS_VERSION) fillLfdColumns(db);
      // The search index was made again with a column for custom field values.
      if (version + 1 === CUSTOM_FIELDS_VERSION) db.exec(SEARCH_INSERT);
      db.pragma(`user_version = ${version + 1}`);
    }).immediate();
  }
}

/** The schema version that added the per-zone deadline columns. */
const LFD_COLUMNS_VERSION = 3;
/** The schema version that added custom fields (and remade the search index). */
const CUSTOM_FIELDS_VERSION = 4;

/** Projects the deadline columns of rows cached before they existed (from each row's JSON). */
function fillLfdColumns(db: Database.Database): void {
  const update = db.prepare(
    `UPDATE containers SET lfd_deadlines = @lfd_deadlines, lfd_first_due_at = @lfd_first_due_at,
       lfd_first_end_at = @lfd_first_end_at, lfd_last_end_at = @lfd_last_end_at,
       appointment_day_at = @appointment_day_at
     WHERE id = @id`,
  );
  for (const { json } of db.prepare('SELECT json FROM containers').all() as { json: string }[]) {
    const row = containerRow(JSON.parse(json) as CachedContainer);
    update.run({
      id: row.id,
      lfd_deadlines: row.lfd_deadlines,
      lfd_first_due_at: row.lfd_first_due_at,
      lfd_first_end_at: row.lfd_first_end_at,
      lfd_last_end_at: row.lfd_last_end_at,
      appointment_day_at: row.appointment_day_at,
    });
  }
}
