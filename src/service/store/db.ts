import path from 'node:path';
import SQLite from 'better-sqlite3';
import { sqliteOptions } from '../../native/sqlite-binding';
import { Kysely, Migrator, PostgresDialect, SelectQueryNode, SqliteDialect } from 'kysely';
import type {
  KyselyPlugin,
  OperationNode,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryId,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from 'kysely';
import { ensurePrivateDir, restrictFiles, touchPrivateFile } from '../security/private-files';
import { SealedColumns } from './sealed-columns';
import type { SecretBox } from '../security/secret-box';
import { ChangeAnnouncements } from './change-announcements';
import { migrationProvider } from './migrations';
import { foldRenderedVersions, readStoreVersion, StoreVersion } from './row-versions';
import type { Database } from './schema';
import {
  createPostgresPool,
  DEFAULT_CONNECT_TIMEOUT_MS,
  DEFAULT_READ_STALENESS_MS,
  isStoreUnavailable,
  redactedUrl,
  SentWrites,
  type PostgresOptions,
  type StoreKind,
} from './dialect';

export const DATABASE_FILE = 'quayside.sqlite';

export interface OpenedDatabase {
  db: Kysely<Database>;
  kind: StoreKind;
  /** The SQLite file, or the PostgreSQL URL without its password. */
  file: string;
  close(): Promise<void>;
}

export interface OpenDatabaseOptions {
  secretBox?: SecretBox;
  /** Use this PostgreSQL database instead of the SQLite file in the data folder. */
  postgres?: PostgresOptions;
  /** Where errors of PostgreSQL connections go (default: stderr); they never end the process. */
  onConnectionError?: (error: Error) => void;
}

/** Opening failed because the database cannot be reached: one line says which and why. */
export class DatabaseUnreachableError extends Error {}

const STATEMENT_CACHE_SIZE = 256;

/**
 * Kysely prepares every query anew; preparing costs about as much as running a small indexed
 * query. Queries are built from a fixed set of shapes, so reusing the prepared statement per SQL
 * text removes that cost (better-sqlite3 statements are reusable and run synchronously).
 */
function withStatementCache(sqlite: SQLite.Database): SQLite.Database {
  const cache = new Map<string, SQLite.Statement>();
  return new Proxy(sqlite, {
    get(target, property, receiver) {
      if (property !== 'prepare') return Reflect.get(target, property, receiver);
      return (source: string) => {
        let statement = cache.get(source);
        if (statement) {
          // Refresh its place: least recently used statements are evicted first.
          cache.delete(source);
        } else {
          statement = target.prepare(source);
          if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value!);
        }
        cache.set(source, statement);
        return statement;
      };
    },
  });
}

/** Tables whose rows the API renders into container and shipment resources. */
const RENDERED_TABLES = new Set(['containers', 'shipments', 'transport_events', 'raw_events']);

/**
 * Nodes that never name a table a statement writes to: the rows of an insert (the bulk of a
 * large one's tree) and subqueries, which only read. Walking them cost more than the writes.
 */
const NOT_WRITTEN = new Set([
  'ValuesNode',
  'ValueNode',
  'PrimitiveValueListNode',
  'SelectQueryNode',
]);

/**
 * Table names a write's query node mentions outside its values and subqueries (see NOT_WRITTEN);
 * an empty set when it names none (raw SQL).
 */
function tablesOf(node: OperationNode, out = new Set<string>()): Set<string> {
  if (NOT_WRITTEN.has(node.kind)) return out;
  if (node.kind === 'TableNode') {
    out.add((node as unknown as { table: { identifier: { name: string } } }).table.identifier.name);
  }
  for (const value of Object.values(node)) {
    const children = Array.isArray(value) ? value : [value];
    for (const child of children) {
      if (child && typeof child === 'object' && typeof (child as OperationNode).kind === 'string')
        tablesOf(child as OperationNode, out);
    }
  }
  return out;
}

/**
 * Counts writes to the rendered tables made through this process's Kysely instance, so caches of
 * rendered resources can tell that what they hold may be stale. A write bumps the generation
 * both when it is compiled and after it ran; a reader that captures the generation before its
 * first query and finds it unchanged afterwards saw no write happen in between. Raw SQL and
 * schema changes count as writes to every table.
 */
export class RenderedTableWrites implements KyselyPlugin {
  generation = 0;
  /**
   * A number that moves when another connection (another process) commits to the database:
   * SQLite's data_version, read straight from the connection (a microsecond, where a query
   * through Kysely costs several). Undefined when it cannot be read.
   */
  externalVersion: () => number | undefined = () => undefined;
  private readonly pending = new WeakSet<QueryId>();

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    const node = args.node;
    if (!SelectQueryNode.is(node)) {
      const tables = tablesOf(node);
      if (tables.size === 0 || [...tables].some((t) => RENDERED_TABLES.has(t))) {
        this.generation++;
        this.pending.add(args.queryId);
      }
    }
    return node;
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    if (this.pending.has(args.queryId)) {
      this.pending.delete(args.queryId);
      this.generation++;
    }
    return args.result;
  }
}

/**
 * SQLite's data_version, read once per turn of the event loop: starting a read on the file costs
 * as much as a small indexed query, and every request of a turn would otherwise pay it again.
 * Requests handled in one turn see what other processes committed before the turn began, as if
 * a commit during the turn had come just after it.
 */
