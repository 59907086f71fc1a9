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

/** One reading of StoreVersion: `seq` orders the statements that read it. */
export interface StoreVersionReading {
  version: string;
  seq: number;
}

/** What held when a version statement began (StoreVersion.recentEnough). */
interface Began {
  at: number;
  writes: number;
  epoch: number | null;
}

/**
 * The version of the rendered tables as a whole on PostgreSQL: the sum of the counter each
 * statement that changes them adds to (migration 0021), which moves with every such commit of
 * any instance and never goes back. Two readings alike mean no such commit came in between, so
 * what was read under the first is still what the database holds at the second (key-memo.ts).
 *
 * `afterNow` answers a reading by a statement that began after the call: a request is then
 * served what it would have read itself. One statement at a time; calls while it runs share the
 * next one, so under load an instance reads the version once per round trip, not per request.
 * A request asks for the reading of a statement begun after it arrived (`mark` when it arrives,
 * `atLeast(mark)` for each of its reads): its later reads then reuse the reading its first one
 * waited for, and read under the same version.
 *
 * With no more than that, an instance with few requests at a time pays a round trip for each
 * (each waits for a statement of its own): with three instances on the bench's two cores, over a
 * third of each one's CPU time per cached list response. So a reading also answers later asks,
 * for up to `stalenessMs` after its statement began, while three things hold:
 *
 * - No change has been announced since that statement began, and this instance has been
 *   listening all along (`announcements`, change-announcements.ts). Every instance announces
 *   each of its commits before the code that asked for it hears back (dialect.ts).
 * - This instance has sent no write since then (`sentWrites`): what a client changed through an
 *   instance it reads back from it at once, without waiting for the announcement.
 * - The reading is younger than `stalenessMs`, a bound for a listening connection that died
 *   without a word (default DEFAULT_READ_STALENESS_MS).
 *
 * What that trades: a request that reaches an instance after another instance's commit but
 * before its announcement (normally well under a millisecond after the commit) is answered as
 * before that commit; so is one after a commit no instance made (psql) until `stalenessMs`.
 * `stalenessMs` 0 (`--db-read-staleness-ms 0`) closes that gap at the price above: every request
 * then sees every commit that finished before it arrived.
 */
export class StoreVersion {
  private running: { seq: number; reading: Promise<StoreVersionReading> } | null = null;
  private queued: Promise<StoreVersionReading> | null = null;
  private latest: StoreVersionReading | null = null;
  /** When the latest reading's statement began, and this instance's sent writes and epoch then. */
  private latestBegan: Began = { at: -Infinity, writes: -1, epoch: null };
  private statements = 0;
  private readonly stalenessMs: number;
  private readonly sentWrites: () => number;
  private readonly announcements: () => number | null;
  private readonly now: () => number;

  constructor(
    private readonly read: () => Promise<string>,
    options: {
      /** How old a reading may be and still answer (ms; 0: only statements begun after). */
      stalenessMs?: number;
      /** This instance's count of sent writes (SentWrites in dialect.ts). */
      sentWrites?: () => number;
      /** The announcements' epoch (ChangeAnnouncements.epoch); without one, none is heard. */
      announcements?: () => number | null;
      /** A monotonic clock in ms. */
      now?: () => number;
    } = {},
  ) {
    this.stalenessMs = options.stalenessMs ?? 0;
    this.sentWrites = options.sentWrites ?? (() => 0);
    this.announcements = options.announcements ?? (() => null);
    this.now = options.now ?? (() => performance.now());
  }

  /** How many version statements this instance has begun. */
  get statementsBegun(): number {
    return this.statements;
  }

  /** The number of the first statement that begins after now (see atLeast). */
  mark(): number {
    return this.statements + 1;
  }

  afterNow(): Promise<StoreVersionReading> {
    return this.atLeast(this.mark());
  }

  /** The latest reading by statement `min` or a later one, waiting for one if none is known. */
  atLeast(min: number): Promise<StoreVersionReading> {
    if (this.latest && (this.latest.seq >= min || this.recentEnough()))
      return Promise.resolve(this.latest);
    if (this.running && this.running.seq >= min) return this.running.reading;
    if (this.queued) return this.queued;
    if (!this.running) return this.start();
    // The statement under way began before `min` was marked: the next one answers it.
    this.queued = this.running.reading
      .catch(() => undefined)
      .then(() => {
        this.queued = null;
        return this.start();
      });
    return this.queued;
  }

  /** True when the latest reading may answer any ask (see the class comment). */
  private recentEnough(): boolean {
    const began = this.latestBegan;
    return (
      this.stalenessMs > 0 &&
      this.now() - began.at <= this.stalenessMs &&
      this.sentWrites() === began.writes &&
      began.epoch !== null &&
      this.announcements() === began.epoch
    );
  }

  private start(): Promise<StoreVersionReading> {
    const seq = ++this.statements;
    const began: Began = {
      at: this.now(),
      writes: this.sentWrites(),
      epoch: this.announcements(),
    };
    const reading = this.read()
      .then((version) => {
        const answer = { version, seq };
        if (!this.latest || this.latest.seq < seq) {
          this.latest = answer;
          this.latestBegan = began;
        }
        return answer;
      })
      .finally(() => {
        if (this.running?.seq === seq) this.running = null;
      });
    this.running = { seq, reading };
    return reading;
  }
}

/** The rendered tables' version as the database holds it now (StoreVersion). */
export async function readStoreVersion(db: Kysely<Database>): Promise<string> {
  const { rows } = await sql<{
    version: string;
  }>`SELECT sum(n)::text AS version FROM rendered_versions`.execute(db);
  return rows[0]!.version;
}

/**
 * Moves the counts of connections that have ended into row 0, in one statement, so the counter
 * does not keep a row per connection ever opened. The sum, all that is read, stays the same: a
 * reader sees the rows before or after the move, never between.
 */
export async function foldRenderedVersions(db: Kysely<Database>): Promise<void> {
  await sql`WITH ended AS (
      DELETE FROM rendered_versions
      WHERE backend <> 0 AND backend NOT IN (SELECT pid FROM pg_stat_activity)
      RETURNING n
    )
    UPDATE rendered_versions SET n = n + (SELECT coalesce(sum(n), 0) FROM ended)
    WHERE backend = 0`.execute(db);
}
