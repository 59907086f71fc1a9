import Database from 'better-sqlite3';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BOARD_COLUMNS, BOARD_VIEWS, type BoardRow } from '../../../src/main/cache/board-query';
import { Cache, CACHE_FILE } from '../../../src/main/cache/cache';
import { MIGRATIONS } from '../../../src/main/cache/migrations';
import { addCost, containerCost, NO_COST, type CostFacts } from '../../../src/shared/cost-clock';
import { DEFAULT_SETTINGS } from '../../../src/shared/settings';
import { exportContainersCsv } from '../../../src/main/sync/command';
import {
  container,
  shipment,
  tempDir,
  terminal,
  transportEvent,
} from '../../support/cache-fixtures';

const NOW = Date.parse('2026-03-01T12:00:00.000Z');
const H = 3_600_000;
const at = (hours: number) => new Date(NOW + hours * H).toISOString();

let tmp: ReturnType<typeof tempDir>;
let cache: Cache;

beforeEach(() => {
  tmp = tempDir();
  cache = Cache.open(tmp.dir);
});
afterEach(() => {
  cache.close();
  tmp.remove();
});

/** A small account: two shipments, five containers in distinct situations. */
function seed() {
  const apm = terminal('APM Terminals Pier 400');
  const tti = terminal('Total Terminals International');
  const s1 = shipment({
    bill_of_lading_number: 'MAEU900000001',
    shipping_line_scac: 'MAEU',
    customer_name: 'Acme Imports',
    pod_vessel_name: 'MAERSK ESSEN',
    pod_voyage_number: '412E',
    port_of_discharge_locode: 'USLAX',
    pod_eta_at: at(-48),
    pod_ata_at: at(-40),
    pol_atd_at: at(-500),
    ref_numbers: ['PO-7781'],
  });
  const s2 = shipment({
    bill_of_lading_number: 'MEDU500000002',
    shipping_line_scac: 'MSCU',
    customer_name: 'Globex',
    pod_vessel_name: 'MSC ANNA',
    pod_voyage_number: 'FA301',
    port_of_discharge_locode: 'USLGB',
    pol_atd_at: at(-200),
    pod_eta_at: at(72),
  });
  const ready = container(
    {
      number: 'MSKU1111110',
      current_status: 'available',
      availability_known: true,
      available_for_pickup: true,
      pod_arrived_at: at(-40),
      pod_discharged_at: at(-30),
      pickup_lfd: at(20),
      import_deadlines: {
        pickup_lfd_line: at(20),
        pickup_lfd_terminal: at(44),
        pickup_lfd_rail: null,
      },
      fees_at_pod_terminal: [
        { type: 'demurrage', amount: 100.5, currency_code: 'USD' },
        { type: 'exam', amount: 50, currency_code: 'USD' },
        { type: 'total', amount: 150.5, currency_code: 'USD' },
      ],
    },
    { shipmentId: s1.id, terminalId: apm.id },
  );
  const held = container(
    {
      number: 'MSKU2222220',
      ref_numbers: ['JOB-42'],
      current_status: 'not_available',
      availability_known: true,
      available_for_pickup: false,
      pod_arrived_at: at(-40),
      pickup_lfd: at(60),
      import_deadlines: {
        pickup_lfd_line: null,
        pickup_lfd_terminal: at(60),
        pickup_lfd_rail: null,
      },
      holds_at_pod_terminal: [
        { name: 'customs', status: 'hold', description: 'CBP exam' },
        { name: 'freight', status: 'pending', description: null },
      ],
    },
    { shipmentId: s1.id, terminalId: tti.id },
  );
  const overdue = container(
    {
      number: 'MSKU3333330',
      current_status: 'available',
      availability_known: true,
      available_for_pickup: true,
      holds_at_pod_terminal: [{ name: 'line', status: 'hold', description: null }],
      pickup_lfd: at(-5),
    },
    { shipmentId: s1.id, terminalId: apm.id },
  );
  const pickedUp = container(
    {
      number: 'MSKU4444440',
      current_status: 'picked_up',
      pod_full_out_at: at(-2),
      pickup_lfd: at(10),
    },
    { shipmentId: s1.id, terminalId: apm.id },
  );
  const atSea = container(
    { number: 'MEDU5555550', current_status: 'on_ship' },
    { shipmentId: s2.id },
  );
  const events = new Map([
    [
      ready.id,
      [
        transportEvent(ready.id, 'container.transport.vessel_discharged', at(-30)),
        transportEvent(ready.id, 'container.transport.vessel_arrived', at(-40)),
      ],
    ],
  ]);
  const outcome = cache.applyPage(
    {
      shipments: [s1, s2],
      containers: [ready, held, overdue, pickedUp, atSea],
      terminals: [apm, tti],
      events,
    },
    at(0),
  );
  return { s1, s2, ready, held, overdue, pickedUp, atSea, apm, tti, events, outcome };
}

const numbers = (rows: BoardRow[]) => rows.map((r) => r.number);

/** Runs a board scan written in steps to its end, as the handlers do a turn at a time. */
function inSteps<T>(steps: Generator<void, T>): { value: T; steps: number } {
  for (let count = 1; ; count++) {
    const step = steps.next();
    if (step.done) return { value: step.value, steps: count };
  }
}

