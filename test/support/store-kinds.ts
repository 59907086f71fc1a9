/**
 * Which store the service tests run on. The store-broad test files run twice, as Vitest
 * projects (vitest.config.ts): `sqlite` (every file, the data folder's file) and `postgres`
 * (QUAYSIDE_TEST_STORE=postgres, a fresh database per test service in the run's cluster). One
 * suite, parameterised by its environment: the files themselves do not change.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import type { PostgresOptions, StoreKind } from '../../src/service/store/dialect';
import { postgresAvailable } from './postgres';

/** The store this test run targets. */
export function testStoreKind(): StoreKind {
  return process.env.QUAYSIDE_TEST_STORE === 'postgres' ? 'postgres' : 'sqlite';
}

/** The stores this machine can run: sqlite always, postgres where its binaries exist. */
export function storeKinds(): StoreKind[] {
  return postgresAvailable() ? ['sqlite'] : ['sqlite', 'postgres'];
}

/** Creates an empty database in the cluster at `clusterUrl` and returns its URL. */
export async function createDatabaseIn(clusterUrl: string): Promise<string> {
  const name = `q_${process.pid}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: clusterUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(clusterUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * The `database` option of a test service: undefined on SQLite; on PostgreSQL a fresh database
 * of the run's cluster, so tests never see each other's rows, with `options` over the defaults.
 */
export async function testDatabase(
  options: Partial<Omit<PostgresOptions, 'url'>> = {},
): Promise<PostgresOptions | undefined> {
  if (testStoreKind() !== 'postgres') return undefined;
  return { url: await createDatabaseIn(inject('postgresUrl')), poolSize: 5, ...options };
}
