/**
 * A second connection to a test service's database, for tests that look below the store owners
 * on purpose: the store's own plumbing (schema types, triggers, compiled reads) and checks that
 * read the stored rows independently of the code under test. Everything else goes through the
 * service's store owners (`service.store.stores`).
 */
import { openDatabase, type OpenedDatabase } from '../../src/service/store/db';

/** Raw SQL for those tests, from the one module outside the store that may use the builder. */
export { sql } from 'kysely';
import type { PostgresOptions } from '../../src/service/store/dialect';

export interface ServiceDatabaseAt {
  /** The service's data folder (its SQLite file). */
  dataDir: string;
  /** The service's PostgreSQL database, when it runs on one. */
  database?: PostgresOptions;
}

/** Opens the database the service at `at` uses (schema already current); close it after use. */
export function openServiceDatabase(at: ServiceDatabaseAt): Promise<OpenedDatabase> {
  return openDatabase(at.dataDir, {
    postgres: at.database ? { ...at.database, poolSize: 2 } : undefined,
  });
}

/** Runs `fn` with a second connection to the service's database and closes it afterwards. */
export async function withServiceDatabase<T>(
  at: ServiceDatabaseAt,
  fn: (db: OpenedDatabase['db']) => Promise<T>,
): Promise<T> {
  const opened = await openServiceDatabase(at);
  try {
    return await fn(opened.db);
  } finally {
    await opened.close();
  }
}
