/**
 * Syncing a Terminal49-compatible account: records shaped like the reference's examples, sparse
 * ones, string coordinates and weights, null optionals, unknown attributes, no `updated_at`.
 */
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Cache } from '../../../src/main/cache/cache';
import { BUDGET_WAIT_MESSAGE, SyncEngine } from '../../../src/main/sync/engine';
import { RequestBudget } from '../../../src/main/connection/request-budget';
import { testConnection } from '../../../src/main/sync/test-connection';
import { checkRecord, type SkippedRecord } from '../../../src/main/sync/validate';
import type { SyncStatus } from '../../../src/shared/bridge';
import { ManualClock } from '../../../src/shared/clock';
import { statusLabel } from '../../../src/shared/container';
import { startT49CompatibleServer, type T49Server } from '../../support/t49-compatible-server';
import { tempDir } from '../../support/cache-fixtures';

const START = Date.UTC(2026, 2, 1, 12);
const SHIPMENTS = 40;
const PER_SHIPMENT = 2;

/** What a served value is once numbers sent as strings are read as numbers. */
function asServed(attributes: Record<string, unknown> | undefined): Record<string, unknown> {
  const out = { ...attributes };
  if (typeof out.weight_in_lbs === 'string') out.weight_in_lbs = Number(out.weight_in_lbs);
  return out;
}

