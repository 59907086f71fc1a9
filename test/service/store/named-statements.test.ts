/**
 * PostgreSQL prepares the service's most-run statements once per connection (store/dialect.ts).
 * A newer instance's migration adding a column must not break the ones already running: the
 * prepared reads keep answering, and reads of whole rows (never prepared) show the row as it now
 * is. PostgreSQL only: on SQLite one process owns the file (no other instance migrates it
 * under a running one), and nothing is prepared by name.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { seedShipment, startTestService, type TestService } from '../../support/service';
import { openServiceDatabase, sql } from '../../support/service-database';
import { testStoreKind } from '../../support/store-kinds';

let t: TestService | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe.runIf(testStoreKind() === 'postgres')('statements run often', () => {
  it('keep answering after another instance adds a column', async () => {
    // Strict reads: each request sees the other connection's last change at once.
    t = await startTestService({ requestsPerMinute: 1_000 }, undefined, { readStalenessMs: 0 });
    await seedShipment(t, t.accountA, 'MEDU1000001');
    // A second connection, as another instance would have: the service's own is not reachable.
    const opened = await openServiceDatabase(t);
    const { db } = opened;
    const list = await t.get('/containers?include=shipment');
    const id = list.body.data[0].id as string;
    /** Changes the container, so its next detail reads the whole row again. */
    const touch = (n: number) =>
      sql`UPDATE containers SET pod_full_out_chassis_number = ${`CH-${n}`} WHERE id = ${id}`.execute(
        db,
      );
    // Often enough that the key reads, the page read and the whole-row read would be prepared.
    for (let n = 1; n <= 20; n++) {
      await touch(n);
      expect((await t.get(`/containers/${id}?include=shipment`)).status).toBe(200);
      expect((await t.get('/containers?include=shipment')).status).toBe(200);
    }
    await sql`ALTER TABLE containers ADD COLUMN added_later text`.execute(db);
    await sql`ALTER TABLE shipments ADD COLUMN added_later text`.execute(db);
    await touch(21);
    const detail = await t.get(`/containers/${id}?include=shipment`);
    expect(detail.status).toBe(200);
    expect(detail.body.data.attributes.pod_full_out_chassis_number).toBe('CH-21');
    const again = await t.get('/containers?include=shipment');
    expect(again.status).toBe(200);
    expect(again.body.data[0].attributes.pod_full_out_chassis_number).toBe('CH-21');
    await opened.close();
  });
});
