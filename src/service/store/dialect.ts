/**
 * The two stores the service runs on, and everything that differs between them: SQLite (one
 * file in the data folder, the embedded default) and PostgreSQL (`--database postgres://…`,
 * several instances sharing one database). Query code above this module is written once; the
 * few places where the engines differ ask `storeKindOf(db)` here.
 */
import { PostgresAdapter, type Kysely, type Transaction } from 'kysely';
import pg from 'pg';
import { CHANGES_CHANNEL } from './change-announcements';

export type StoreKind = 'sqlite' | 'postgres';

export interface PostgresOptions {
  url: string;
  /** Connections per instance (default 10). */
  poolSize?: number;
  /** A statement running longer is cancelled (default 15 s). */
  statementTimeoutMs?: number;
  /** How long to wait for a free or new connection (default 5 s). */
  connectTimeoutMs?: number;
  /**
   * The longest a request may rely on a reading of the rendered tables' version while PostgreSQL
   * announces no change (default 1 s; 0: each request sees every commit that finished before it
   * arrived, at a statement's round trip each). See StoreVersion.
   */
  readStalenessMs?: number;
}

export const DEFAULT_POOL_SIZE = 10;
export const DEFAULT_STATEMENT_TIMEOUT_MS = 15_000;
export const DEFAULT_CONNECT_TIMEOUT_MS = 5_000;
export const DEFAULT_READ_STALENESS_MS = 1_000;
/** The longest read staleness an operator may allow: beyond it copies would go stale visibly. */
export const MAX_READ_STALENESS_MS = 10_000;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any schema: the question is the engine
type AnyDb = Kysely<any> | Transaction<any>;

/** Which engine a Kysely instance (or transaction) talks to. */
export function storeKindOf(db: AnyDb): StoreKind {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}

/** True for a postgres:// or postgresql:// URL. */
export function isPostgresUrl(value: string): boolean {
  return /^postgres(ql)?:\/\//i.test(value);
}

/** The URL without its password, for messages and logs. */
export function redactedUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'postgres://(unparsable URL)';
  }
}

/**
 * Rows come back with the types the code expects on both engines: counts (int8) and numerics as
 * numbers, like SQLite's; `timestamptz` columns (PostgreSQL's records' creation and change times,
 * migration 0013) as the same ISO-8601 UTC text SQLite stores, millisecond precision; `boolean`
 * columns (migration 0014) as SQLite's 0/1.
 */
const BOOL_OID = 16;
const INT8_OID = 20;
const NUMERIC_OID = 1700;
const TIMESTAMPTZ_OID = 1184;

/** `2026-01-10 12:00:00.123+00` (the session runs in UTC) as `2026-01-10T12:00:00.123Z`. */
export function isoFromTimestamptz(value: string): string {
  const match = /^(\d{4,}-\d\d-\d\d) (\d\d:\d\d:\d\d)(\.\d+)?\+00$/.exec(value);
  if (!match) return new Date(value).toISOString();
  const fraction = (match[3] ?? '.').slice(1).padEnd(3, '0').slice(0, 3);
  return `${match[1]}T${match[2]}.${fraction}Z`;
}

const pgTypes = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === INT8_OID || oid === NUMERIC_OID) return (value: string) => Number(value);
    if (oid === TIMESTAMPTZ_OID) return isoFromTimestamptz;
    if (oid === BOOL_OID) return (value: string) => (value === 't' ? 1 : 0);
    return pg.types.getTypeParser(oid, format);
  },
} as pg.CustomTypesConfig;

/**
 * Statements this instance sent that may change data: every one but a SELECT (a transaction's
 * COMMIT among them), counted when sent and again when answered. Two counts alike mean this
 * instance changed nothing in between (the rate limit's SELECT of a function writes only its
 * own budgets, never rendered rows).
 */
export class SentWrites {
  count = 0;
}

const READ_ONLY = /^\s*select\b/i;

