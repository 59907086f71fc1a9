/**
 * What only the PostgreSQL store has to prove: instances starting together migrate once, the
 * shared request budgets count exactly across connections, an unreachable database fails the
 * start with one line, and a database lost while running answers
 * 503 JSON:API errors and serves again once it is back. Runs in the `postgres` test project.
 */
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { SHIPPED_REFERENCE_DIR, startService } from '../../../src/service';
import { DatabaseUnreachableError, openDatabase } from '../../../src/service/store/db';
import { isoFromTimestamptz } from '../../../src/service/store/dialect';
import { loadReferenceData, readReferenceDir } from '../../../src/service/store/reference';
import { VesselStore } from '../../../src/service/store/vessels';
import { RateLimitWindows } from '../../../src/service/store/rate-limit-windows';
import { sql, withServiceDatabase } from '../../support/service-database';
import { createDatabaseIn, testStoreKind } from '../../support/store-kinds';
import { FIXTURE_REFERENCE_DIR } from '../../support/service';

const dirs: string[] = [];
const tempDataDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quayside-pg-store-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

/** A TCP relay to the database that a test can cut and restore on the same port. */
async function startRelay(target: number) {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(target, '127.0.0.1');
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => s.destroy());
    }
    client.pipe(upstream).pipe(client);
  });
  const listen = (port: number) =>
    new Promise<number>((resolve) =>
      server.listen(port, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port)),
    );
  const port = await listen(0);
  return {
    port,
    async cut() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
      });
    },
    restore: () => listen(port),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe.skipIf(testStoreKind() !== 'postgres')('the PostgreSQL store', () => {
  it('migrates once when instances start together', async () => {
    const url = await createDatabaseIn(inject('postgresUrl'));
    const opened = await Promise.all(
      [1, 2, 3].map(() => openDatabase(tempDataDir(), { postgres: { url } })),
    );
    try {
      const applied = await opened[0]!.db
        .selectFrom('kysely_migration' as never)
        .select('name' as never)
        .execute();
      expect(applied.length).toBeGreaterThan(5);
      expect(new Set(applied.map((r) => (r as { name: string }).name)).size).toBe(applied.length);
    } finally {
      for (const o of opened) await o.close();
    }
  });

  it('loads the reference data while another instance writes vessel positions', async () => {
    const url = await createDatabaseIn(inject('postgresUrl'));
    const records = readReferenceDir(SHIPPED_REFERENCE_DIR);
    const [starting, running] = await Promise.all(
      [1, 2].map(() => openDatabase(tempDataDir(), { postgres: { url } })),
    );
    try {
      await loadReferenceData(running!.db, records);
      // The running instance's AIS batches name vessels in the order their messages came.
      const vessels = new VesselStore(running!.db);
      const batch = (round: number) =>
        records.vessels
          .map((v, i) => ({
            imo: v.imo,
            mmsi: v.mmsi,
            latitude: (i % 80) - 40,
            longitude: round,
            speedKnots: 12,
            headingDegrees: 90,
            timestamp: new Date(Date.UTC(2026, 0, 1, 0, round)).toISOString(),
          }))
          .reverse();
      let writing = true;
      const positions = (async () => {
        for (let round = 0; writing; round++) await vessels.recordPositions(batch(round), []);
      })();
      try {
        for (let start = 0; start < 10; start++) await loadReferenceData(starting!.db, records);
      } finally {
        writing = false;
        await positions;
      }
      const stored = await starting!.db
        .selectFrom('vessels')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('latitude', 'is not', null)
        .executeTakeFirstOrThrow();
      expect(Number(stored.n)).toBe(records.vessels.length);
    } finally {
      await starting!.close();
      await running!.close();
    }
  });

  it('counts a shared budget per second, across connections, and lets hits leave the window', async () => {
    const url = await createDatabaseIn(inject('postgresUrl'));
    const [a, b] = await Promise.all(
      [1, 2].map(() => openDatabase(tempDataDir(), { postgres: { url } })),
    );
    try {
      const [one, two] = [new RateLimitWindows(a!.db), new RateLimitWindows(b!.db)];
      const t = 1_000_000_000; // a whole second, in ms
      expect(await one.take('requests:x', 5, 60_000, t, 3)).toEqual({
        granted: 3,
        oldestMs: t,
        used: 3,
      });
      // From another instance a second and a half later: only two of four fit.
      expect(await two.take('requests:x', 5, 60_000, t + 1_500, 4)).toEqual({
        granted: 2,
        oldestMs: t,
        used: 5,
      });
      // Another budget is counted apart.
      expect((await two.take('refreshes:x', 5, 60_000, t + 1_500, 1)).used).toBe(1);
      // A minute after the first second its three hits have left; the next second's two stay.
      expect(await one.take('requests:x', 5, 60_000, t + 60_500, 4)).toEqual({
        granted: 3,
        oldestMs: t + 1_000,
        used: 5,
      });
      // A slightly slower clock on another instance still counts into the same window.
      expect(await two.take('requests:x', 5, 60_000, t + 60_200, 1)).toMatchObject({
        granted: 0,
        used: 5,
      });
      // Takes racing on both connections never grant more than the limit.
      const later = t + 200_000;
      const takes = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          (i % 2 ? one : two).take('requests:y', 7, 60_000, later + i, 1),
        ),
      );
      expect(takes.reduce((sum, r) => sum + r.granted, 0)).toBe(7);
      expect(Math.max(...takes.map((r) => r.used))).toBe(7);
      // Hits taken ahead and not used are given back to the second they were counted in, before
      // the take: here four of seven come back, so four new ones fit.
      const back = t + 300_000;
      expect((await one.take('requests:z', 7, 60_000, back, 7)).used).toBe(7);
      expect(
        await two.take('requests:z', 7, 60_000, back + 1_200, 5, { atMs: back + 400, count: 4 }),
      ).toEqual({ granted: 4, oldestMs: back, used: 7 });
      // An instance of the previous version still takes through rate_limit_take (0022), which
      // is now the same function with nothing to give back.
      const { rows } = await sql<{ granted: number; used: number }>`
        SELECT granted, used FROM rate_limit_take('requests:z', 8, ${back - 60_000 + 1_300}::bigint,
          ${back + 1_300}::bigint, 3)`.execute(a!.db);
      expect(rows[0]).toEqual({ granted: 1, used: 8 });
      // Budgets untouched since a given time are dropped.
      await one.prune(back);
      const left = await a!.db.selectFrom('rate_limit_budgets').select('key').execute();
      expect(left.map((r) => r.key)).toEqual(['requests:z']);
    } finally {
      await a!.close();
      await b!.close();
    }
  });

  it('refuses to start with one line when the database cannot be reached', async () => {
    const closed = await new Promise<number>((resolve) => {
      const probe = net.createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as net.AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    const url = `postgres://quayside:hunter2@127.0.0.1:${closed}/quayside`;
    const error = await openDatabase(tempDataDir(), {
      postgres: { url, connectTimeoutMs: 2_000 },
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DatabaseUnreachableError);
    const message = (error as Error).message;
    expect(message).toMatch(/^Cannot reach the database at postgres:\/\/quayside:\*\*\*@127/);
    expect(message).not.toContain('hunter2');
    expect(message.split('\n')).toHaveLength(1);
  });

  it('answers 503 while the database is gone and serves again when it is back', async () => {
    const clusterUrl = new URL(inject('postgresUrl'));
    const relay = await startRelay(Number(clusterUrl.port));
    const url = new URL(await createDatabaseIn(clusterUrl.toString()));
    url.port = String(relay.port);
    const service = await startService({
      dataDir: tempDataDir(),
      database: { url: url.toString(), connectTimeoutMs: 1_000, statementTimeoutMs: 2_000 },
      port: 0,
      referenceDir: FIXTURE_REFERENCE_DIR,
    });
    const get = () =>
      fetch(`${service.baseUrl}/shipments`, {
        headers: { Authorization: `Token ${service.initialKey}` },
      });
    try {
      expect((await get()).status).toBe(200);
      await relay.cut();
      const down = await get();
      expect(down.status).toBe(503);
      expect(down.headers.get('retry-after')).toBe('5');
      const body = (await down.json()) as { errors: { status: string; title: string }[] };
      expect(body.errors[0]).toMatchObject({ status: '503', title: 'Service Unavailable' });
      await relay.restore();
      await expect
        .poll(async () => (await get()).status, { timeout: 60_000, interval: 100 })
        .toBe(200);
    } finally {
      await service.close();
      await relay.close().catch(() => undefined);
    }
  });

  it('keeps creation and change times as timestamptz and reads them back as ISO text', async () => {
    const at = {
      dataDir: tempDataDir(),
      database: { url: await createDatabaseIn(inject('postgresUrl')) },
    };
    const service = await startService({
      ...at,
      port: 0,
      referenceDir: FIXTURE_REFERENCE_DIR,
    });
    const headers = {
      Authorization: `Token ${service.initialKey}`,
      'Content-Type': 'application/vnd.api+json',
    };
    try {
      const { rows } = await withServiceDatabase(at, (db) =>
        sql<{ data_type: string }>`
          SELECT data_type FROM information_schema.columns
          WHERE table_name = 'tracking_requests' AND column_name IN ('created_at', 'updated_at')`.execute(
          db,
        ),
      );
      expect(rows.map((r) => r.data_type)).toEqual([
        'timestamp with time zone',
        'timestamp with time zone',
      ]);
      const created = await fetch(`${service.baseUrl}/tracking_requests`, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          data: {
            type: 'tracking_request',
            attributes: {
              request_type: 'bill_of_lading',
              request_number: 'TEST-TR-SUCCEEDED',
              scac: 'TEST',
            },
          },
        }),
      });
      expect(created.status).toBe(201);
      const attributes = (
        (await created.json()) as { data: { attributes: Record<string, string> } }
      ).data.attributes;
      expect(attributes.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      // A bound written with another offset means the same instant: a minute before creation.
      const bound = new Date(Date.parse(attributes.created_at!) - 60_000 + 2 * 3_600_000)
        .toISOString()
        .replace('Z', '+02:00');
      const listed = await fetch(
        `${service.baseUrl}/tracking_requests?filter[created_at][start]=${encodeURIComponent(bound)}`,
        { headers },
      );
      expect(listed.status).toBe(200);
      expect(((await listed.json()) as { data: unknown[] }).data).toHaveLength(1);
    } finally {
      await service.close();
    }
  });

  it('keeps yes/no columns as boolean, read back as 0/1 and refusing anything else', async () => {
    const at = {
      dataDir: tempDataDir(),
      database: { url: await createDatabaseIn(inject('postgresUrl')) },
    };
    const service = await startService({ ...at, port: 0, referenceDir: FIXTURE_REFERENCE_DIR });
    try {
      await withServiceDatabase(at, async (db) => {
        const { rows } = await sql<{ table_name: string; data_type: string }>`
        SELECT table_name, data_type FROM information_schema.columns
        WHERE table_schema = current_schema()
          AND column_name IN ('routing_enabled', 'active', 'estimated', 'available_for_pickup')
        ORDER BY table_name, column_name`.execute(db);
        expect(rows.map((r) => r.data_type)).toEqual(['boolean', 'boolean', 'boolean', 'boolean']);
        const account = await db
          .selectFrom('accounts')
          .select('routing_enabled')
          .executeTakeFirstOrThrow();
        expect([0, 1]).toContain(account.routing_enabled);
        // The store writes 0/1 as parameters, which PostgreSQL takes as boolean input; a 2 is not.
        await expect(sql`UPDATE accounts SET routing_enabled = ${'2'}`.execute(db)).rejects.toThrow(
          /boolean/,
        );
      });
    } finally {
      await service.close();
    }
  });
});

describe('timestamptz text as the store reads it', () => {
  it('is the ISO-8601 UTC text SQLite keeps', () => {
    expect(isoFromTimestamptz('2026-01-10 12:00:00.123+00')).toBe('2026-01-10T12:00:00.123Z');
    expect(isoFromTimestamptz('2026-01-10 12:00:00+00')).toBe('2026-01-10T12:00:00.000Z');
    expect(isoFromTimestamptz('2026-01-10 12:00:00.5+00')).toBe('2026-01-10T12:00:00.500Z');
    expect(isoFromTimestamptz('2026-01-10 13:00:00+01')).toBe('2026-01-10T12:00:00.000Z');
  });
});
