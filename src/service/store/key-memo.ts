/**
 * Key reads (a row's id and updated_at, what a request checks its rendered copy against; a list
 * page's keys) kept while nothing can have changed them. A detail request then costs no query at
 * all; the read through Kysely was the largest part of its time.
 *
 * - SQLite: no write to the rendered tables in this process (db.ts counts them) and no commit by
 *   another process (the file's data_version), both read without a query.
 * - PostgreSQL: other instances write without telling, so each ask reads the rendered tables'
 *   version (row-versions.ts, StoreVersion) in a statement begun after it, or after its request
 *   arrived when it passes the request's ReadMark; one such statement serves every ask made while
 *   the one before ran. A kept read is used while the version is the one it was read under;
 *   otherwise the read goes to the database, and the same read asked again in the same turn of
 *   the event loop shares the query of the first ask (`sameTurnShared`).
 *
 * Inside a transaction every read goes to the database.
 */
import type { Kysely, Transaction } from 'kysely';
import { renderedTableWrites, storeVersionOf } from './db';
import type { StoreVersion } from './row-versions';
import type { Database } from './schema';

/** Keys kept per read; least recently stored go first. Each is a short row (about 200 bytes). */
const MAX_KEPT = 4096;

/** Every answer kept by a sharedReads (see isKeptRead). */
const keptAnswers = new WeakSet<object>();

/** Keeps `answer` under `key` in `kept`, oldest first out beyond `maxKept`. */
function keep<T>(kept: Map<string, T>, key: string, answer: T, maxKept: number): void {
  if (kept.size >= maxKept) kept.delete(kept.keys().next().value!);
  kept.set(key, answer);
  if (typeof answer !== 'object' || answer === null) return;
  keptAnswers.add(answer);
  // A row of a kept read of rows is as lasting as the read: answered while it is, not after.
  if (Array.isArray(answer))
    for (const row of answer as unknown[])
      if (typeof row === 'object' && row !== null) keptAnswers.add(row);
}

/**
 * True when `answer` is one a sharedReads keeps, or a row of one: the same read answers this
 * very object for as long as nothing can have changed it, and a new one after any change to the
 * rendered tables. What is made from such an answer alone may be kept against it
 * (resources/document-memo.ts).
 */
export const isKeptRead = (answer: object): boolean => keptAnswers.has(answer);

/**
 * Where a request's reads may start from on PostgreSQL: StoreVersion.mark() taken when the request
 * arrived (AccountReads.mark), so all its reads share one version reading. Undefined: each read
 * asks for a reading begun after it.
 */
export type ReadMark = number | undefined;

/** Runs `read` for `key`, or answers what an earlier run for `key` answered while still true. */
export type SharedRead<T> = (key: string, read: () => Promise<T>, since?: ReadMark) => Promise<T>;

/**
 * Reads by key, shared as far as the store allows (see above). What `read` answers is shared
 * by later callers: `freeze` makes it unchangeable. Only for reads of the rendered tables
 * (containers, shipments and their events): writes elsewhere do not end what is kept.
 */
export function sharedReads<T>(
  db: Kysely<Database> | Transaction<Database>,
  freeze: (answer: T) => T,
  maxKept = MAX_KEPT,
): SharedRead<T> {
  if (db.isTransaction) return (_key, read) => read();
  const versions = storeVersionOf(db as Kysely<Database>);
  if (versions) return versionedReads(versions, freeze, maxKept);
  const writes = renderedTableWrites(db as Kysely<Database>);
  if (!writes) {
    const shared = sameTurnShared<T>();
    return (key, read) => shared(key, async () => freeze(await read()));
  }
  const kept = new Map<string, T>();
  let keptAt = { generation: -1, version: undefined as number | undefined };
  return async (key, read) => {
    const generation = writes.generation;
    const version = writes.externalVersion();
    if (version === undefined) return read();
    if (generation !== keptAt.generation || version !== keptAt.version) {
      kept.clear();
      keptAt = { generation, version };
    }
    const stamp = keptAt;
    const hit = kept.get(key);
    if (hit) return hit;
    const answer = await read();
    // A write in between (ours, counted when compiled and after it ran) may have changed the row;
    // a newer stamp kept meanwhile means another process committed since this read was asked.
    if (writes.generation !== generation || keptAt !== stamp) return answer;
    // The first reader gets the kept answer too, so what it makes may be kept from the start.
    const frozen = freeze(answer);
    keep(kept, key, frozen, maxKept);
    return frozen;
  };
}

/** sharedReads on PostgreSQL: kept under the rendered tables' version (see the top). */
function versionedReads<T>(
  versions: StoreVersion,
  freeze: (answer: T) => T,
  maxKept: number,
): SharedRead<T> {
  const shared = sameTurnShared<T>();
  const kept = new Map<string, T>();
  let keptAt = { version: '', seq: 0 };
  return async (key, read, since) => {
    let reading;
    try {
      reading = await (since === undefined ? versions.afterNow() : versions.atLeast(since));
    } catch {
      return read(); // The database then answers the read itself, or says why not.
    }
    // A reading older than the one kept under (its statement ran earlier) only reads.
    if (reading.seq < keptAt.seq) return read();
    if (reading.version !== keptAt.version) kept.clear();
    keptAt = reading;
    const hit = kept.get(key);
    if (hit) return hit;
    // Shared only by asks under the same version: then the read began after either's reading.
    const answer = await shared(`${reading.version}\u0000${key}`, async () => freeze(await read()));
    // The read began after the version was read: it shows that version's data or newer. It is
    // kept only while that version is still the latest known, and used only while it stays so.
    if (keptAt.version === reading.version) keep(kept, key, answer, maxKept);
    return answer;
  };
}

/** Rows frozen, each and all: what sharedReads keeps of a read of rows. */
export const frozenRows = <Row extends object>(rows: readonly Row[]): readonly Row[] =>
  Object.freeze(rows.map((row) => Object.freeze(row)));

/** A read of rows by string arguments, shared by sharedReads. */
export function memoizedKeyRead<Args extends string[], Row extends object>(
  db: Kysely<Database> | Transaction<Database>,
  read: (...args: Args) => Promise<Row[]>,
): (args: Args, since?: ReadMark) => Promise<readonly Row[]> {
  const shared = sharedReads<readonly Row[]>(db, frozenRows);
  return (args, since) => shared(args.join('\u0000'), () => read(...args), since);
}

/**
 * Identical reads asked in one turn of the event loop share the first one's query: requests
 * handled in one turn see what that query saw, as if they had come with the first (the same rule
 * as SQLite's data_version, read once a turn in db.ts). Under load many requests for one row are
 * handled in one turn: a batch of rate-limit takes (rate-limit.ts) lets them through together.
 */
export function sameTurnShared<T>(): SharedRead<T> {
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