/** Where a statement begins or ends a transaction (savepoints do neither). */
function transactionBoundary(text: string): 'begin' | 'commit' | 'rollback' | null {
  if (/^\s*(begin|start\s+transaction)\b/i.test(text)) return 'begin';
  if (/^\s*(commit|end)\b/i.test(text)) return 'commit';
  if (/^\s*(rollback|abort)\b(?!\s+to\b)/i.test(text)) return 'rollback';
  return null;
}

/**
 * Tells every listening instance (ChangeAnnouncements) that this one has committed a change. Its
 * own transaction, so the NOTIFY never holds PostgreSQL's cluster-wide notification lock across
 * a data transaction's commit, and that lock is held only briefly: the NOTIFY's commit does not
 * wait for its WAL to reach the disk (an announcement is no record; after a crash every listener
 * has lost its connection and reads the version again anyway).
 */
const ANNOUNCE = `SELECT set_config('synchronous_commit', 'off', true), pg_notify('${CHANGES_CHANNEL}', '')`;

/**
 * One announcement under way per pool: commits answered meanwhile share the next, so many
 * writers at once send about one per round trip. Each caller gets one sent after it asked. The
 * next is sent on the connection of the first to ask for it (a connection of its own might
 * wait for a free one behind the very commits it is to announce).
 */
function sharedAnnouncements(): (send: () => Promise<unknown>) => Promise<void> {
  let running: Promise<void> | null = null;
  let queued: Promise<void> | null = null;
  const start = (send: () => Promise<unknown>) => {
    const run: Promise<void> = send()
      .then(
        () => undefined,
        () => undefined,
      )
      .finally(() => {
        if (running === run) running = null;
      });
    running = run;
    return run;
  };
  return (send) => {
    if (!running) return start(send);
    queued ??= running.then(() => {
      queued = null;
      return start(send);
    });
    return queued;
  };
}

/**
 * A connection pool with the service's limits. Errors of its connections (a server shutting down
 * sends 57P01, a crashed one just closes the socket) are reported, never thrown: the next use of
 * that connection fails with an "unavailable" error and the pool opens a new one.
 */
export function createPostgresPool(
  options: PostgresOptions,
  onConnectionError: (error: Error) => void,
  sentWrites = new SentWrites(),
): pg.Pool {
  const statementTimeout = options.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS;
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.poolSize ?? DEFAULT_POOL_SIZE,
    connectionTimeoutMillis: options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
    idleTimeoutMillis: 30_000,
    statement_timeout: statementTimeout,
    // Waiting on a row lock counts against the same budget as running.
    lock_timeout: statementTimeout,
    application_name: 'quayside',
    // Times are written and read as UTC text whatever the server's zone.
    options: '-c TimeZone=UTC',
    types: pgTypes,
  });
  // A connection's error is emitted on its client, where pg-pool listens only while the client
  // is idle (and then emits it again on the pool); a checked-out one (a transaction between
  // statements) has no other listener. Unhandled, either would end the process. Each client is
  // reported once, from its own listener; the pool's copy is the same error.
  const naming = statementNames();
  const announced = sharedAnnouncements();
  pool.on('connect', (client) => {
    client.on('error', onConnectionError);
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    // Kysely passes (text, values); anything else (a cursor, a config object) goes as it came.
    const answered = () => void sentWrites.count++;
    const announce = () => announced(() => query(ANNOUNCE) as Promise<unknown>);
    let inTransaction = false;
    client.query = ((...args: unknown[]) => {
      const [text, values] = args;
      const name = typeof text === 'string' && args.length === 2 ? naming(text) : undefined;
      const writing = typeof text === 'string' && !READ_ONLY.test(text);
      if (writing) sentWrites.count++;
      const boundary = typeof text === 'string' ? transactionBoundary(text) : null;
      const commits = writing && (boundary === 'commit' || (boundary === null && !inTransaction));
      if (boundary) inTransaction = boundary === 'begin';
      const result = name ? query({ name, text, values }) : query(...args);
      // Kysely sends every statement as (text, values) and gets a promise. Any other call (a
      // callback or a submittable, none in the service) is counted only when sent, and is not
      // announced.
      if (!writing || !(result instanceof Promise)) return result;
      result.then(answered, answered);
      if (!commits) return result;
      // A commit is announced before its caller hears of it, so no client can know of a change
      // that other instances have not been told of. A failed one may still have committed (the
      // connection lost before the answer): announced too.
      return result.then(
        async (answer) => {
          await announce();
          return answer;
        },
        async (error) => {
          await announce();
          throw error;
        },
      );
    }) as typeof client.query;
  });
  pool.on('error', () => undefined);
  return pool;
}

