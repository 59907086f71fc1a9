/**
 * On PostgreSQL an instance keeps key reads while the rendered tables' version stays the one they
 * were read under (store/row-versions.ts, store/key-memo.ts). That version must move with every
 * commit that changes a container, shipment or event, from any instance or any connection, and
 * with nothing else; and an ask must never be answered by a version statement that began before
 * it, or a request could be served what was true before another instance's change.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  ChangeAnnouncements,
  CHANGES_CHANNEL,
} from '../../../src/service/store/change-announcements';
import { openDatabase, storeVersionOf, type OpenedDatabase } from '../../../src/service/store/db';
import { frozenRows, sharedReads } from '../../../src/service/store/key-memo';
import {
  foldRenderedVersions,
  readStoreVersion,
  StoreVersion,
} from '../../../src/service/store/row-versions';
import { createDatabaseIn, testStoreKind } from '../../support/store-kinds';
import { seedShipment, startTestService, type TestService } from '../../support/service';

/** A promise settled from outside, to hold a version statement "running" as long as a test needs. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** A StoreVersion whose version statements each run until the test settles them. */
function overHeldStatements(options: ConstructorParameters<typeof StoreVersion>[1] = {}) {
  const statements: ReturnType<typeof deferred<string>>[] = [];
  const version = new StoreVersion(() => {
    const statement = deferred<string>();
    statements.push(statement);
    return statement.promise;
  }, options);
  return { version, statements };
}

describe('StoreVersion statements', () => {
  it('answers an ask made while a statement runs with the next statement, shared by all such asks', async () => {
    const { version, statements } = overHeldStatements();
    const first = version.afterNow();
    expect(statements).toHaveLength(1);
    // Asked while the first statement runs: that statement may have read the version already.
    const second = version.afterNow();
    const third = version.afterNow();
    expect(statements).toHaveLength(1);

    statements[0]!.resolve('7');
    expect(await first).toEqual({ version: '7', seq: 1 });
    await new Promise((resolve) => setImmediate(resolve));
    expect(statements).toHaveLength(2);
    statements[1]!.resolve('8');
    expect(await second).toEqual({ version: '8', seq: 2 });
    expect(await third).toEqual({ version: '8', seq: 2 });

    // Nothing running: a new ask starts its own statement at once.
    const fourth = version.afterNow();
    expect(statements).toHaveLength(3);
    statements[2]!.resolve('8');
    expect(await fourth).toEqual({ version: '8', seq: 3 });
  });

  it("lets a request's later reads reuse the reading its first one waited for, never an older one", async () => {
    const { version, statements } = overHeldStatements();
    const arrived = version.mark();
    const first = version.atLeast(arrived);
    // Another request arrives while that statement runs: it began before this one arrived.
    const arrivedDuring = version.mark();
    statements[0]!.resolve('5');
    expect(await first).toEqual({ version: '5', seq: 1 });

    // The first request's next read: answered by the reading it already has, no statement.
    expect(await version.atLeast(arrived)).toEqual({ version: '5', seq: 1 });
    expect(statements).toHaveLength(1);
    // The second request's read needs a statement of its own.
    const second = version.atLeast(arrivedDuring);
    expect(statements).toHaveLength(2);
    statements[1]!.resolve('6');
    expect(await second).toEqual({ version: '6', seq: 2 });
    // And from then on the first request is answered with that newer reading.
    expect(await version.atLeast(arrived)).toEqual({ version: '6', seq: 2 });
  });

  it('passes a failed statement on to its asks, and asks made meanwhile get a statement of their own', async () => {
    const { version, statements } = overHeldStatements();
    const failing = version.afterNow();
    const later = version.afterNow();
    statements[0]!.reject(new Error('connection lost'));
    await expect(failing).rejects.toThrow('connection lost');
    await new Promise((resolve) => setImmediate(resolve));
    statements[1]!.resolve('3');
    expect(await later).toEqual({ version: '3', seq: 2 });
  });
});