describe('sync of a Terminal49-compatible account', () => {
  let server: T49Server;
  let tmp: ReturnType<typeof tempDir>;
  let cache: Cache;
  let engine: SyncEngine;
  let skipped: SkippedRecord[];
  let statuses: SyncStatus[];

  beforeEach(async () => {
    server = await startT49CompatibleServer({
      shipments: SHIPMENTS,
      containersPerShipment: PER_SHIPMENT,
      active: 10,
    });
    tmp = tempDir('quayside-t49-');
    cache = Cache.open(tmp.dir);
    skipped = [];
    statuses = [];
    engine = new SyncEngine({
      cache,
      clock: new ManualClock(START),
      connection: () => ({ baseUrl: server.url, apiKey: server.apiKey }),
      onSkipped: (s) => skipped.push(s),
      onStatus: (s) => statuses.push(s),
      pageSize: 10,
    });
  });
  afterEach(async () => {
    cache.close();
    tmp.remove();
    await server.close();
  });

  it('stores every valid record, sparse ones too, with the values served (nulls included)', async () => {
    const result = await engine.sync();
    expect(result.skipped).toEqual([]);
    expect(skipped).toEqual([]);
    expect(result).toMatchObject({ shipments: SHIPMENTS, containers: SHIPMENTS * PER_SHIPMENT });

    for (let i = 0; i < SHIPMENTS; i++) {
      const served = server.shipment(i);
      const cached = cache.getShipment(served.id);
      expect(cached, `shipment ${i}`).not.toBeNull();
      // Every served attribute as served, unknown ones and nulls included; known attributes
      // the service left out are null.
      expect(cached!.attributes).toMatchObject(asServed(served.attributes));
      for (const [name, value] of Object.entries(cached!.attributes)) {
        if (!(name in served.attributes!)) expect(value, name).toBeNull();
      }
      for (let k = 0; k < PER_SHIPMENT; k++) {
        const container = server.container(i, k);
        const stored = cache.getContainer(container.id);
        expect(stored, `container ${i}/${k}`).not.toBeNull();
        expect(stored!.attributes).toMatchObject(asServed(container.attributes));
        const events = server.events(i, k);
        expect(
          cache
            .eventsOf(container.id)
            .map((e) => e.id)
            .sort(),
        ).toEqual(events.map((e) => e.id).sort());
        for (const event of events) {
          const storedEvent = cache.eventsOf(container.id).find((e) => e.id === event.id)!;
          expect(storedEvent.attributes).toMatchObject(event.attributes ?? {});
        }
      }
    }
    // The sparse ones really were sparse, and a string weight became a number.
    expect(Object.keys(server.shipment(4).attributes!)).toEqual(['bill_of_lading_number']);
    expect(cache.getShipment(server.shipmentId(4))!.attributes.shipping_line_scac).toBeNull();
    const weighed = cache.getContainer(server.containerId(0, 0))!.attributes;
    expect(weighed.weight_in_lbs).toBe(20_000);
    expect(weighed).toHaveProperty('last_status_refresh_source', 'terminal');

    // The views' data copes with a sparse container (attributes: only its number): no status
    // shows as a dash, lists are empty, nothing reads "null" or "undefined".
    const sparse = server.container(2, 0); // flat index 4: sparse
    expect(Object.keys(sparse.attributes!)).toEqual(['number']);
    const detail = cache.board.containerDetail(sparse.id)!;
    expect(detail.row.number).toBe(sparse.attributes!.number);
    expect(statusLabel(detail.row.status)).toBe('—');
    expect(detail).toMatchObject({ holds: [], fees: [] });
    expect(JSON.stringify(detail.row)).not.toMatch(/"(null|undefined)"/);
    const sparseShipment = cache.board.shipmentDetail(server.shipmentId(4))!;
    expect(sparseShipment.shipment.attributes.bill_of_lading_number).toBe(
      server.shipment(4).attributes!.bill_of_lading_number,
    );
  });

  it('keeps values beyond the documented enums as sent, and every sibling with them', async () => {
    // What real accounts carry: a rail data source, event names, statuses, hold statuses, fee
    // types, equipment and stop reasons the reference's lists do not name.
    const [i, k] = [38, 1];
    const events = server.events(i, k);
    expect(events.length).toBeGreaterThan(2);
    server.setAttributes(events[0]!.id, {
      data_source: 'rail',
      event: 'container.transport.rail_interchange',
    });
    server.setAttributes(events[2]!.id, { data_source: 'ocean_carrier_edi' });
    const odd = {
      current_status: 'in_bond_transfer',
      equipment_type: 'hazmat tank',
      equipment_height: 'super_high',
      equipment_length: 53,
      holds_at_pod_terminal: [
        { name: 'usda', status: 'released_pending_exam', description: null },
        { name: 'customs', status: 'hold', description: 'CBP exam' },
      ],
      fees_at_pod_terminal: [
        { type: 'storage', amount: 120, currency_code: 'USD' },
        { type: 'demurrage', amount: 300, currency_code: 'USD' },
      ],
    };
    server.setAttributes(server.containerId(i, k), odd);
    server.setAttributes(server.shipmentId(i), { line_tracking_stopped_reason: 'merged_shipment' });

    const result = await engine.sync();
    expect(result.skipped).toEqual([]);
    expect(result).toMatchObject({ shipments: SHIPMENTS, containers: SHIPMENTS * PER_SHIPMENT });

    const id = server.containerId(i, k);
    const stored = cache.eventsOf(id);
    expect(stored.map((e) => e.id).sort()).toEqual(events.map((e) => e.id).sort());
    const byId = new Map(stored.map((e) => [e.id, e.attributes]));
    expect(byId.get(events[0]!.id)).toMatchObject({
      data_source: 'rail',
      event: 'container.transport.rail_interchange',
    });
    expect(byId.get(events[2]!.id)).toMatchObject({ data_source: 'ocean_carrier_edi' });
    expect(cache.getContainer(id)!.attributes).toMatchObject(odd);
    expect(cache.getShipment(server.shipmentId(i))!.attributes).toMatchObject({
      line_tracking_stopped_reason: 'merged_shipment',
    });
    // Shown as sent: the status spelled out, both holds and both fees listed.
    const detail = cache.board.containerDetail(id)!;
    expect(statusLabel(detail.row.status)).toBe('In bond transfer');
    expect(detail.holds.map((h) => h.status)).toEqual(['released_pending_exam', 'hold']);
    expect(detail.fees.map((f) => f.type)).toEqual(['storage', 'demurrage']);
    expect(detail.events.map((e) => e.id).sort()).toEqual(events.map((e) => e.id).sort());
  });

  it("keeps the real service's attributes beyond the reference and hands the detail view those a dispatcher uses", async () => {
    const [i, k] = [36, 0];
    const id = server.containerId(i, k);
    const seen = {
      delivered_at: '2024-07-20T15:00:00Z',
      empty_out_at: '2024-05-02T08:00:00Z',
      pol_full_in_at: '2024-05-04T07:30:00Z',
      pol_vessel_loaded_at: '2024-05-05T10:00:00Z',
      pol_vessel_departed_at: '2024-05-05T20:00:00Z',
      rail_last_tracking_request_at: '2024-07-01T00:00:00Z',
      ind_facility_holds: [{ name: 'freight', status: 'hold', description: 'Rail freight unpaid' }],
      ind_facility_fees: [{ amount: 150, description: 'storage' }],
      ssl_lfd: '2024-07-10T07:00:00Z',
      import_deadlines: null,
    };
    server.setAttributes(id, seen);
    server.setAttributes(server.shipmentId(i), {
      pol_original_etd_at: '2024-05-04T12:00:00Z',
      destination_original_eta_at: '2024-06-30T12:00:00Z',
    });
    const result = await engine.sync();
    expect(result.skipped).toEqual([]);
    const detail = cache.board.containerDetail(id)!;
    expect(detail.container.attributes).toMatchObject(seen);
    expect(detail.shipment!.attributes).toMatchObject({
      pol_original_etd_at: '2024-05-04T12:00:00Z',
      destination_original_eta_at: '2024-06-30T12:00:00Z',
    });
    // The line's LFD sent only as `ssl_lfd` is still the line's deadline.
    expect(detail.deadlines.line).toBe('2024-07-10T07:00:00Z');
    // A record without them reads them as not known (null), never undefined.
    const other = cache.getContainer(server.containerId(i, 1))!.attributes;
    expect(other).toMatchObject({ delivered_at: null, ind_facility_holds: null, ssl_lfd: null });
  });

  it('a tracking request with an undocumented status or number type still counts', () => {
    const request = {
      id: 'd1000000-0000-4000-8000-000000000001',
      type: 'tracking_request',
      attributes: {
        request_number: 'OOLU2100000001',
        request_type: 'house_bill_of_lading',
        scac: 'OOLU',
        status: 'queued_for_carrier',
        failed_reason: 'carrier_portal_changed',
        created_at: '2026-03-01T12:00:00Z',
      },
    };
    const checked = checkRecord('tracking_request', request);
    expect(checked.ok && checked.value.attributes).toMatchObject(request.attributes);
  });

  it('names the known attributes a record left out as null, keeps the sent ones in their order, and a "__proto__" member stays a plain member', () => {
    const sent = JSON.parse(
      '{"id":"c1","type":"container","attributes":{"number":"MSCU1234565","extra":1,"__proto__":{"polluted":true}}}',
    ) as { attributes: Record<string, unknown> };
    for (const record of [sent, { ...sent, attributes: { number: 'MSCU1234565', extra: 1 } }]) {
      const checked = checkRecord('container', record);
      expect(checked.ok).toBe(true);
      const attributes = (checked.ok ? checked.value.attributes : {}) as Record<string, unknown>;
      expect(attributes).toMatchObject({ number: 'MSCU1234565', extra: 1, pickup_lfd: null });
      // The left-out ones come first, then what was sent, as sent.
      const sentKeys = Object.keys(record.attributes);
      expect(Object.keys(attributes).slice(-sentKeys.length)).toEqual(sentKeys);
      expect(Object.getPrototypeOf(attributes)).toBe(Object.prototype);
      expect(Object.hasOwn(attributes, '__proto__')).toBe(
        Object.hasOwn(record.attributes, '__proto__'),
      );
    }
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
  });

  it('keeps a null optional terminal field null, never the text "null"', async () => {
    await engine.sync();
    const db = new Database(cache.path, { readonly: true });
    try {
      const rows = db.prepare('SELECT json FROM terminals ORDER BY id').all() as {
        json: string;
      }[];
      expect(rows.length).toBeGreaterThan(0);
      for (const { json } of rows) {
        const terminal = JSON.parse(json) as { attributes: Record<string, unknown> };
        expect(terminal.attributes.bic_facility_code).toBeNull();
        expect(Object.values(terminal.attributes)).not.toContain('null');
      }
    } finally {
      db.close();
    }
  });

  it('reports each unusable record once, however many pages carry it', async () => {
    // Ten bad containers spread over the container pages, one bad shipment that comes
    // included with its containers' page, and a bad terminal every page includes.
    const bad = Array.from({ length: 10 }, (_, n) => server.containerId(n * 4, n % 2));
    for (const id of bad) server.breakRecord('container', id);
    server.breakRecord('shipment', server.shipmentId(7));
    server.breakRecord('terminal', server.terminal(3).id);

    const result = await engine.sync();
    const lines = skipped.map((s) => `${s.type} ${s.id}`);
    expect(lines.sort()).toEqual(
      [
        ...bad.map((id) => `container ${id}`),
        `shipment ${server.shipmentId(7)}`,
        `terminal ${server.terminal(3).id}`,
      ].sort(),
    );
    expect(result.skipped).toHaveLength(12);
    expect(statuses.at(-1)!.message).toBe(
      '12 record(s) from the service were malformed and skipped.',
    );
    // The good records around them all landed.
    expect(result.containers).toBe(SHIPMENTS * PER_SHIPMENT - bad.length);
  });

  it('an unusable event is skipped alone: its siblings land, its cached copy stays, it is asked again', async () => {
    await engine.sync();
    const id = server.containerId(38, 0);
    const before = cache.eventsOf(id);
    expect(before).toHaveLength(3);

    // The container changes and its new history holds an unusable event.
    server.changeContainer(38, 0);
    const events = server.events(38, 0);
    expect(events).toHaveLength(4);
    server.breakRecord('transport_event', events[1]!.id);
    const second = await engine.sync();
    expect(second.skipped.map((s) => `${s.type} ${s.id}`)).toEqual([
      `transport_event ${events[1]!.id}`,
    ]);
    // The new event landed; the unusable one kept the copy the first run stored.
    expect(
      cache
        .eventsOf(id)
        .map((e) => e.id)
        .sort(),
    ).toEqual(events.map((e) => e.id).sort());
    expect(cache.eventsOf(id).find((e) => e.id === events[1]!.id)).toEqual(
      before.find((e) => e.id === events[1]!.id),
    );
    expect(cache.staleEventContainers()).toContain(id);

    server.repair(events[1]!.id);
    await engine.sync();
    expect(
      cache
        .eventsOf(id)
        .map((e) => e.id)
        .sort(),
    ).toEqual(events.map((e) => e.id).sort());
    expect(cache.staleEventContainers()).not.toContain(id);
  });

  it('the connection test names the kind of service and what it means for the cadence', async () => {
    const check = await testConnection(server.url, server.apiKey);
    expect(check.ok).toBe(true);
    expect(check.incrementalSync).toBe(false);
    expect(check.message).toMatch(/^Connected\. The account has 40 shipments\. /);
    expect(check.message).toMatch(/Terminal49-compatible service/);
    expect(check.message).toMatch(/once every 24 hours/);
    expect((await testConnection(server.url, 'wrong')).message).toMatch(/refused the API key/);
  });
});

