/**
 * `--database` and its settings (flags or QUAYSIDE_DB_* variables): what an operator types is
 * what the store gets, and a malformed value stops the command with one line naming the option.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { databaseOption } from '../../src/cli/database-option';
import { runCli, serveCli } from '../support/cli';
import { postgresAvailable, startPostgres } from '../support/postgres';

const URL = 'postgres://quayside:secret@127.0.0.1:1/quayside';

describe('--database settings', () => {
  it('are off without a database URL, and take the defaults with one', () => {
    expect(databaseOption({}, {})).toBeUndefined();
    expect(databaseOption({ database: URL }, {})).toEqual({
      url: URL,
      poolSize: 10,
      statementTimeoutMs: 15_000,
      readStalenessMs: 1_000,
    });
  });

  it('read the flags before the environment', () => {
    const env = {
      QUAYSIDE_DATABASE_URL: URL,
      QUAYSIDE_DB_POOL_SIZE: '4',
      QUAYSIDE_DB_READ_STALENESS_MS: '250',
    };
    expect(databaseOption({}, env)).toMatchObject({ poolSize: 4, readStalenessMs: 250 });
    expect(databaseOption({ 'db-read-staleness-ms': '0' }, env)).toMatchObject({
      readStalenessMs: 0,
    });
  });

  it.each(['-1', '1.5', '10001', '1e3', 'soon'])(
    'refuse a read staleness of %s, naming the range',
    (raw) => {
      expect(() => databaseOption({ database: URL, 'db-read-staleness-ms': raw }, {})).toThrow(
        `Invalid --db-read-staleness-ms ${raw}: expected a whole number of milliseconds from 0 to 10000`,
      );
    },
  );

  it('stop `serve` before it connects, with that line', async () => {
    const { code, stderr } = await runCli(
      ['serve', '--database', URL, '--db-read-staleness-ms', '60000'],
      { QUAYSIDE_DATABASE_URL: '' },
    );
    expect(code).not.toBe(0);
    expect(stderr).toContain('Invalid --db-read-staleness-ms 60000');
    expect(stderr).not.toContain('secret');
  });

  it.skipIf(postgresAvailable() !== null)(
    "say at start how reads learn of other instances' changes",
    async () => {
      const cluster = await startPostgres();
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quayside-db-option-'));
      try {
        const url = await cluster.createDatabase('staleness');
        for (const [flags, line] of [
          [
            [],
            /Reads: other instances' changes show once PostgreSQL announces them; the version is read again at least every 1000 ms/,
          ],
          [['--db-read-staleness-ms', '0'], /Reads: each request reads the database's version/],
        ] as const) {
          const served = await serveCli(['--data-dir', dataDir, '--database', url, ...flags], {
            QUAYSIDE_DATABASE_URL: '',
          });
          try {
            await served.waitFor(line);
          } finally {
            await served.stop();
          }
        }
      } finally {
        await cluster.stop();
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    },
  );
});