describe('StoreVersion relying on announcements (--db-read-staleness-ms above 0)', () => {
  /**
   * A StoreVersion allowing 100 ms, on a clock, a count of sent writes and an announcements'
   * epoch (null: not listening) the test moves.
   */
  function lenient() {
    const state = { now: 1_000, writes: 0, epoch: 0 as number | null };
    const held = overHeldStatements({
      stalenessMs: 100,
      now: () => state.now,
      sentWrites: () => state.writes,
      announcements: () => state.epoch,
    });
    return { ...held, state };
  }

  /** Asks once; resolves the statement the ask started, if it started one, with `answer`. */
  async function ask(held: ReturnType<typeof lenient>, answer: string) {
    const before = held.statements.length;
    const reading = held.version.afterNow();
    if (held.statements.length > before) held.statements.at(-1)!.resolve(answer);
    return { read: held.statements.length > before, reading: await reading };
  }

  it('answers asks with a reading whose statement began within the staleness, then reads again', async () => {
    const { version, statements, state } = lenient();
    const first = version.afterNow();
    state.now += 80; // the statement takes 80 ms to answer
    statements[0]!.resolve('4');
    expect(await first).toEqual({ version: '4', seq: 1 });

    state.now += 20; // 100 ms after the statement began: still allowed
    expect(await version.afterNow()).toEqual({ version: '4', seq: 1 });
    expect(statements).toHaveLength(1);

    // Counted from when the statement began, not from its answer.
    state.now += 1;
    const later = version.afterNow();
    expect(statements).toHaveLength(2);
    statements[1]!.resolve('5');
    expect(await later).toEqual({ version: '5', seq: 2 });
  });

  it('reads again once this instance has sent a write, however recent the reading', async () => {
    const { version, statements, state } = lenient();
    const first = version.afterNow();
    statements[0]!.resolve('4');
    await first;

    state.writes++; // an update sent (not yet answered)
    const afterWrite = version.afterNow();
    expect(statements).toHaveLength(2);
    // A write answered after a statement began leaves that reading unusable too.
    state.writes++;
    statements[1]!.resolve('5');
    expect(await afterWrite).toEqual({ version: '5', seq: 2 });
    const afterAnswer = version.afterNow();
    expect(statements).toHaveLength(3);
    statements[2]!.resolve('6');
    expect(await afterAnswer).toEqual({ version: '6', seq: 3 });
    // Nothing sent since the third began: its reading answers.
    expect(await version.afterNow()).toEqual({ version: '6', seq: 3 });
    expect(statements).toHaveLength(3);
  });

  it('reads again after an announcement, even one heard while its statement ran', async () => {
    const held = lenient();
    expect(await ask(held, '4')).toEqual({ read: true, reading: { version: '4', seq: 1 } });
    expect((await ask(held, '-')).read).toBe(false);

    held.state.epoch = 1; // a change announced
    expect(await ask(held, '5')).toEqual({ read: true, reading: { version: '5', seq: 2 } });
    expect((await ask(held, '-')).read).toBe(false);

    // Announced while the third statement ran: it may have read before that commit.
    held.state.epoch = 2;
    const third = held.version.afterNow();
    held.state.epoch = 3;
    held.statements[2]!.resolve('6');
    expect(await third).toEqual({ version: '6', seq: 3 });
    expect(await ask(held, '7')).toEqual({ read: true, reading: { version: '7', seq: 4 } });
    expect((await ask(held, '-')).read).toBe(false);
  });

  it('reads for every ask while not listening, and relies on no reading begun before it listened again', async () => {
    const held = lenient();
    await ask(held, '4');
    held.state.epoch = null; // the listening connection lost
    expect((await ask(held, '5')).read).toBe(true);
    expect((await ask(held, '5')).read).toBe(true);

    held.state.epoch = 3; // listening again: what was committed meanwhile was never announced
    expect((await ask(held, '6')).read).toBe(true);
    expect((await ask(held, '-')).read).toBe(false);
  });

  it('never relies on a reading with no staleness allowed, listening or not', async () => {
    const state = { epoch: 0 };
    const held = overHeldStatements({ stalenessMs: 0, announcements: () => state.epoch });
    for (let i = 0; i < 3; i++) {
      const reading = held.version.afterNow();
      expect(held.statements).toHaveLength(i + 1);
      held.statements[i]!.resolve(String(i));
      await reading;
    }
  });
});