/** Runs `work` while moving a manual clock on, so waits on that clock end. */
async function withClockRunning<T>(clock: ManualClock, work: Promise<T>): Promise<T> {
  let done = false;
  const result = work.finally(() => {
    done = true;
  });
  while (!done) {
    await new Promise((resolve) => setTimeout(resolve, 2));
    clock.advance(200);
  }
  return result;
}

describe('sync within request limits', () => {
  it('shows in the sync area while it waits for the request budget', async () => {
    const server = await startT49CompatibleServer({
      shipments: 6,
      containersPerShipment: 1,
      active: 2,
    });
    const tmp = tempDir('quayside-t49-budget-');
    const cache = Cache.open(tmp.dir);
    const clock = new ManualClock(START);
    const statuses: SyncStatus[] = [];
    try {
      const engine = new SyncEngine({
        cache,
        clock,
        connection: () => ({ baseUrl: server.url, apiKey: server.apiKey }),
        onStatus: (s) => statuses.push(s),
        client: { budget: new RequestBudget(clock, 2, 60) },
        pageSize: 2,
      });
      const result = await withClockRunning(clock, engine.sync());
      expect(result.containers).toBe(6);
      const waiting = statuses.filter((s) => s.message === BUDGET_WAIT_MESSAGE);
      expect(waiting.length).toBeGreaterThan(0);
      expect(waiting.every((s) => s.state === 'syncing')).toBe(true);
      expect(statuses.at(-1)).toMatchObject({ state: 'idle', message: null });
    } finally {
      cache.close();
      tmp.remove();
      await server.close();
    }
  });

  it("converges under the service's own limit (429 with Retry-After)", async () => {
    const clock = new ManualClock(START);
    const server = await startT49CompatibleServer({
      shipments: 12,
      containersPerShipment: 2,
      active: 4,
      requestsPerMinute: 4,
      now: () => clock.now(),
    });
    const tmp = tempDir('quayside-t49-429-');
    const cache = Cache.open(tmp.dir);
    try {
      const engine = new SyncEngine({
        cache,
        clock,
        connection: () => ({ baseUrl: server.url, apiKey: server.apiKey }),
        pageSize: 5,
        client: { maxAttempts: 20 },
      });
      const result = await withClockRunning(clock, engine.sync());
      expect(result).toMatchObject({ shipments: 12, containers: 24 });
      expect(server.requests.count).toBeGreaterThan(result.requests - 1);
      expect(result.requests).toBeGreaterThan(10); // some were refused and retried
    } finally {
      cache.close();
      tmp.remove();
      await server.close();
    }
  });

  it('reads every finished shipment again within a day, a slice per run', async () => {
    const clock = new ManualClock(START);
    const server = await startT49CompatibleServer({
      shipments: 300,
      containersPerShipment: 1,
      active: 30,
    });
    const tmp = tempDir('quayside-t49-history-');
    const cache = Cache.open(tmp.dir);
    try {
      const engine = new SyncEngine({
        cache,
        clock,
        connection: () => ({ baseUrl: server.url, apiKey: server.apiKey }),
        pageSize: 10,
      });
      await engine.sync();
      const from = server.requests.log.length;
      const perRun: number[] = [];
      for (let run = 0; run < 96; run++) {
        clock.advance(15 * 60_000);
        perRun.push((await engine.sync()).requests);
      }
      const history = server.requests.log
        .slice(from)
        .filter(
          (p) =>
            p.includes('filter%5Btracking_stopped%5D=true') ||
            p.includes('filter[tracking_stopped]=true'),
        )
        .map((p) => Number(/page(?:%5B|\[)number(?:%5D|\])=(\d+)/.exec(p)![1]));
      // 270 finished shipments: 27 pages, every one read within the day's 96 runs.
      expect(new Set(history)).toEqual(new Set(Array.from({ length: 27 }, (_, n) => n + 1)));
      // Spread out: no run reads more than its share (3 active pages, 1 tracking-request
      // page, 1 history page, and once a day the question whether custom fields are served).
      expect(Math.max(...perRun)).toBeLessThanOrEqual(6);
      expect(perRun.filter((n) => n === 6).length).toBeLessThanOrEqual(1);
    } finally {
      cache.close();
      tmp.remove();
      await server.close();
    }
  }, 180_000);
});