/** Uses of one statement text before it is prepared by name on each connection. */
const USES_BEFORE_NAMING = 16;
/** Named statements per pool: each connection keeps a plan for each (server memory). */
const MAX_NAMED = 128;
/** Statement texts counted at a time (the count starts over when full). */
const MAX_COUNTED = 4096;

/**
 * The names of statements worth preparing once per connection: PostgreSQL parses and plans an
 * unnamed statement on every run, which for the service's small indexed reads costs about as
 * much as running them. A text run often gets a name (the first MAX_NAMED such); it is then
 * parsed and planned once per connection. Texts reading `*` are never named: a column added by
 * a newer instance's migration would change the prepared result and fail it.
 */
function statementNames(): (text: string) => string | undefined {
  const named = new Map<string, string>();
  const uses = new Map<string, number>();
  return (text) => {
    const name = named.get(text);
    if (name || named.size >= MAX_NAMED) return name;
    const count = (uses.get(text) ?? 0) + 1;
    if (count < USES_BEFORE_NAMING) {
      if (uses.size >= MAX_COUNTED) uses.clear();
      uses.set(text, count);
      return undefined;
    }
    if (/(^|[\s,(])("?\w+"?\.)?\*(\s|,|$)/.test(text.replace(/count\(\*\)/gi, ''))) {
      uses.set(text, -Infinity); // never named
      return undefined;
    }
    uses.delete(text);
    const fresh = `quayside_${named.size + 1}`;
    named.set(text, fresh);
    return fresh;
  };
}

const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EPIPE',
  'EAI_AGAIN',
  // PostgreSQL: admin/crash shutdown, cannot connect now, too many connections, query cancelled
  // by statement_timeout, lock timeout.
  '57P01',
  '57P02',
  '57P03',
  '53300',
  '57014',
  '55P03',
]);

/**
 * True when `error` says the database cannot be reached or answered too slowly (as opposed to a
 * bad query): callers answer 503 and retry later instead of reporting a fault.
 */
export function isStoreUnavailable(error: unknown): boolean {
  for (let e = error, depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && (CONNECTION_CODES.has(code) || code.startsWith('08')))
      return true;
    if (
      typeof message === 'string' &&
      /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Cannot use a pool after calling end/i.test(
        message,
      )
    )
      return true;
    // SQLite's busy timeout: another process held the write lock too long.
    if (code === 'SQLITE_BUSY') return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * True when PostgreSQL undid a transaction because it conflicted with another one (a deadlock or
 * a serialization failure): running the same work again is the documented remedy.
 */
export function isTransactionConflict(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '40P01' || code === '40001';
}

/** Attempts of a transaction undone by a conflict with another one before giving up. */
export const CONFLICT_ATTEMPTS = 3;

/**
 * Runs `transaction` again when PostgreSQL undid it for a conflict with another one, up to
 * CONFLICT_ATTEMPTS times in all: so it must do storage work only.
 */
export async function retryOnConflict<T>(transaction: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await transaction();
    } catch (err) {
      if (attempt >= CONFLICT_ATTEMPTS || !isTransactionConflict(err)) throw err;
    }
  }
}