describe.skipIf(testStoreKind() !== 'postgres')('kept reads on PostgreSQL', () => {
  let t: TestService;
  /** A second instance's connections to the same database. */
  let other: OpenedDatabase;

  beforeAll(async () => {
    t = await startTestService();
    // Strict reads: each sees every commit that finished before it (the version's own rules).
    other = await openDatabase(t.dataDir, { postgres: { ...t.database!, readStalenessMs: 0 } });
  });

  afterAll(async () => {
    await other?.close();
    await t?.close();
  });

  /**
   * Runs statements over a connection of its own, as any other client of the database would, and
   * returns the rows of the last one.
   */
  async function onAnotherConnection(...statements: [string, unknown[]][]) {
    const client = new pg.Client({ connectionString: t.database!.url });
    await client.connect();
    try {
      let rows: Record<string, unknown>[] = [];
      for (const [text, values] of statements) rows = (await client.query(text, values)).rows;
      return rows;
    } finally {
      await client.end();
    }
  }

  /** A container's seal number read through kept reads, and how many times it was queried. */
  function keptSeal(id: string, instance: OpenedDatabase = other) {
    const reads = sharedReads<readonly { seal_number: string | null }[]>(instance.db, frozenRows);
    let queries = 0;
    return {
      queries: () => queries,
      read: async () => {
        const rows = await reads(`seal:${id}`, () => {
          queries++;
          return instance.db
            .selectFrom('containers')
            .select('seal_number')
            .where('id', '=', id)
            .execute();
        });
        return rows[0]!.seal_number;
      },
    };
  }

  it('reads once while nothing changes and again after any commit to the rendered tables', async () => {
    const seeded = await seedShipment(t, t.accountA, 'MEDU900000301');
    const id = seeded.containers[0]!.id;
    const kept = keptSeal(id);
    const seal = kept.read;

    const before = await seal();
    expect(await seal()).toBe(before);
    expect(kept.queries()).toBe(1);

    // Writes that change no rendered row keep what was read.
    await onAnotherConnection([
      'update containers set seal_number = $1 where id = $2',
      ['X', 'none'],
    ]);
    await onAnotherConnection(
      ['begin', []],
      ['update containers set seal_number = $1 where id = $2', ['ROLLED-BACK', id]],
      ['rollback', []],
    );
    await onAnotherConnection(['update accounts set name = name where id = $1', [t.accountA]]);
    expect(await seal()).toBe(before);
    expect(kept.queries()).toBe(1);

    // Another connection's commit, within the same millisecond as the read (updated_at stays).
    await onAnotherConnection([
      'update containers set seal_number = $1 where id = $2',
      ['S-2', id],
    ]);
    expect(await seal()).toBe('S-2');
    expect(kept.queries()).toBe(2);
    expect(await seal()).toBe('S-2');
    expect(kept.queries()).toBe(2);

    // The other instance's own path: a new transport event for another box ends it too.
    await t.service.store.tracking.addTransportEvent(seeded.containers[1]?.id ?? id, {
      event: 'container.transport.vessel_departed',
      dataSource: 'shipping_line',
      timestamp: new Date(t.clock.now()).toISOString(),
      locationLocode: 'USLAX',
    });
    await seal();
    expect(kept.queries()).toBe(3);

    // Removing raw events ends it as well.
    await onAnotherConnection(['delete from raw_events where container_id = $1', [id]]);
    await seal();
    expect(kept.queries()).toBe(4);
  });

  it('lets two writers change rendered rows at once, neither waiting on the counter', async () => {
    const a = await seedShipment(t, t.accountA, 'MEDU900000303');
    const b = await seedShipment(t, t.accountA, 'MEDU900000304');
    const first = new pg.Client({ connectionString: t.database!.url });
    const second = new pg.Client({ connectionString: t.database!.url });
    await first.connect();
    await second.connect();
    try {
      await first.query('begin');
      await first.query('update containers set seal_number = $1 where id = $2', [
        'A',
        a.containers[0]!.id,
      ]);
      // While the first transaction is open, a second one writes another box and commits: a
      // counter row shared by both would hold it until the first ends (here: the timeout).
      await second.query("set statement_timeout = '5s'");
      await second.query('begin');
      await second.query('update containers set seal_number = $1 where id = $2', [
        'B',
        b.containers[0]!.id,
      ]);
      await second.query('commit');
      await first.query('commit');
    } finally {
      await first.end();
      await second.end();
    }
  });

  it('folds the counts of ended connections without moving the version', async () => {
    const seeded = await seedShipment(t, t.accountA, 'MEDU900000305');
    const [{ pid }] = (await onAnotherConnection(
      ['update containers set seal_number = $1 where id = $2', ['F', seeded.containers[0]!.id]],
      ['select pg_backend_pid() as pid', []],
    )) as [{ pid: number }];
    const rowsOf = async (backend: number) =>
      (await onAnotherConnection(['select 1 from rendered_versions where backend = $1', [backend]]))
        .length;
    expect(await rowsOf(pid)).toBe(1);
    // The connection has ended once its backend has left pg_stat_activity.
    await expect
      .poll(
        async () =>
          (await onAnotherConnection(['select 1 from pg_stat_activity where pid = $1', [pid]]))
            .length,
        { timeout: 30_000 },
      )
      .toBe(0);
    const before = await readStoreVersion(other.db);
    await foldRenderedVersions(other.db);
    expect(await readStoreVersion(other.db)).toBe(before);
    expect(await rowsOf(pid)).toBe(0);
  });

  it("relying on announcements, reads the version once while nothing changes, its own writes at once and others' once announced", async () => {
    // Ten seconds allowed: within the five the test waits, only an announcement shows a change.
    const lenient = await openDatabase(t.dataDir, {
      postgres: { ...t.database!, readStalenessMs: 10_000 },
    });
    try {
      const seeded = await seedShipment(t, t.accountA, 'MEDU900000306');
      const id = seeded.containers[0]!.id;
      const kept = keptSeal(id, lenient);
      const seal = kept.read;
      const statements = () => storeVersionOf(lenient.db)!.statementsBegun;
      const write = (value: string) =>
        lenient.db.updateTable('containers').set({ seal_number: value }).where('id', '=', id);

      // Once the seeding's announcements have arrived, reads rely on one reading.
      const reliedOn = async () => {
        const before = statements();
        expect(await seal()).toBeNull();
        return statements() === before;
      };
      await expect.poll(reliedOn, { timeout: 5_000 }).toBe(true);
      const begun = statements();
      const queried = kept.queries();
      for (let i = 0; i < 10; i++) expect(await seal()).toBeNull();
      expect(statements()).toBe(begun);
      expect(kept.queries()).toBe(queried);

      // Through this instance, alone and in a transaction: read back at once.
      await write('OWN-1').execute();
      expect(await seal()).toBe('OWN-1');
      await lenient.db
        .transaction()
        .execute((trx) =>
          trx
            .updateTable('containers')
            .set({ seal_number: 'OWN-2' })
            .where('id', '=', id)
            .execute(),
        );
      expect(await seal()).toBe('OWN-2');

      // Another instance's commit shows once its announcement has arrived.
      await other.db
        .updateTable('containers')
        .set({ seal_number: 'OTHER' })
        .where('id', '=', id)
        .execute();
      await expect.poll(seal, { timeout: 5_000, interval: 20 }).toBe('OTHER');
    } finally {
      await lenient.close();
    }
  });

  it('announces each commit of an instance before its caller hears back, and nothing else', async () => {
    // A database of its own: no service's background work announces anything there.
    const url = await createDatabaseIn(inject('postgresUrl'));
    const instance = await openDatabase(t.dataDir, { postgres: { url, readStalenessMs: 0 } });
    const listener = new pg.Client({ connectionString: url });
    const heard: string[] = [];
    listener.on('notification', (n) => heard.push(n.payload ?? ''));
    await listener.connect();
    await listener.query(`LISTEN ${CHANGES_CHANNEL}`);
    /** The announcements heard before a marker sent now (announcements arrive in commit order). */
    let markers = 0;
    const announcedBeforeNow = async () => {
      const marker = `marker-${++markers}`;
      await listener.query(`NOTIFY ${CHANGES_CHANNEL}, '${marker}'`);
      await expect.poll(() => heard.includes(marker)).toBe(true);
      const count = heard.indexOf(marker);
      heard.splice(0, count + 1);
      return count;
    };
    const { db } = instance;
    try {
      expect(await announcedBeforeNow()).toBe(0);
      // A statement that commits by itself: announced once it has, before the caller goes on.
      await db.updateTable('accounts').set({ name: 'renamed' }).execute();
      expect(await announcedBeforeNow()).toBe(1);
      // Reads announce nothing; a transaction is announced once, at its commit.
      await db.selectFrom('accounts').selectAll().execute();
      expect(await announcedBeforeNow()).toBe(0);
      await db.transaction().execute(async (trx) => {
        await trx.updateTable('accounts').set({ name: 'one' }).execute();
        await trx.updateTable('accounts').set({ name: 'two' }).execute();
      });
      expect(await announcedBeforeNow()).toBe(1);
      // One rolled back changed nothing: not announced.
      await expect(
        db.transaction().execute(async (trx) => {
          await trx.updateTable('accounts').set({ name: 'never' }).execute();
          throw new Error('rolled back');
        }),
      ).rejects.toThrow('rolled back');
      expect(await announcedBeforeNow()).toBe(0);
    } finally {
      await listener.end();
      await instance.close();
    }
  });

  it('hears announcements on a connection of its own, not at all while it is down, and again once it is back', async () => {
    const lost: string[] = [];
    const announcements = new ChangeAnnouncements({
      url: t.database!.url,
      connectTimeoutMs: 5_000,
      retryDelaysMs: [50],
      onConnectionError: (error) => lost.push(error.message),
    });
    const database = new URL(t.database!.url).pathname.slice(1);
    // On the cluster's own database, kept open throughout: it lets the test's database take
    // connections again whatever happens.
    const admin = new pg.Client({ connectionString: inject('postgresUrl') });
    await admin.connect();
    try {
      await announcements.start();
      const listening = announcements.epoch();
      expect(listening).not.toBeNull();
      const seeded = await seedShipment(t, t.accountA, 'MEDU900000307');
      await expect.poll(() => announcements.epoch()).not.toBe(listening);

      // Lost, and kept from listening again while the database refuses new connections.
      await admin.query(`ALTER DATABASE ${database} WITH ALLOW_CONNECTIONS false`);
      await admin.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
         WHERE application_name = 'quayside listener' AND datname = $1`,
        [database],
      );
      await expect.poll(() => announcements.epoch()).toBeNull();
      await expect.poll(() => lost.length).toBeGreaterThan(0);
      await admin.query(`ALTER DATABASE ${database} WITH ALLOW_CONNECTIONS true`);
      await expect.poll(() => announcements.epoch(), { timeout: 10_000 }).not.toBeNull();
      const back = announcements.epoch();
      await t.service.store.tracking.addTransportEvent(seeded.containers[0]!.id, {
        event: 'container.transport.vessel_departed',
        dataSource: 'shipping_line',
        timestamp: new Date(t.clock.now()).toISOString(),
        locationLocode: 'USLAX',
      });
      await expect.poll(() => announcements.epoch()).not.toBe(back);
    } finally {
      await admin.query(`ALTER DATABASE ${database} WITH ALLOW_CONNECTIONS true`);
      await admin.end();
      await announcements.close();
    }
  });

  it('never answers a read asked after a commit with what was kept before it', async () => {
    const seeded = await seedShipment(t, t.accountA, 'MEDU900000302');
    const id = seeded.containers[0]!.id;
    const seal = keptSeal(id).read;
    // Asks keep coming while commits land between them: each ask made after a commit shows it.
    for (let i = 0; i < 20; i++) {
      const asks = [seal(), seal()];
      await onAnotherConnection([
        'update containers set seal_number = $1 where id = $2',
        [`S-${i}`, id],
      ]);
      expect(await seal()).toBe(`S-${i}`);
      await Promise.all(asks);
    }
  });
});