describe('cache file and migrations', () => {
  it('creates the schema at the latest version in WAL mode and reopens without re-running migrations', () => {
    expect(cache.schemaVersion()).toBe(MIGRATIONS.length);
    expect(cache.db.pragma('journal_mode', { simple: true })).toBe('wal');
    seed();
    cache.close();
    cache = Cache.open(tmp.dir);
    expect(cache.schemaVersion()).toBe(MIGRATIONS.length);
    expect(cache.counts()).toEqual({ shipments: 2, containers: 5, events: 2 });
    expect(cache.integrityCheck()).toBe('ok');
  });

  it('upgrades a cache file of schema 1 (one row per event), keeping every event in display order', () => {
    cache.close();
    const file = join(tmp.dir, 'old', CACHE_FILE);
    mkdirSync(join(tmp.dir, 'old'));
    const old = new Database(file);
    old.exec(MIGRATIONS[0]!);
    old.pragma('user_version = 1');
    const c = container(
      {
        number: 'MSKU7777770',
        import_deadlines: {
          pickup_lfd_line: null,
          pickup_lfd_terminal: '2026-03-02T08:00:00Z',
          pickup_lfd_rail: null,
        },
      },
      {},
    );
    old
      .prepare(
        `INSERT INTO containers (id, number, ref_numbers, current_status, availability_known, ready,
           holds_count, hash, json, first_seen_at, synced_at, events_stale)
         VALUES (?, ?, '', 'new', 0, 0, 0, 'h', ?, ?, ?, 0)`,
      )
      .run(c.id, c.attributes.number, JSON.stringify(c), at(0), at(0));
    const undated = {
      ...transportEvent(c.id, 'container.transport.vessel_departed', at(-90)),
      attributes: {
        ...transportEvent(c.id, 'container.transport.vessel_departed', at(-90)).attributes,
        timestamp: null,
      },
    };
    const events = [
      transportEvent(c.id, 'container.transport.vessel_arrived', at(-40)),
      undated,
      transportEvent(c.id, 'container.transport.vessel_discharged', at(-30)),
    ];
    const insert = old.prepare(
      `INSERT INTO transport_events (id, container_id, event, timestamp, data_source, created_at, json)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    );
    for (const e of events) {
      const a = e.attributes;
      insert.run(e.id, c.id, a.event, a.timestamp, a.data_source, a.created_at, JSON.stringify(e));
    }
    old
      .prepare("INSERT INTO sync_state (key, value) VALUES ('containers_cursor', ?)")
      .run(JSON.stringify(at(0)));
    old.close();

    cache = Cache.openFile(file);
    expect(cache.schemaVersion()).toBe(MIGRATIONS.length);
    // Schema 4 made the search index again (with custom fields): the old rows are in it, and
    // the next sync walks everything to bring the values of records that did not change.
    expect(cache.board.containers({ search: 'MSKU7777770' }, Date.parse(at(0))).total).toBe(1);
    expect(cache.getState('containers_cursor')).toBeNull();
    expect(cache.counts()).toEqual({ shipments: 0, containers: 1, events: 3 });
    expect(cache.eventsOf(c.id)).toEqual([events[2], events[0], undated]);
    // Rows cached before the per-zone deadlines existed get them from their stored JSON.
    expect(cache.board.containerDetail(c.id)!.row.deadlines).toMatchObject([
      { source: 'terminal', date: '2026-03-02', zone: 'America/Los_Angeles' },
    ]);
    expect(cache.board.containerDetail(c.id)!.events.map((e) => e.id)).toEqual(
      [events[2], events[0], undated].map((e) => e.id),
    );
    expect(cache.integrityCheck()).toBe('ok');
  });

  it('checkpoints the log off the writing thread, during a run of writes and at its end', async () => {
    const file = join(tmp.dir, CACHE_FILE);
    const mainFileSize = () => statSync(file).size;
    const grown = async (before: number) => {
      const deadline = Date.now() + 10_000;
      while (mainFileSize() <= before && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return mainFileSize() > before;
    };
    // The writer's own threshold is a backstop far above what this test writes.
    expect(cache.db.pragma('wal_autocheckpoint', { simple: true })).toBe(20_000);
    const before = mainFileSize();
    for (let i = 0; i < 40; i++) {
      const c = container({ number: `MSKU${String(i).padStart(6, '0')}0` });
      const events = Array.from({ length: 20 }, (_, j) =>
        transportEvent(c.id, 'container.transport.vessel_arrived', at(-j)),
      );
      cache.applyPage({ containers: [c], events: new Map([[c.id, events]]) }, at(0));
    }
    // Far below the writer's own threshold, so only the worker can have copied pages into the
    // database file.
    expect(await grown(before)).toBe(true);
    // Once the file stops growing: a few writes (fewer than make the worker checkpoint by
    // themselves), then the run's end.
    let afterRun = -1;
    while (mainFileSize() !== afterRun) {
      afterRun = mainFileSize();
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    for (let i = 40; i < 44; i++) {
      cache.applyPage(
        { containers: [container({ number: `MSKU${String(i).padStart(6, '0')}0` })] },
        at(0),
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(mainFileSize()).toBe(afterRun);
    cache.requestCheckpoint();
    expect(await grown(afterRun)).toBe(true);
    expect(cache.counts()).toEqual({ shipments: 0, containers: 44, events: 800 });
    expect(cache.integrityCheck()).toBe('ok');
  });

  it('leaves no connection open once closed after a run of writes, so its folder can be removed', async () => {
    for (let round = 0; round < 3; round++) {
      const dir = join(tmp.dir, `round-${round}`);
      const bulk = Cache.open(dir);
      const size = () => statSync(join(dir, CACHE_FILE)).size;
      const before = size();
      for (let i = 0; i < 40; i++) {
        const c = container({ number: `MSKU${String(i).padStart(6, '0')}0` });
        bulk.applyPage({ containers: [c] }, at(0));
      }
      // The checkpointing connection is open once it has copied pages into the file.
      const deadline = Date.now() + 10_000;
      while (size() <= before && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      bulk.close();
      // The last connection to close folds the log into the database file and removes it: a
      // checkpointing connection still open would keep it.
      expect(readdirSync(dir)).toEqual([CACHE_FILE]);
      rmSync(dir, { recursive: true });
      expect(existsSync(dir)).toBe(false);
    }
  });

  it('refuses a cache file written by a newer schema instead of corrupting it', () => {
    cache.close();
    const raw = new Database(join(tmp.dir, CACHE_FILE));
    raw.pragma(`user_version = ${MIGRATIONS.length + 1}`);
    raw.close();
    expect(() => Cache.open(tmp.dir)).toThrow(/newer Quayside/);
    cache = Cache.openFile(join(tmp.dir, 'other', CACHE_FILE));
  });

  it('has STRICT tables that reject values of the wrong type', () => {
    const insert = cache.db.prepare(
      `INSERT INTO containers (id, number, ref_numbers, current_status, availability_known, ready,
         holds_count, hash, json, first_seen_at, synced_at) VALUES (?, ?, '', 'new', ?, 0, ?, 'h', '{}', 'x', 'x')`,
    );
    expect(() => insert.run('a', 'N1', 'yes', 0)).toThrow(
      /cannot store TEXT value in INTEGER column/,
    );
    expect(() => insert.run('b', 'N2', 0, 'many')).toThrow(
      /cannot store TEXT value in INTEGER column/,
    );
    expect(() => insert.run('c', 'N3', 0, 1.5)).toThrow(
      /cannot store REAL value in INTEGER column/,
    );
    expect(cache.counts().containers).toBe(0);
  });
});

describe('applying pages', () => {
  it('projects the board columns from the resources', () => {
    const { ready, held } = seed();
    const page = cache.board.containers({ sort: { column: 'number', direction: 'asc' } }, NOW);
    const r = page.rows.find((x) => x.id === ready.id)!;
    expect(r).toMatchObject({
      billOfLading: 'MAEU900000001',
      lineScac: 'MAEU',
      podLocode: 'USLAX',
      terminalName: 'APM Terminals Pier 400',
      vessel: 'MAERSK ESSEN',
      voyage: '412E',
      ready: true,
      holdsCount: 0,
      feesAmount: 150.5,
      feesCurrency: 'USD',
      lfd: at(20),
      lfdSource: 'line',
      podTimezone: 'America/Los_Angeles',
    });
    const h = page.rows.find((x) => x.id === held.id)!;
    // Only the active hold counts; the binding LFD is the terminal's when the line has none.
    expect(h).toMatchObject({
      holdsCount: 1,
      ready: false,
      lfdSource: 'terminal',
      feesAmount: null,
    });
  });

  it('re-applying the same page changes nothing and duplicates nothing', () => {
    const first = seed();
    expect(first.outcome.containersChanged).toBe(5);
    const again = cache.applyPage(
      {
        shipments: [first.s1, first.s2],
        containers: [first.ready, first.held, first.overdue, first.pickedUp, first.atSea],
        terminals: [first.apm, first.tti],
        events: first.events,
      },
      at(1),
    );
    expect(again).toMatchObject({ shipmentsChanged: 0, containersChanged: 0 });
    expect(cache.counts()).toEqual({ shipments: 2, containers: 5, events: 2 });
    const fts = cache.db.prepare('SELECT count(*) AS n FROM container_search').get() as {
      n: number;
    };
    expect(fts.n).toBe(5);
    expect(cache.integrityCheck()).toBe('ok');
  });

  it('replaces a changed record in place and keeps the search index in step', () => {
    const { s1, ready } = seed();
    const renamed = shipment(
      { ...s1.attributes, customer_name: 'Initech', updated_at: at(1) },
      s1.id,
    );
    const outcome = cache.applyPage({ shipments: [renamed] }, at(1));
    expect(outcome.shipmentsChanged).toBe(1);
    expect(numbers(cache.board.containers({ search: 'initech' }, NOW).rows)).toContain(
      'MSKU1111110',
    );
    expect(cache.board.containers({ search: 'acme' }, NOW).total).toBe(0);
    const moved = container(
      { ...ready.attributes, pickup_lfd: at(30), updated_at: at(1) },
      {
        id: ready.id,
        shipmentId: s1.id,
      },
    );
    cache.applyPage({ containers: [moved] }, at(1));
    expect(cache.getContainer(ready.id)?.attributes.pickup_lfd).toBe(at(30));
    expect(cache.counts().containers).toBe(5);
    expect(numbers(cache.board.containers({ search: 'initech' }, NOW).rows)).toContain(
      'MSKU1111110',
    );
  });

  it('keeps a changed box with its history current, and marks one written without it', () => {
    const { ready, held } = seed();
    const history = cache.board.containerDetail(ready.id)!.events;
    const moved = (c: typeof ready) =>
      container(
        { ...c.attributes, pickup_lfd: at(30), updated_at: at(1) },
        { id: c.id, shipmentId: c.relationships!.shipment!.data!.id },
      );
    // The page holds the box's whole (unchanged) history: nothing is left to fetch.
    cache.applyPage({ containers: [moved(ready)], events: new Map([[ready.id, history]]) }, at(1));
    expect(cache.staleEventContainers()).not.toContain(ready.id);
    expect(cache.board.containerDetail(ready.id)!.events).toEqual(history);
    // A page without the history: the events step is asked to fetch it.
    cache.applyPage({ containers: [held], events: new Map([[held.id, []]]) }, at(0));
    expect(cache.staleEventContainers()).not.toContain(held.id);
    cache.applyPage({ containers: [moved(held)] }, at(1));
    expect(cache.staleEventContainers()).toContain(held.id);
    // A new event in the history is stored, newest first.
    const arrivedLater = transportEvent(ready.id, 'container.transport.full_out', at(2));
    cache.applyPage(
      {
        containers: [
          container({ ...moved(ready).attributes, updated_at: at(2) }, { id: ready.id }),
        ],
        events: new Map([[ready.id, [...history, arrivedLater]]]),
      },
      at(2),
    );
    expect(cache.board.containerDetail(ready.id)!.events.map((e) => e.id)).toEqual([
      arrivedLater.id,
      ...history.map((e) => e.id),
    ]);
  });

  it('stores a history whose event changed in place (same ids), and keeps an unchanged one', () => {
    const { ready } = seed();
    const history = cache.board.containerDetail(ready.id)!.events;
    const version = (n: number) =>
      container(
        { ...ready.attributes, pickup_lfd: at(30 + n), updated_at: at(n) },
        { id: ready.id, shipmentId: ready.relationships!.shipment!.data!.id },
      );
    const corrected = history.map((e, i) =>
      i === 0 ? { ...e, attributes: { ...e.attributes, location_locode: 'USOAK' } } : e,
    );
    cache.applyPage({ containers: [version(1)], events: new Map([[ready.id, corrected]]) }, at(1));
    expect(cache.board.containerDetail(ready.id)!.events).toEqual(corrected);
    const stored = () =>
      cache.db.prepare('SELECT hash, json FROM container_events').all() as {
        hash: string;
        json: string;
      }[];
    const before = stored();
    cache.applyPage({ containers: [version(2)], events: new Map([[ready.id, corrected]]) }, at(2));
    expect(stored()).toEqual(before);
    expect(cache.board.containerDetail(ready.id)!.events).toEqual(corrected);
  });

  it('finds a record by each searched field after that field alone changes', () => {
    const { s1, s2, ready } = seed();
    const search = (text: string) =>
      numbers(cache.board.containers({ search: text }, NOW).rows).sort();
    const onS1 = search('MAEU900000001');
    expect(onS1).toContain('MSKU1111110');

    const renamedVessel = shipment(
      { ...s1.attributes, pod_vessel_name: 'MAERSK KOLKATA', pod_voyage_number: '9W' },
      s1.id,
    );
    cache.applyPage({ shipments: [renamedVessel] }, at(1));
    expect(search('kolkata 9W')).toEqual(onS1);
    expect(search('essen')).toEqual([]);

    const rebooked = shipment(
      { ...renamedVessel.attributes, bill_of_lading_number: 'MAEU900000777', ref_numbers: [] },
      s1.id,
    );
    cache.applyPage({ shipments: [rebooked] }, at(2));
    expect(search('MAEU900000777')).toEqual(onS1);
    expect(search('PO-7781')).toEqual([]);

    const renumbered = container(
      { ...ready.attributes, number: 'MSKU9999990', ref_numbers: ['JOB-77'] },
      { id: ready.id, shipmentId: s1.id },
    );
    cache.applyPage({ containers: [renumbered] }, at(3));
    expect(search('MSKU9999990')).toEqual(['MSKU9999990']);
    expect(search('JOB-77')).toEqual(['MSKU9999990']);
    expect(search('MSKU1111110')).toEqual([]);

    // Moved to the other shipment: found by that shipment's fields, no longer by the first's.
    const moved = container(renumbered.attributes, { id: ready.id, shipmentId: s2.id });
    cache.applyPage({ containers: [moved] }, at(4));
    expect(search('MEDU500000002')).toContain('MSKU9999990');
    expect(search('MAEU900000777')).not.toContain('MSKU9999990');

    // A change of dates only keeps the entries as they are.
    const later = container(
      { ...moved.attributes, pickup_lfd: at(50) },
      { id: ready.id, shipmentId: s2.id },
    );
    expect(cache.applyPage({ containers: [later] }, at(5)).containersChanged).toBe(1);
    expect(search('MSKU9999990')).toEqual(['MSKU9999990']);
    expect(search('globex')).toContain('MSKU9999990');
    expect(cache.integrityCheck()).toBe('ok');
  });

  it('removes what a complete walk no longer lists, with its events and search rows', () => {
    const { ready, held, overdue, pickedUp } = seed();
    const removed = cache.deleteMissing('containers', new Set([held.id, overdue.id, pickedUp.id]));
    expect(removed).toBe(2);
    expect(cache.getContainer(ready.id)).toBeNull();
    expect(cache.eventsOf(ready.id)).toEqual([]);
    expect(cache.board.containers({ search: 'MSKU1111110' }, NOW).total).toBe(0);
    expect(cache.integrityCheck()).toBe('ok');
  });
});

describe('board queries', () => {
  it('finds containers by number prefix, BL, reference, vessel and customer', () => {
    seed();
    const search = (text: string) =>
      numbers(cache.board.containers({ search: text }, NOW).rows).sort();
    expect(search('MSKU111')).toEqual(['MSKU1111110']);
    expect(search('MEDU500000002')).toEqual(['MEDU5555550']);
    expect(search('PO-7781')).toHaveLength(4);
    expect(search('JOB-42')).toEqual(['MSKU2222220']);
    expect(search('msc anna')).toEqual(['MEDU5555550']);
    expect(search('globex')).toEqual(['MEDU5555550']);
    expect(search('nothing-like-this')).toEqual([]);
    // Query syntax from the user is data, not FTS syntax.
    expect(search('"MSKU1111110" OR *')).toEqual([]);
    expect(search('MSKU1111110 "')).toEqual(['MSKU1111110']);
  });

  it('filters on status, line, POD, terminal, customer, LFD window, holds and readiness', () => {
    seed();
    const q = (query: Parameters<Cache['board']['containers']>[0]) =>
      numbers(cache.board.containers(query, NOW).rows).sort();
    expect(q({ status: ['available'] })).toEqual(['MSKU1111110', 'MSKU3333330']);
    expect(q({ line: ['MSCU'] })).toEqual(['MEDU5555550']);
    expect(q({ pod: ['USLAX'] })).toHaveLength(4);
    expect(q({ terminal: ['Total Terminals International'] })).toEqual(['MSKU2222220']);
    expect(q({ customer: ['Globex'] })).toEqual(['MEDU5555550']);
    expect(q({ customer: ['Acme Imports', 'Globex'] })).toHaveLength(5);
    expect(q({ customer: ['Initech'] })).toEqual([]);
    expect(q({ lfdFrom: at(0), lfdTo: at(48) })).toEqual(['MSKU1111110', 'MSKU4444440']);
    expect(q({ hasHolds: true })).toEqual(['MSKU2222220', 'MSKU3333330']);
    expect(q({ hasHolds: false })).toHaveLength(3);
    expect(q({ ready: true })).toEqual(['MSKU1111110']);
    expect(q({ status: ['available'], hasHolds: true })).toEqual(['MSKU3333330']);
    expect(() => q({ lfdFrom: 'next tuesday' })).toThrow(/not a date-time/);
  });

  it('serves the built-in views relative to the clock', () => {
    seed();
    const view = (v: (typeof BOARD_VIEWS)[number]) =>
      numbers(cache.board.containers({ view: v }, NOW).rows).sort();
    // 04:00 PST on 1 Mar: MSKU1111110's line LFD is 2 Mar (tomorrow), so only the overdue box.
    expect(view('needs_action_today')).toEqual(['MSKU3333330']);
    expect(view('lfd_next_3_days')).toEqual(['MSKU1111110', 'MSKU2222220']);
    expect(view('on_hold')).toEqual(['MSKU2222220', 'MSKU3333330']);
    expect(view('ready_for_pickup')).toEqual(['MSKU1111110']);
    expect(view('arriving_this_week')).toEqual(['MEDU5555550']);
    expect(view('at_sea')).toEqual(['MEDU5555550']);
    // The badges count the same boxes, whether in one step or a range of two positions per step.
    for (const span of [2000, 2]) {
      const counts = inSteps(cache.board.viewCountsInSteps(NOW, span));
      expect(counts.steps).toBe(span === 2 ? 3 : 1);
      for (const v of BOARD_VIEWS) expect(counts.value[v], v).toBe(view(v).length);
    }
    // Three days later the LFDs have passed: overdue ones need action, none is "in the next 3 days".
    expect(numbers(cache.board.containers({ view: 'lfd_next_3_days' }, NOW + 72 * H).rows)).toEqual(
      [],
    );
  });

  it('counts the values of the filter menus over every box, a range of positions per step', () => {
    seed();
    const stepped = inSteps(cache.board.facetsInSteps(2));
    expect(stepped.steps).toBe(3);
    const once = stepped.value;
    expect(once.line).toEqual([
      { value: 'MAEU', count: 4 },
      { value: 'MSCU', count: 1 },
    ]);
    expect(once.terminal).toEqual([
      { value: 'APM Terminals Pier 400', count: 3 },
      { value: 'Total Terminals International', count: 1 },
    ]);
    expect(once.status.map((f) => f.value)).toEqual([
      'available',
      'not_available',
      'on_ship',
      'picked_up',
    ]);
    expect(once.status.find((f) => f.value === 'available')?.count).toBe(2);
    expect(once.pod).toEqual([
      { value: 'USLAX', count: 4 },
      { value: 'USLGB', count: 1 },
    ]);
    expect(once.customer).toEqual([
      { value: 'Acme Imports', count: 4 },
      { value: 'Globex', count: 1 },
    ]);
    // Kept while nothing changes; counted again after a sync writes.
    expect(inSteps(cache.board.facetsInSteps(2))).toEqual({ value: once, steps: 1 });
    const s3 = shipment({ shipping_line_scac: 'HLCU' });
    cache.applyPage(
      {
        shipments: [s3],
        containers: [container({ number: 'HLXU1234560' }, { shipmentId: s3.id })],
      },
      at(1),
    );
    const after = inSteps(cache.board.facetsInSteps(2));
    expect(after.steps).toBeGreaterThan(1);
    expect(after.value.line.map((f) => f.value)).toEqual(['HLCU', 'MAEU', 'MSCU']);
  });

  it('matches terminal and port names in the filter, with % and _ taken literally', () => {
    seed();
    const search = (text: string) =>
      numbers(cache.board.containers({ search: text }, NOW).rows).sort();
    expect(search('pier 400')).toEqual(['MSKU1111110', 'MSKU3333330', 'MSKU4444440']);
    expect(search('Total Terminals')).toEqual(['MSKU2222220']);
    expect(search('uslgb')).toEqual(['MEDU5555550']);
    expect(search('%')).toEqual([]);
    expect(search('Total_Terminals')).toEqual([]);
    expect(search('Pier%400')).toEqual([]);
  });

  it('narrows the cost sums to boxes that cost or may cost by tomorrow', () => {
    seed();
    const { facts, next } = cache.board.costFactsPage({}, NOW, 0);
    expect(next).toBeNull();
    // MSKU1111110 (free time ends within a day; fees reported), MSKU3333330 (overdue) and
    // MSKU4444440 (picked up: per diem), of the board's five.
    expect(facts).toHaveLength(3);
    expect(facts.filter((f) => f.pickedUpAt)).toHaveLength(1);
    expect(facts.filter((f) => (f.feesAmount ?? 0) > 0)).toHaveLength(1);
    const board = cache.board.containers({}, NOW).rows;
    expect(board).toHaveLength(5);
    // The rows left out cost nothing: the sum is the whole board's.
    const sum = (rows: readonly CostFacts[]) =>
      rows.reduce((t, f) => addCost(t, containerCost(f, DEFAULT_SETTINGS.costs, NOW)), NO_COST);
    expect(sum(facts)).toEqual(sum(board));
  });

  it('walks the cost facts a page at a time, every row once, across pages', () => {
    const { s1 } = seed();
    const picked = Array.from({ length: 25 }, (_, i) =>
      container(
        { number: `PKDU${String(i).padStart(6, '0')}0`, pod_full_out_at: at(-2) },
        { shipmentId: s1.id },
      ),
    );
    cache.applyPage({ containers: picked }, at(0));
    const walked: { pickedUpAt: string | null | undefined }[] = [];
    let pages = 0;
    for (let after: number | null = 0; after !== null; pages++) {
      const page = cache.board.costFactsPage({}, NOW, after, 7);
      walked.push(...page.facts);
      after = page.next;
    }
    const all = cache.board.containers({ limit: 1000 }, NOW).rows;
    expect(pages).toBeGreaterThan(3);
    expect(walked).toHaveLength(25 + 3);
    expect(walked.filter((f) => f.pickedUpAt).length).toBe(all.filter((r) => r.pickedUpAt).length);
    // The same sums as from the full board rows.
    const sum = (facts: readonly CostFacts[]) =>
      facts.reduce(
        (total, f) => addCost(total, containerCost(f, DEFAULT_SETTINGS.costs, NOW)),
        NO_COST,
      );
    expect(sum(walked as CostFacts[])).toEqual(sum(all));
    expect(sum(all).accrued + sum(all).perDiem).toBeGreaterThan(0);
    // The query's own filter still applies on every page; a filter matching no more rows than a
    // page holds is read at once.
    expect(cache.board.costFactsPage({ search: 'PKDU' }, NOW, 0, 100)).toMatchObject({
      next: null,
    });
    expect(cache.board.costFactsPage({ search: 'PKDU' }, NOW, 0, 100).facts).toHaveLength(25);
    const one = cache.board.costFactsPage({ search: 'PKDU0000070' }, NOW, 0, 7);
    expect(one.facts).toHaveLength(1);
    expect(one.next).toBeNull();
    // A wider filter is read a range of positions at a time, and still only its own rows.
    const byPosition: CostFacts[] = [];
    for (let after: number | null = 0; after !== null;) {
      const page = cache.board.costFactsPage({ search: 'PKDU' }, NOW, after, 7);
      byPosition.push(...page.facts);
      after = page.next;
    }
    expect(byPosition).toHaveLength(25);
    expect(sum(byPosition)).toEqual(sum(all.filter((r) => r.number.startsWith('PKDU'))));
  });

  it('hides completed (empty returned) containers unless asked to show them', () => {
    const { s1, apm } = seed();
    const returned = container(
      { number: 'MSKU6666660', current_status: 'empty_returned', pod_full_out_at: at(-90) },
      { shipmentId: s1.id, terminalId: apm.id },
    );
    cache.applyPage({ containers: [returned] }, at(1));
    const all = (showCompleted?: boolean) =>
      numbers(cache.board.containers({ showCompleted }, NOW).rows).sort();
    expect(all()).not.toContain('MSKU6666660');
    expect(all()).toHaveLength(5);
    expect(all(true)).toContain('MSKU6666660');
    expect(all(true)).toHaveLength(6);
    expect(numbers(cache.board.containers({ search: 'MSKU666' }, NOW).rows)).toEqual([]);
  });

  it('lists the worklist candidates: boxes still at or on their way to the terminal', () => {
    seed();
    expect(numbers(cache.board.worklistRows()).sort()).toEqual([
      'MEDU5555550',
      'MSKU1111110',
      'MSKU2222220',
      'MSKU3333330',
    ]);
  });

  it('counts "today" and the LFD filters by calendar days of each deadline\'s zone', () => {
    seed();
    const q = (query: Parameters<Cache['board']['containers']>[0], now: number) =>
      numbers(cache.board.containers(query, now).rows).sort();
    // MSKU1111110's line LFD is 2 Mar at Los Angeles: it needs action from 00:00 PST (08:00Z).
    const lfdMorning = Date.parse('2026-03-02T08:00:00Z');
    expect(q({ view: 'needs_action_today' }, lfdMorning - 1)).toEqual(['MSKU3333330']);
    expect(q({ view: 'needs_action_today' }, lfdMorning)).toEqual(['MSKU1111110', 'MSKU3333330']);
    expect(q({ lfdDue: 'today' }, lfdMorning)).toEqual(['MSKU1111110']);
    // Free time runs through 23:59 PST: overdue only from 00:00 PST on 3 Mar.
    expect(q({ lfdDue: 'overdue' }, lfdMorning + 24 * H - 1)).toEqual(['MSKU3333330']);
    expect(q({ lfdDue: 'overdue' }, lfdMorning + 24 * H)).toEqual(['MSKU1111110', 'MSKU3333330']);
    // By tomorrow at 04:00 PST on 1 Mar: the 2 Mar line LFD, not the 3 Mar terminal LFD.
    expect(q({ lfdDue: 'by_tomorrow' }, NOW)).toEqual(['MSKU1111110']);
    expect(q({ lfdDue: 'next_3_days' }, NOW)).toEqual(['MSKU1111110', 'MSKU2222220']);
    expect(q({ lfdDue: 'next_7_days' }, NOW)).toEqual(['MSKU1111110', 'MSKU2222220']);
    // Once the line LFD is past, the terminal LFD of 3 Mar still comes up as due today.
    expect(q({ lfdDue: 'today' }, Date.parse('2026-03-03T09:00:00Z'))).toEqual([
      'MSKU1111110',
      'MSKU2222220',
    ]);
    const row = cache.board.containers({ search: 'MSKU1111110' }, NOW).rows[0]!;
    expect(row.deadlines.map((d) => [d.source, d.date, d.zone, d.binding])).toEqual([
      ['line', '2026-03-02', 'America/Los_Angeles', true],
      ['terminal', '2026-03-03', 'America/Los_Angeles', false],
    ]);
  });

  it('sorts by every board column both ways with empty cells last', () => {
    seed();
    for (const column of BOARD_COLUMNS) {
      for (const direction of ['asc', 'desc'] as const) {
        const rows = cache.board.containers({ sort: { column, direction } }, NOW).rows;
        expect(rows).toHaveLength(5);
        const key = (r: BoardRow) => (r as unknown as Record<string, unknown>)[column];
        const values = rows.map(key);
        const firstNull = values.findIndex((v) => v === null);
        if (firstNull >= 0) expect(values.slice(firstNull).every((v) => v === null)).toBe(true);
        const present = values.filter((v) => v !== null) as (string | number | boolean)[];
        const sorted = [...present].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
        if (direction === 'desc') sorted.reverse();
        expect(present, `${column} ${direction}`).toEqual(sorted);
      }
    }
    expect(() =>
      cache.board.containers(
        { sort: { column: 'json; DROP TABLE x' as never, direction: 'asc' } },
        NOW,
      ),
    ).toThrow(/Unknown board column/);
  });

  it('pages through a large board with a stable total', () => {
    const s = shipment({ bill_of_lading_number: 'BULK0001' });
    const many = Array.from({ length: 250 }, (_, i) =>
      container(
        { number: `TEST${String(i).padStart(7, '0')}`, pickup_lfd: at(i) },
        { shipmentId: s.id },
      ),
    );
    for (let i = 0; i < many.length; i += 100) {
      cache.applyPage({ shipments: [s], containers: many.slice(i, i + 100) }, at(0));
    }
    const seen: string[] = [];
    for (let offset = 0; offset < 250; offset += 60) {
      const page = cache.board.containers(
        { offset, limit: 60, sort: { column: 'lfd', direction: 'asc' } },
        NOW,
      );
      expect(page.total).toBe(250);
      seen.push(...numbers(page.rows));
    }
    expect(seen).toHaveLength(250);
    expect(new Set(seen).size).toBe(250);
    expect(seen[0]).toBe('TEST0000000');
    expect(
      cache.board.containers({ offset: 240, limit: 60, search: 'TEST00001' }, NOW),
    ).toMatchObject({
      total: 100,
      rows: [],
    });
  });

  it('keeps the total of a filter across sorts and pages, and recounts after any write', () => {
    const s = shipment({ bill_of_lading_number: 'BULK0002', shipping_line_scac: 'MSCU' });
    const boxes = (from: number, n: number) =>
      Array.from({ length: n }, (_, i) =>
        container(
          { number: `TEST${String(from + i).padStart(7, '0')}`, current_status: 'on_ship' },
          { shipmentId: s.id },
        ),
      );
    const initial = boxes(0, 30);
    cache.applyPage({ shipments: [s], containers: initial }, at(0));
    const query = { line: ['MSCU'], status: ['on_ship' as const], limit: 10 };
    expect(cache.board.containers(query, NOW).total).toBe(30);
    const byNumber = { ...query, sort: { column: 'number' as const, direction: 'desc' as const } };
    expect(cache.board.containers({ ...byNumber, offset: 20 }, NOW).total).toBe(30);
    // New boxes from a sync, and one leaving the filter: the board's total follows at once.
    cache.applyPage({ containers: boxes(30, 5) }, at(1));
    expect(cache.board.containers(byNumber, NOW).total).toBe(35);
    const first = initial[0];
    cache.applyPage(
      {
        containers: [
          container(
            { ...first!.attributes, current_status: 'available', updated_at: at(2) },
            { id: first!.id, shipmentId: s.id },
          ),
        ],
      },
      at(2),
    );
    expect(cache.board.containers(query, NOW).total).toBe(34);
    // A write through another connection to the same file counts too.
    const other = new Database(join(tmp.dir, CACHE_FILE));
    other.prepare(`DELETE FROM containers WHERE number = 'TEST0000034'`).run();
    other.close();
    expect(cache.board.containers(query, NOW).total).toBe(33);
  });

  it('gives container detail with holds, fees, deadlines and events newest first', () => {
    const { ready } = seed();
    const detail = cache.board.containerDetail(ready.id)!;
    expect(detail.deadlines).toMatchObject({
      binding: at(20),
      bindingSource: 'line',
      terminal: at(44),
    });
    expect(detail.fees).toHaveLength(3);
    expect(detail.events.map((e) => e.attributes.event)).toEqual([
      'container.transport.vessel_discharged',
      'container.transport.vessel_arrived',
    ]);
    expect(detail.shipment?.attributes.bill_of_lading_number).toBe('MAEU900000001');
    expect(cache.board.containerDetail('00000000-0000-4000-8000-000000000000')).toBeNull();
  });

  it('lists shipments with container counts, and shipment detail', () => {
    const { s1 } = seed();
    const list = cache.board.shipments({});
    expect(list.total).toBe(2);
    expect(list.rows.find((r) => r.id === s1.id)?.containers).toBe(4);
    expect(cache.board.shipments({ search: 'globex' }).rows.map((r) => r.billOfLading)).toEqual([
      'MEDU500000002',
    ]);
    expect(numbers(cache.board.shipmentDetail(s1.id)!.containers)).toHaveLength(4);
  });

  it('exports a query as CSV, escaping quotes and formula-like text', async () => {
    const s = shipment({ customer_name: '=HYPERLINK("http://x")', bill_of_lading_number: 'BL,1' });
    cache.applyPage(
      { shipments: [s], containers: [container({ number: 'CSVU0000001' }, { shipmentId: s.id })] },
      at(0),
    );
    seed();
    cache.close();
    let text = '';
    const out = new Writable({
      write(chunk: Buffer, _enc, done) {
        text += chunk.toString();
        done();
      },
    });
    const rows = await exportContainersCsv(tmp.dir, out, { search: 'CSVU' });
    cache = Cache.open(tmp.dir);
    const lines = text.trimEnd().split('\r\n');
    expect(rows).toBe(1);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^Container,BL,Line,Status/);
    expect(lines[1]).toContain('"BL,1"');
    expect(lines[1]).toContain(`"'=HYPERLINK(""http://x"")"`);
  });
});

describe('due route maps', () => {
  it('finds every map due across the ranges it scans, and no other', () => {
    const departed = shipment({ pol_atd_at: at(-100) });
    const arrived = shipment({ pol_atd_at: at(-300), pod_ata_at: at(-10) });
    const waiting = shipment({});
    const expected = new Map<string, boolean>();
    for (let page = 0; page < 5; page++) {
      const containers = Array.from({ length: 500 }, (_, i) => {
        const n = page * 500 + i;
        const kind = n % 6;
        const of = kind < 3 ? departed : kind < 5 ? arrived : waiting;
        const c = container({ number: `MSCU${String(n).padStart(7, '0')}` }, { shipmentId: of.id });
        return { c, kind };
      });
      cache.applyPage(
        { shipments: [departed, arrived, waiting], containers: containers.map((x) => x.c) },
        at(0),
      );
      for (const { c, kind } of containers) {
        const map = (fetchedAt: string, completed = false) =>
          cache.putRouteMap({ containerId: c.id, geojson: '{}', fetchedAt, etag: null, completed });
        if (kind === 0) expected.set(c.id, false); // at sea, never fetched
        if (kind === 1) {
          map(at(-2)); // at sea, fetched before the refresh interval
          expected.set(c.id, false);
        }
        if (kind === 2) map(at(-0.5)); // at sea, fresh
        if (kind === 3) {
          map(at(-20)); // arrived since the last fetch: one final fetch
          expected.set(c.id, true);
        }
        if (kind === 4) map(at(-5), true); // arrived, final map stored
      }
    }
    const found = new Map<string, boolean>();
    let ranges = 0;
    for (let after: number | null = 0; after !== null; ranges++) {
      const scan = cache.dueRouteMaps(at(-1), after);
      for (const d of scan.due) found.set(d.id, d.arrived);
      after = scan.next;
    }
    expect(ranges).toBeGreaterThan(1);
    expect(found.size).toBe(expected.size);
    expect(new Map([...found].sort())).toEqual(new Map([...expected].sort()));
    expect(cache.containerArrived([...expected].find(([, a]) => a)![0])).toBe(true);
    expect(cache.containerArrived([...expected].find(([, a]) => !a)![0])).toBe(false);
  });
});
