/**
 * A read compiled once answers like the query it was built from, for any arguments, on the
 * engine under test (SQLite, or PostgreSQL in that project).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { preparedRead } from '../../../src/service/store/prepared-read';
import { openServiceDatabase } from '../../support/service-database';
import type { OpenedDatabase } from '../../../src/service/store/db';
import { seedShipment, startTestService, type TestService } from '../../support/service';

let t: TestService;
// The reads are built on the query builder itself: a second connection to the service's database.
let opened: OpenedDatabase;

beforeAll(async () => {
  t = await startTestService();
  opened = await openServiceDatabase(t);
});

afterAll(async () => {
  await opened?.close();
  await t?.close();
});

describe('preparedRead', () => {
  it('runs the compiled query with each call’s arguments, in the order the SQL takes them', async () => {
    const { db } = opened;
    const mine = await seedShipment(t, t.accountA, 'MEDU900000301');
    const theirs = await seedShipment(t, t.accountB, 'MEDU900000302');
    // Arguments named in the opposite order to the SQL's, and a constant among them.
    const read = preparedRead(db, 2, (accountId: string, id: string) =>
      db
        .selectFrom('containers')
        .select(['id', 'number'])
        .where('id', '=', id)
        .where('equipment_length', '=', 40)
        .where('account_id', '=', accountId),
    );
    for (const c of mine.containers) {
      expect(await read(t.accountA, c.id)).toEqual([{ id: c.id, number: c.number }]);
      expect(await read(t.accountB, c.id)).toEqual([]);
    }
    const other = theirs.containers[0]!;
    expect(await read(t.accountB, other.id)).toEqual([{ id: other.id, number: other.number }]);
  });

  it('refuses a write and an argument that does not reach the query unchanged', () => {
    const { db } = opened;
    expect(() =>
      preparedRead(db, 1, (id: string) => db.deleteFrom('containers').where('id', '=', id)),
    ).toThrow(/not a select/);
    expect(() =>
      preparedRead(db, 1, (id: string) =>
        db.selectFrom('containers').select('id').where('id', '=', id.toUpperCase()),
      ),
    ).toThrow(/not a query parameter/);
  });
});
