/**
 * The cache's one SQLite connection, shared by every owner (records, events, alerts, …): the file
 * opened with its pragmas, the prepared statements, and the background checkpoints that keep the
 * write-ahead log short. Each owner extends CacheOwner and reaches the database only through it.
 */
import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { sqliteOptions } from '../../native/sqlite-binding';
import { BackgroundCheckpointer } from './checkpointer';
import { PRIVATE_FOLDER_MODE, privateSqliteFile } from '../private-data';
import { preparedStatements } from './prepared';

const DEFAULT_AUTOCHECKPOINT_PAGES = 1000;
/** The writer's own checkpoint threshold while the worker checkpoints: 80 MB of log. */
const BACKSTOP_AUTOCHECKPOINT_PAGES = 20_000;
/** Write transactions between two background checkpoints (a few MB of log each). */
const WRITES_PER_CHECKPOINT = 16;

/** SQLite's name for a database in memory only (a source with nothing to show yet). */
export const IN_MEMORY = ':memory:';

/** Opens (creating its folder when needed) the cache file with the pragmas it runs under. */
export function openCacheDatabase(file: string): Database.Database {
  if (file !== IN_MEMORY) {
    mkdirSync(dirname(file), { recursive: true, mode: PRIVATE_FOLDER_MODE });
    privateSqliteFile(file);
  }
  const db = new Database(file, sqliteOptions());
  db.pragma('journal_mode = WAL');
  // NORMAL under WAL is still crash-safe for the database; a power cut may drop the last
  // transactions, which the next sync fetches again.
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  // Room for the indexes a full sync keeps touching (the default is 2 MB), and sort/temp
  // b-trees in memory; neither changes what reaches the disk or when.
  db.pragma('cache_size = -32768');
  db.pragma('temp_store = MEMORY');
  return db;
}

export class CacheConnection {
  /** The connection's statement of each SQL text, prepared on first use. */
  readonly stmt: (sql: string) => Database.Statement;
  private checkpointer: BackgroundCheckpointer | null = null;
  private writesSinceCheckpoint = 0;

  constructor(readonly db: Database.Database) {
    this.stmt = preparedStatements(db);
  }

  close(): void {
    this.checkpointer?.stop();
    this.checkpointer = null;
    this.db.close();
  }

  /**
   * WAL checkpoints run on a worker thread (see checkpointer.ts), so that no commit on this
   * thread stalls on one: after every few writes and at the end of a sync. SQLite's own
   * threshold stays only as a backstop, in case the worker falls behind or fails.
   */
  startCheckpointer(): void {
    if (this.db.memory) return;
    this.checkpointer = new BackgroundCheckpointer(this.db.name, () => {
      this.checkpointer = null;
      if (this.db.open) this.db.pragma(`wal_autocheckpoint = ${DEFAULT_AUTOCHECKPOINT_PAGES}`);
    });
    this.db.pragma(`wal_autocheckpoint = ${BACKSTOP_AUTOCHECKPOINT_PAGES}`);
  }

  requestCheckpoint(): void {
    this.writesSinceCheckpoint = 0;
    this.checkpointer?.request();
  }

  /** One write transaction committed: a checkpoint is asked for after every few. */
  wrote(): void {
    if (++this.writesSinceCheckpoint >= WRITES_PER_CHECKPOINT) this.requestCheckpoint();
  }
}

/** One kind of cached data over the shared connection. */
export abstract class CacheOwner {
  constructor(protected readonly connection: CacheConnection) {}

  protected get db(): Database.Database {
    return this.connection.db;
  }

  protected stmt(sql: string): Database.Statement {
    return this.connection.stmt(sql);
  }

  protected wrote(): void {
    this.connection.wrote();
  }
}
