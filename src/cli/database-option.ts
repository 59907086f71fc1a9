/**
 * `--database postgres://…` (or QUAYSIDE_DATABASE_URL) with its pool settings: where the service
 * keeps its rows when not in the data folder's SQLite file.
 */
import {
  DEFAULT_POOL_SIZE,
  DEFAULT_READ_STALENESS_MS,
  DEFAULT_STATEMENT_TIMEOUT_MS,
  isPostgresUrl,
  MAX_READ_STALENESS_MS,
  type PostgresOptions,
} from '../service/store/dialect';

export const DATABASE_OPTIONS = {
  database: { type: 'string' },
  'db-pool-size': { type: 'string' },
  'db-statement-timeout-ms': { type: 'string' },
  'db-read-staleness-ms': { type: 'string' },
} as const;

function positiveInteger(raw: string | undefined, name: string, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0 || value > 1_000_000_000)
    throw new Error(`Invalid ${name} ${raw}: expected a positive whole number`);
  return value;
}

function staleness(raw: string | undefined): number {
  if (raw === undefined || raw === '') return DEFAULT_READ_STALENESS_MS;
  const value = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || value > MAX_READ_STALENESS_MS)
    throw new Error(
      `Invalid --db-read-staleness-ms ${raw}: expected a whole number of milliseconds from 0 to ${MAX_READ_STALENESS_MS}`,
    );
  return value;
}

/** The PostgreSQL settings of the command line and environment, or undefined for SQLite. */
export function databaseOption(
  values: {
    database?: string;
    'db-pool-size'?: string;
    'db-statement-timeout-ms'?: string;
    'db-read-staleness-ms'?: string;
  },
  env: NodeJS.ProcessEnv = process.env,
): PostgresOptions | undefined {
  const url = values.database ?? env.QUAYSIDE_DATABASE_URL;
  if (url === undefined || url === '') return undefined;
  if (!isPostgresUrl(url))
    throw new Error(
      'Invalid --database: expected postgres://user:password@host:port/database (leave it out for the SQLite file in the data folder)',
    );
  return {
    url,
    poolSize: positiveInteger(
      values['db-pool-size'] ?? env.QUAYSIDE_DB_POOL_SIZE,
      '--db-pool-size',
      DEFAULT_POOL_SIZE,
    ),
    statementTimeoutMs: positiveInteger(
      values['db-statement-timeout-ms'] ?? env.QUAYSIDE_DB_STATEMENT_TIMEOUT_MS,
      '--db-statement-timeout-ms',
      DEFAULT_STATEMENT_TIMEOUT_MS,
    ),
    readStalenessMs: staleness(values['db-read-staleness-ms'] ?? env.QUAYSIDE_DB_READ_STALENESS_MS),
  };
}
