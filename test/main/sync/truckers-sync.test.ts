/*
 * Truckers from the desktop's side: added and assigned through the app's calls to a real
 * service on 127.0.0.1, synced into a real cache file, shown, filtered and sorted on the board.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cache } from '../../../src/main/cache/cache';
import { OFFLINE_EDIT_MESSAGE } from '../../../src/main/core/custom-field-requests';
import { assignTrucker, createTrucker } from '../../../src/main/core/trucker-requests';
import { SyncEngine } from '../../../src/main/sync/engine';
import { syncTruckers } from '../../../src/main/sync/truckers';
import { ManualClock } from '../../../src/shared/clock';
import { TRUCKER_NONE, type ContainerQuery } from '../../../src/shared/desktop';
import { seedShipment, startTestService, type TestService } from '../../support/service';
import { tempDir } from '../../support/cache-fixtures';

let t: TestService;
let first: Awaited<ReturnType<typeof seedShipment>>;
let second: Awaited<ReturnType<typeof seedShipment>>;
let tmp: ReturnType<typeof tempDir>;
let cache: Cache;
let engine: SyncEngine;
let clock: ManualClock;
const connection = () => ({ baseUrl: t.baseUrl, apiKey: t.keyA });

/** The board's rows of a query as [number, trucker name]. */
const board = (query: ContainerQuery = {}) =>
  cache.board
    .containers(
      { showCompleted: true, sort: { column: 'number', direction: 'asc' }, ...query },
      clock.now(),
    )
    .rows.map((r) => [r.number, r.trucker]);

beforeAll(async () => {
  t = await startTestService();
  first = await seedShipment(t, t.accountA, 'MEDUTK0001');
  second = await seedShipment(t, t.accountA, 'MEDUTK0002');
  tmp = tempDir('quayside-truckers-sync-');
  cache = Cache.open(tmp.dir);
  clock = new ManualClock(t.clock.now());
  engine = new SyncEngine({
    cache,
    clock,
    connection,
    pageSize: 10,
    extraSteps: [(client) => syncTruckers(client, cache).then(() => undefined)],
  });
  await engine.sync();
});
afterAll(async () => {
  cache?.close();
  tmp?.remove();
  await t?.close();
});

describe('truckers on the desktop', () => {
  it('adds truckers and lists them from the cache after a sync', async () => {
    const harbor = await createTrucker(connection(), {
      companyName: 'Harbor Dray',
      scac: 'hbdr',
      contactName: 'Dispatch',
      email: 'dispatch@harbordray.example',
    });
    expect(harbor).toMatchObject({ ok: true, trucker: { companyName: 'Harbor Dray' } });
    const bay = await createTrucker(connection(), { companyName: 'Bay Haulers' });
    expect(bay.ok).toBe(true);
    // A customer party is no trucker: the list leaves it out.
    await t.send('POST', '/parties', { data: { attributes: { company_name: 'Harbour Foods' } } });
    await engine.sync();
    expect(cache.board.truckers()).toEqual([
      { id: expect.any(String), companyName: 'Bay Haulers', scac: null, contacts: [] },
      {
        id: expect.any(String),
        companyName: 'Harbor Dray',
        scac: 'HBDR',
        contacts: [{ name: 'Dispatch', email: 'dispatch@harbordray.example', phone: null }],
      },
    ]);
    const bad = await createTrucker(connection(), { companyName: 'Bad', scac: 'TOOLONG' });
    expect(bad).toEqual({ ok: false, message: 'SCAC must be 2 to 4 letters' });
  });

  it('assigns two boxes in one go and a whole shipment; the board shows and filters them', async () => {
    const [bay, harbor] = cache.board.truckers();
    const boxes = [first.containers[0]!.id, second.containers[0]!.id];
    // The service's time moves between writes, as a real one's does (sync reads by updated_at).
    t.clock.advance(60_000);
    expect(
      await assignTrucker(connection(), { containerIds: boxes, truckerId: harbor!.id }),
    ).toEqual({ ok: true, assigned: 2 });
    await engine.sync();
    // Seeded numbers: MSCU001…/MEDU001… on the first shipment, …002… on the second.
    expect(board()).toEqual([
      ['MEDU0014321', null],
      ['MEDU0024321', null],
      ['MSCU0014565', 'Harbor Dray'],
      ['MSCU0024565', 'Harbor Dray'],
    ]);
    expect(board({ trucker: [harbor!.id] })).toHaveLength(2);
    expect(board({ trucker: [TRUCKER_NONE] })).toEqual([
      ['MEDU0014321', null],
      ['MEDU0024321', null],
    ]);

    t.clock.advance(60_000);
    expect(
      await assignTrucker(connection(), { shipmentId: first.shipment.id, truckerId: bay!.id }),
    ).toEqual({ ok: true, assigned: 2 });
    await engine.sync();
    expect(board({ trucker: [bay!.id, TRUCKER_NONE] })).toEqual([
      ['MEDU0014321', 'Bay Haulers'],
      ['MEDU0024321', null],
      ['MSCU0014565', 'Bay Haulers'],
    ]);
    const sorted = cache.board
      .containers({ sort: { column: 'trucker', direction: 'asc' } }, clock.now())
      .rows.map((r) => r.trucker);
    // Boxes without a trucker last, as every column puts its empty values.
    expect(sorted).toEqual(['Bay Haulers', 'Bay Haulers', 'Harbor Dray', null]);
    expect(cache.board.containerDetail(first.containers[0]!.id)?.row.trucker).toBe('Bay Haulers');
  });

  it('refuses another account’s trucker and says so plainly when the service is away', async () => {
    const theirs = await t.send(
      'POST',
      '/parties',
      { data: { attributes: { company_name: 'Their Dray', roles: ['trucker'] } } },
      { key: t.keyB },
    );
    const refused = await assignTrucker(connection(), {
      containerIds: [first.containers[1]!.id],
      truckerId: theirs.body.data.id,
    });
    expect(refused).toEqual({ ok: false, message: expect.stringContaining('No party with id') });
    const away = { baseUrl: 'http://127.0.0.1:9/v2', apiKey: t.keyA };
    expect(await assignTrucker(away, { containerIds: ['x'], truckerId: null })).toEqual({
      ok: false,
      message: OFFLINE_EDIT_MESSAGE,
    });
    // The cache still answers offline.
    expect(cache.board.truckers()).toHaveLength(2);
  });
});
