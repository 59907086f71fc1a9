/**
 * Single-row key reads (a row's id and updated_at, what a detail request checks its rendered
 * copy against) kept while nothing can have changed them: no write to the rendered tables in this
 * process (db.ts counts them) and no commit by another process (SQLite's data_version). A detail
 * request then costs no query at all; the read through Kysely was the largest part of its time.
 *
 * Only where the database has both counters (SQLite). On PostgreSQL other instances write
 * without telling, so reads go to the database (row-versions.ts); the same read asked again in
 * the same turn of the event loop shares the query of the first ask (`sameTurn`).
 */
import type { Kysely } from 'kysely';
import { renderedTableWrites } from './db';
import type { Database } from './schema';

/** Keys kept per read; least recently stored go first. Each is a short row (about 200 bytes). */
const MAX_KEPT = 4096;

export function memoizedKeyRead<Args extends string[], Row extends object>(
  db: Kysely<Database>,
  read: (...args: Args) => Promise<Row[]>,
): (...args: Args) => Promise<readonly Row[]> {
  const writes = renderedTableWrites(db);
  if (!writes) return db.isTransaction ? read : sameTurn(read);
  const kept = new Map<string, readonly Row[]>();
  let keptAt = { generation: -1, version: undefined as number | undefined };
  return async (...args) => {
    const generation = writes.generation;
    const version = writes.externalVersion();
    if (version === undefined) return read(...args);
    if (generation !== keptAt.generation || version !== keptAt.version) {
      kept.clear();
      keptAt = { generation, version };
    }
    const stamp = keptAt;
    const key = args.join('\u0000');
    const hit = kept.get(key);
    if (hit) return hit;
    const rows = await read(...args);
    // A write in between (ours, counted when compiled and after it ran) may have changed the row;
    // a newer stamp kept meanwhile means another process committed since this read was asked.
    if (writes.generation === generation && keptAt === stamp) {
      if (kept.size >= MAX_KEPT) kept.delete(kept.keys().next().value!);
      // Shared by every later caller: frozen, so none can change what another gets.
      kept.set(key, Object.freeze(rows.map((row) => Object.freeze(row))));
    }
    return rows;
  };
}

/**
 * Identical reads asked in one turn of the event loop share the first one's query: requests
 * handled in one turn see what that query saw, as if they had come with the first (the same rule
 * as SQLite's data_version, read once a turn in db.ts). Under load many requests for one row are
 * handled in one turn: a batch of rate-limit takes (rate-limit.ts) lets them through together.
 */
export function sameTurn<Args extends string[], Row extends object>(
  read: (...args: Args) => Promise<Row[]>,
): (...args: Args) => Promise<readonly Row[]> {
  const shared = sameTurnShared<readonly Row[]>();
  return (...args) =>
    shared(args.join('\u0000'), async () =>
      // Shared by every caller of this turn: frozen, so none can change what another gets.
      Object.freeze((await read(...args)).map((row) => Object.freeze(row))),
    );
}

/** sameTurn for any read: `read` runs once per `key` and turn; its answer must not be changed. */
export function sameTurnShared<T>(): (key: string, read: () => Promise<T>) => Promise<T> {
  let asked: Map<string, Promise<T>> | undefined;
  return (key, read) => {
    if (!asked) {
      asked = new Map();
      setImmediate(() => (asked = undefined));
    }
    let answer = asked.get(key);
    if (!answer) {
      answer = read();
      asked.set(key, answer);
    }
    return answer;
  };
}