function dataVersionReader(sqlite: SQLite.Database): () => number | undefined {
  const dataVersion = sqlite.prepare('PRAGMA data_version').pluck();
  let thisTurn: number | undefined;
  return () => {
    if (thisTurn !== undefined) return thisTurn;
    try {
      thisTurn = dataVersion.get() as number;
    } catch {
      return undefined; // The connection is busy or closed: callers then read the rows.
    }
    setImmediate(() => (thisTurn = undefined));
    return thisTurn;
  };
}

const writeCounters = new WeakMap<object, RenderedTableWrites>();

/** The write counter of a database opened by openDatabase (undefined for any other instance). */
export function renderedTableWrites(db: Kysely<Database>): RenderedTableWrites | undefined {
  return writeCounters.get(db);
}

const storeVersions = new WeakMap<object, StoreVersion>();

/** The rendered tables' version of a PostgreSQL database opened by openDatabase (row-versions.ts). */
export function storeVersionOf(db: Kysely<Database>): StoreVersion | undefined {
  return storeVersions.get(db);
}

export async function migrate(db: Kysely<Database>): Promise<void> {
  // Kysely's migrator holds a lock while it runs (a row lock on SQLite, an advisory lock on
  // PostgreSQL, where each migration also runs in a transaction): instances starting together
  // apply each migration once.
  const migrator = new Migrator({ db, provider: migrationProvider });
  const { error } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
}

/**
 * Opens the service database and brings its schema up to date: the SQLite file in `dataDir`
 * (created if needed), or the PostgreSQL database of `options.postgres`.
 * WAL mode lets a second process (`quayside keys create`) write while the service runs.
 */
export async function openDatabase(
  dataDir: string,
  options: OpenDatabaseOptions = {},
): Promise<OpenedDatabase> {
  if (options.postgres) return openPostgres(options.postgres, options);
  ensurePrivateDir(dataDir);
  const file = path.join(dataDir, DATABASE_FILE);
  // Created owner-only before SQLite opens it; SQLite gives -wal/-shm the database's mode.
  touchPrivateFile(file);
  const sqlite = new SQLite(file, sqliteOptions());
  sqlite.pragma('journal_mode = WAL');
  restrictFiles(`${file}-wal`, `${file}-shm`);
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('synchronous = NORMAL');
  const writes = new RenderedTableWrites();
  writes.externalVersion = dataVersionReader(sqlite);
  const db = new Kysely<Database>({
    dialect: new SqliteDialect({ database: withStatementCache(sqlite) }),
    plugins: options.secretBox ? [writes, new SealedColumns(options.secretBox)] : [writes],
  });
  writeCounters.set(db, writes);
  try {
    await migrate(db);
  } catch (error) {
    await db.destroy();
    throw error;
  }
  return { db, kind: 'sqlite', file, close: () => db.destroy() };
}

/**
 * PostgreSQL: a pool per instance. There is no write counter: other instances write too, so
 * rendered-resource caches check each row's version, and kept reads the rendered tables'
 * version, both in the database (row-versions.ts).
 */
async function openPostgres(
  postgres: PostgresOptions,
  options: OpenDatabaseOptions,
): Promise<OpenedDatabase> {
  const shown = redactedUrl(postgres.url);
  const sentWrites = new SentWrites();
  const connectionLost =
    options.onConnectionError ??
    ((error: Error) => console.error(`PostgreSQL connection lost (${shown}): ${error.message}`));
  const pool = createPostgresPool(postgres, connectionLost, sentWrites);
  const db = new Kysely<Database>({
    dialect: new PostgresDialect({ pool }),
    plugins: options.secretBox ? [new SealedColumns(options.secretBox)] : [],
  });
  try {
    // One round trip first, so an unreachable server is told apart from a failed migration.
    const client = await pool.connect();
    client.release();
  } catch (error) {
    await db.destroy();
    const reason = (error as Error).message || (error as { code?: string }).code || 'no answer';
    throw new DatabaseUnreachableError(`Cannot reach the database at ${shown}: ${reason}`);
  }
  try {
    await migrate(db);
  } catch (error) {
    await db.destroy();
    if (isStoreUnavailable(error))
      throw new DatabaseUnreachableError(
        `Lost the database at ${shown} while migrating: ${(error as Error).message}`,
      );
    throw error;
  }
  // Housekeeping only: rows of ended connections are folded again at the next start.
  await foldRenderedVersions(db).catch(() => undefined);
  const stalenessMs = postgres.readStalenessMs ?? DEFAULT_READ_STALENESS_MS;
  // Strict reads (0) have no use for announcements: no connection is kept for them.
  const announcements =
    stalenessMs > 0
      ? new ChangeAnnouncements({
          url: postgres.url,
          connectTimeoutMs: postgres.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
          onConnectionError: (error) =>
            connectionLost(
              new Error(
                `listening for changes: ${error.message} (each request reads the version until it listens again)`,
              ),
            ),
        })
      : null;
  await announcements?.start();
  storeVersions.set(
    db,
    new StoreVersion(() => readStoreVersion(db), {
      stalenessMs,
      sentWrites: () => sentWrites.count,
      announcements: () => announcements?.epoch() ?? null,
    }),
  );
  return {
    db,
    kind: 'postgres',
    file: shown,
    close: async () => {
      await announcements?.close();
      await db.destroy();
    },
  };
}
