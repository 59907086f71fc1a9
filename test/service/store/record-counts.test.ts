/**
 * An unfiltered list's total is read from the per-account counts the triggers keep (migration
 * 0012), on both stores: it follows every new shipment and container, stays per account, and a
 * database that already holds rows gets its counts when the migration runs.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { migrate } from '../../../src/service/store/db';
import { storeKindOf } from '../../../src/service/store/dialect';
import { sql, withServiceDatabase } from '../../support/service-database';
import { seedShipment, startTestService, type TestService } from '../../support/service';

let t: TestService;
afterEach(async () => {
  await t?.close();
});

const totals = async (key?: string) => ({
  containers: (await t.get('/containers?page[size]=1', key)).body.meta.total,
  shipments: (await t.get('/shipments?page[size]=1', key)).body.meta.total,
});

describe('list totals from the kept per-account counts', () => {
  it('follow new shipments and containers, per account, and agree with filtered counts', async () => {
    t = await startTestService();
    expect(await totals()).toEqual({ containers: 0, shipments: 0 });
    await seedShipment(t, t.accountA, 'MEDU1000001');
    expect(await totals()).toEqual({ containers: 2, shipments: 1 });
    await seedShipment(t, t.accountA, 'MEDU1000002');
    await seedShipment(t, t.accountB, 'MEDU1000003');
    expect(await totals()).toEqual({ containers: 4, shipments: 2 });
    expect(await totals(t.keyB)).toEqual({ containers: 2, shipments: 1 });
    // A page past the end has no row to carry the count and still says how many there are.
    const beyond = await t.get('/containers?page[size]=1&page[number]=9');
    expect(beyond.body.data).toEqual([]);
    expect(beyond.body.meta.total).toBe(4);
    // A filtered list still counts its own rows.
    const since = await t.get(
      '/containers?page[size]=1&filter[updated_at][start]=2000-01-01T00:00:00Z',
    );
    expect(since.body.meta.total).toBe(4);
  });

  it('are filled from the rows already there when the migration runs', async () => {
    t = await startTestService();
    await seedShipment(t, t.accountA, 'MEDU1000001');
    await seedShipment(t, t.accountA, 'MEDU1000002');
    await seedShipment(t, t.accountB, 'MEDU1000003');
    // Undo migration 0012 by hand, then let the migrator run it again over the existing rows.
    await withServiceDatabase(t, async (db) => {
      if (storeKindOf(db) === 'postgres') {
        for (const table of ['containers', 'shipments'])
          await sql`DROP TRIGGER ${sql.raw(`${table}_counted`)} ON ${sql.table(table)}`.execute(db);
        await sql`DROP FUNCTION account_record_counts_keep()`.execute(db);
      } else {
        for (const table of ['containers', 'shipments'])
          for (const op of ['insert', 'delete'])
            await sql`DROP TRIGGER ${sql.raw(`${table}_counted_${op}`)}`.execute(db);
      }
      await db.schema.dropTable('account_record_counts').execute();
      await db
        .deleteFrom('kysely_migration' as never)
        // This one and every later one (they run again; each is a no-op on a done schema).
        .where('name' as never, '>=', '0012_account_record_counts' as never)
        .execute();
      await migrate(db);
    });
    expect(await totals()).toEqual({ containers: 4, shipments: 2 });
    expect(await totals(t.keyB)).toEqual({ containers: 2, shipments: 1 });
    // A page past the end has no row to carry the count and still says how many there are.
    const beyond = await t.get('/containers?page[size]=1&page[number]=9');
    expect(beyond.body.data).toEqual([]);
    expect(beyond.body.meta.total).toBe(4);
    await seedShipment(t, t.accountB, 'MEDU1000004');
    expect(await totals(t.keyB)).toEqual({ containers: 4, shipments: 2 });
  });
});
