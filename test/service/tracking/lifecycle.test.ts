/**
 * Tracking lifecycle against a real store (SQLite, or PostgreSQL in that test project) and a local carrier (DCSA + import deadlines)
 * and terminal HTTP server, with a ManualClock.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ServerResponse } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/shared/clock';
import type { EventSink, TrackingEvent } from '../../../src/service/events/event-sink';
import type { DcsaEvent } from '../../../src/shared/feeds/dcsa';
import { AccountStore } from '../../../src/service/store/accounts';
import { openDatabase, type OpenedDatabase } from '../../../src/service/store/db';
import {
  loadReferenceData,
  readReferenceDir,
  ReferenceData,
} from '../../../src/service/store/reference';
import { ServiceStorage } from '../../../src/service/store';
import type { TrackingStore } from '../../../src/service/store/tracking-store';
import { MAX_RETRIES, TrackingEngine } from '../../../src/service/tracking/engine';
import { CustomFields } from '../../../src/service/custom-fields';
import { FIXTURE_REFERENCE_DIR } from '../../support/service';
import { testDatabase } from '../../support/store-kinds';
import { sendJson, startServer, type TestServer } from '../../support/http-server';

const HOUR = 3600_000;
const DAY = 24 * HOUR;
const START = Date.UTC(2026, 0, 10, 12);
const BL = 'MEDUSH123456';
const BOX = 'MSCU6639870';
const VESSEL = { vesselIMONumber: '9839430', vesselName: 'MSC GULSUN', vesselFlag: 'PA' };

const iso = (ms: number) => new Date(ms).toISOString();

function call(locode: string, facility?: string) {
  return {
    transportCallID: `TC-${locode}`,
    carrierServiceCode: 'AE7',
    exportVoyageNumber: '601W',
    importVoyageNumber: '601W',
    UNLocationCode: locode,
    ...(facility ? { facilityCode: facility, facilityCodeListProvider: 'SMDG' } : {}),
    modeOfTransport: 'VESSEL',
    vessel: VESSEL,
  };
}
let seq = 0;
const docs = [
  { documentReferenceType: 'BKG', documentReferenceValue: 'BK1' },
  { documentReferenceType: 'TRD', documentReferenceValue: BL },
];
function transport(
  code: 'ARRI' | 'DEPA',
  cls: 'ACT' | 'EST',
  at: number,
  locode: string,
  created = at,
) {
  return {
    eventID: `t-${++seq}`,
    eventType: 'TRANSPORT',
    eventClassifierCode: cls,
    eventCreatedDateTime: iso(created),
    eventDateTime: iso(at),
    transportEventTypeCode: code,
    transportCall: call(locode, locode === 'USLAX' ? 'APMT' : undefined),
    documentReferences: docs,
  } as DcsaEvent;
}
function equipment(
  code: 'LOAD' | 'DISC' | 'GTIN' | 'GTOT',
  at: number,
  locode: string,
  empty: 'EMPTY' | 'LADEN',
) {
  return {
    eventID: `e-${++seq}`,
    eventType: 'EQUIPMENT',
    eventClassifierCode: 'ACT',
    eventCreatedDateTime: iso(at),
    eventDateTime: iso(at),
    equipmentEventTypeCode: code,
    equipmentReference: BOX,
    emptyIndicatorCode: empty,
    transportCall: call(locode, locode === 'USLAX' ? 'APMT' : undefined),
    documentReferences: docs,
  } as DcsaEvent;
}

type Answer = { status: number; body?: unknown; raw?: string };

interface Harness {
  opened: OpenedDatabase;
  stores: ServiceStorage;
  clock: ManualClock;
  engine: TrackingEngine;
  tracking: TrackingStore;
  accountId: string;
  events: TrackingEvent[];
  carrier: TestServer;
  line: { answer: () => Answer; lfd: string | null };
  terminal: { status: Record<string, unknown> | null };
  dataDir: string;
}

async function harness(): Promise<Harness> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quayside-engine-'));
  const clock = new ManualClock(START);
  const opened = await openDatabase(dataDir, { postgres: await testDatabase() });
  await loadReferenceData(opened.db, readReferenceDir(FIXTURE_REFERENCE_DIR));
  const ref = await ReferenceData.fromDatabase(opened.db);
  const stores = new ServiceStorage(opened.db, ref, clock);
  const tracking = stores.tracking;
  const accounts = new AccountStore(opened.db, clock);
  const account = await accounts.create('acme');
  const events: TrackingEvent[] = [];
  const sink: EventSink = {
    async record(_stores: ServiceStorage, e: TrackingEvent) {
      events.push(e);
    },
  };
  const line = { answer: (): Answer => ({ status: 404, body: [] }), lfd: null as string | null };
  const terminal = { status: null as Record<string, unknown> | null };
  const carrier = await startServer((req, res: ServerResponse) => {
    if (req.url.pathname === '/v2/events') {
      const a = line.answer();
      if (a.raw !== undefined) {
        res.writeHead(a.status, { 'Content-Type': 'application/json' });
        res.end(a.raw);
      } else sendJson(res, a.status, a.body);
      return;
    }
    if (req.url.pathname.startsWith('/x-import-deadlines/')) {
      if (!line.lfd) return sendJson(res, 404, {});
      return sendJson(res, 200, {
        equipmentReference: BOX,
        lastFreeDay: line.lfd,
        locode: 'USLAX',
        updatedDateTime: iso(clock.now()),
      });
    }
    if (req.url.pathname === '/terminal/containers/query') {
      const s = terminal.status;
      return sendJson(
        res,
        200,
        s ? { containers: [s], not_found: [] } : { containers: [], not_found: [BOX] },
      );
    }
    sendJson(res, 404, {});
  });
  const engine = new TrackingEngine({
    logger: { warn: () => {}, error: (d, m) => console.error(m, d) },
    stores,
    ref,
    clock,
    events: sink,
    feeds: {
      carriers: { MSCU: { baseUrl: carrier.baseUrl } },
      terminals: { lax: { baseUrl: `${carrier.baseUrl}/terminal` } },
    },
  });
  return {
    opened,
    stores,
    clock,
    engine,
    tracking,
    accountId: account.id,
    events,
    carrier,
    line,
    terminal,
    dataDir,
  };
}

let h: Harness;
beforeEach(async () => {
  h = await harness();
});
afterEach(async () => {
  await h.engine.stop();
  await h.carrier.close();
  await h.opened.close();
  fs.rmSync(h.dataDir, { recursive: true, force: true });
});

async function request(
  number: string,
  type: 'bill_of_lading' | 'container' | 'booking_number',
  scac = 'MSCU',
) {
  return h.tracking.createTrackingRequest(h.accountId, {
    requestNumber: number,
    requestType: type,
    scac,
  });
}
const tr = (id: string) =>
  h.opened.db
    .selectFrom('tracking_requests')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
const names = () => h.events.map((e) => e.event);
async function advance(ms: number, step = HOUR) {
  for (let t = 0; t < ms; t += step) {
    h.clock.advance(Math.min(step, ms - t));
    await h.engine.drain();
  }
}

/** Defines a custom field of the harness's account through the store. */
const define = async (entityType: string, slug: string, dataType = 'short_text') =>
  (await h.stores.customFields.createDefinition(h.accountId, {
    entity_type: entityType,
    api_slug: slug,
    display_name: slug,
    description: null,
    data_type: dataType,
    reference_type: null,
    validation: null,
    default_format: null,
    default_value: null,
  }))!;

const ETA1 = START + 20 * DAY;
const ETA2 = START + 22 * DAY;
function journey(upTo: number): DcsaEvent[] {
  const evs: DcsaEvent[] = [
    transport('ARRI', 'EST', ETA1, 'USLAX', START - DAY),
    equipment('GTOT', START - 2 * DAY, 'CNSHA', 'EMPTY'),
  ];
  if (upTo >= START + DAY) {
    evs.push(equipment('LOAD', START + DAY, 'CNSHA', 'LADEN'));
    evs.push(transport('DEPA', 'ACT', START + DAY + HOUR, 'CNSHA'));
  }
  if (upTo >= START + 5 * DAY) evs.push(transport('ARRI', 'EST', ETA2, 'USLAX', START + 5 * DAY));
  if (upTo >= ETA2) evs.push(transport('ARRI', 'ACT', ETA2, 'USLAX'));
  if (upTo >= ETA2 + DAY) evs.push(equipment('DISC', ETA2 + DAY, 'USLAX', 'LADEN'));
  if (upTo >= ETA2 + 4 * DAY) evs.push(equipment('GTOT', ETA2 + 4 * DAY, 'USLAX', 'LADEN'));
  if (upTo >= ETA2 + 8 * DAY) evs.push(equipment('GTIN', ETA2 + 8 * DAY, 'USLAX', 'EMPTY'));
  return evs;
}

describe('tracking request lifecycle', () => {
  it('creates the shipment and follows the journey: events, status, ETA and LFD', async () => {
    h.line.answer = () => ({ status: 200, body: journey(h.clock.now()) });
    const r = await request(BL, 'bill_of_lading');
    await h.engine.drain();
    const created = await tr(r.id);
    expect(created.status).toBe('created');
    expect(names()).toContain('tracking_request.succeeded');
    expect(names()).toContain('container.created');
    const shipment = await h.opened.db
      .selectFrom('shipments')
      .selectAll()
      .executeTakeFirstOrThrow();
    expect(shipment.pod_eta_at).toBe(iso(ETA1));
    expect(shipment.pod_original_eta_at).toBe(iso(ETA1));
    let box = await h.opened.db.selectFrom('containers').selectAll().executeTakeFirstOrThrow();
    expect(box.number).toBe(BOX);
    expect(box.current_status).toBe('new');

    h.events.length = 0;
    await advance(6 * DAY, 4 * HOUR);
    box = await h.opened.db.selectFrom('containers').selectAll().executeTakeFirstOrThrow();
    expect(box.current_status).toBe('on_ship');
    const s2 = await h.opened.db.selectFrom('shipments').selectAll().executeTakeFirstOrThrow();
    expect(s2.pod_eta_at).toBe(iso(ETA2));
    expect(s2.pod_original_eta_at).toBe(iso(ETA1));
    expect(s2.pol_atd_at).toBe(iso(START + DAY + HOUR));
    expect(names()).toContain('shipment.estimated.arrival');
    expect(names()).toContain('container.transport.vessel_loaded');
    expect(names()).toContain('container.transport.vessel_departed');
    const updated = h.events.find((e) => e.event === 'container.updated');
    expect(updated?.changeset?.current_status).toEqual(['new', 'on_ship']);

    // Discharged; the line publishes an LFD, the terminal says available with a hold.
    h.line.lfd = iso(ETA2 + 5 * DAY);
    h.terminal.status = {
      container_number: BOX,
      facility: {
        kind: 'terminal',
        firms_code: 'Y258',
        smdg_code: 'APMT',
        name: 'APM',
        locode: 'USLAX',
        time_zone: 'America/Los_Angeles',
      },
      checked_at: iso(ETA2 + DAY),
      discharged_at: iso(ETA2 + DAY),
      rail_unloaded_at: null,
      available_for_pickup: true,
      holds: [
        { name: 'customs', status: 'hold', description: null },
        { name: 'freight', status: 'released', description: null },
      ],
      fees: [],
      last_free_day: iso(ETA2 + 4 * DAY),
      pickup_appointment_at: null,
      yard_location: 'A1',
      full_out_at: null,
      full_out_chassis_number: null,
      empty_returned_at: null,
      pickup_number: 'PU-77812',
    };
    h.events.length = 0;
    await advance(ETA2 + DAY + 5 * HOUR - h.clock.now(), 4 * HOUR);
    box = await h.opened.db.selectFrom('containers').selectAll().executeTakeFirstOrThrow();
    expect(box.pod_discharged_at).toBe(iso(ETA2 + DAY));
    expect(box.current_status).toBe('available');
    expect(box.pickup_lfd_line).toBe(iso(ETA2 + 5 * DAY));
    expect(box.pickup_lfd_terminal).toBe(iso(ETA2 + 4 * DAY));
    // The terminal's pickup number is kept for the delivery order.
    expect(box.pickup_number).toBe('PU-77812');
    expect(JSON.parse(box.holds_at_pod_terminal)).toEqual([
      { name: 'customs', status: 'hold', description: null },
    ]);
    expect(names()).toEqual(
      expect.arrayContaining([
        'container.pickup_lfd_line.changed',
        'container.pickup_lfd_terminal.changed',
        'container.pickup_lfd.changed',
        'container.transport.vessel_discharged',
        'container.transport.available',
      ]),
    );
    // The deadline changes are also kept as transport events, each once, stamped when seen.
    const deadlineRecords = await h.opened.db
      .selectFrom('transport_events')
      .select(['event', 'data_source', 'timestamp'])
      .where('event', 'like', 'container.pickup_lfd%')
      .orderBy('event')
      .execute();
    expect(deadlineRecords.map((e) => [e.event, e.data_source])).toEqual([
      ['container.pickup_lfd.changed', 'shipping_line'],
      ['container.pickup_lfd_line.changed', 'shipping_line'],
      ['container.pickup_lfd_terminal.changed', 'terminal'],
    ]);
    expect(deadlineRecords.every((e) => e.timestamp !== null)).toBe(true);
    // One vessel_discharged although line and terminal both reported it.
    const discharged = await h.opened.db
      .selectFrom('transport_events')
      .selectAll()
      .where('event', '=', 'container.transport.vessel_discharged')
      .execute();
    expect(discharged).toHaveLength(1);
    const raw = await h.opened.db.selectFrom('raw_events').selectAll().execute();
    expect(raw.some((e) => e.original_event === 'TRANSPORT/ARRI' && e.estimated === 1)).toBe(true);

    // Picked up and returned: tracking stops with all_containers_terminated.
    await advance(ETA2 + 9 * DAY - h.clock.now(), 4 * HOUR);
    box = await h.opened.db.selectFrom('containers').selectAll().executeTakeFirstOrThrow();
    expect(box.current_status).toBe('empty_returned');
    const stopped = await h.opened.db.selectFrom('shipments').selectAll().executeTakeFirstOrThrow();
    expect(stopped.line_tracking_stopped_reason).toBe('all_containers_terminated');
    expect((await tr(r.id)).status).toBe('tracking_stopped');
    const before = h.carrier.requests.length;
    await advance(3 * DAY, 12 * HOUR);
    expect(h.carrier.requests.filter((q) => q.url.pathname === '/v2/events').length).toBe(
      h.carrier.requests.slice(0, before).filter((q) => q.url.pathname === '/v2/events').length,
    );
  });

  const failures: [string, () => Promise<{ id: string }>, (() => Answer) | null, string][] = [
    [
      'unknown container number fails at once',
      () => request(BOX, 'container'),
      () => ({ status: 404, body: [] }),
      'not_found',
    ],
    [
      'bad check digit is an invalid number',
      () => request('MSCU6639871', 'container'),
      null,
      'invalid_number',
    ],
    [
      'a line without a feed has no data',
      () => request('UALC12345', 'bill_of_lading', 'UALC'),
      null,
      'data_unavailable',
    ],
    [
      'TEST-TR-FAILED fails',
      () => request('TEST-TR-FAILED', 'bill_of_lading', 'TEST'),
      null,
      'not_found',
    ],
    [
      'a cancelled booking fails',
      () => request('BK12345', 'booking_number'),
      () => ({
        status: 200,
        body: [
          transport('ARRI', 'EST', ETA1, 'USLAX'),
          {
            eventID: 's1',
            eventType: 'SHIPMENT',
            eventClassifierCode: 'ACT',
            eventCreatedDateTime: iso(START - HOUR),
            eventDateTime: iso(START - HOUR),
            shipmentEventTypeCode: 'VOID',
            documentID: 'BK12345',
            documentTypeCode: 'BKG',
          },
        ],
      }),
      'booking_cancelled',
    ],
  ];
  for (const [title, make, answer, reason] of failures) {
    it(title, async () => {
      if (answer) h.line.answer = answer;
      const r = await make();
      await h.engine.drain();
      const row = await tr(r.id);
      expect(row.status).toBe('failed');
      expect(row.failed_reason).toBe(reason);
      expect(names()).toEqual(['tracking_request.failed']);
    });
  }

  it('carries the custom fields set on a request over to the shipment it creates, where they fit', async () => {
    h.line.answer = () => ({ status: 200, body: journey(h.clock.now()) });
    const store = h.stores.customFields;
    const requestFields = {
      po: await define('TrackingRequest', 'po_number', 'short_text'),
      trucker: await define('TrackingRequest', 'trucker', 'enum'),
      note: await define('TrackingRequest', 'note', 'short_text'),
      weight: await define('TrackingRequest', 'weight', 'number'),
    };
    const shipmentPo = await define('Shipment', 'po_number', 'short_text');
    const shipmentTrucker = await define('Shipment', 'trucker', 'enum');
    await define('Shipment', 'weight', 'short_text');
    await store.createOption(h.accountId, requestFields.trucker.id, {
      label: 'Acme',
      value: 'acme',
      position: null,
    });
    await store.createOption(h.accountId, shipmentTrucker.id, {
      label: 'Bay',
      value: 'bay',
      position: null,
    });

    const r = await request(BL, 'bill_of_lading');
    const fields = new CustomFields(h.stores);
    const on = { type: 'tracking_request' as const, id: r.id };
    await fields.set(h.accountId, requestFields.po, on, 'PO-4471', '/data');
    await fields.set(h.accountId, requestFields.trucker, on, 'acme', '/data');
    await fields.set(h.accountId, requestFields.note, on, 'fragile', '/data');
    await fields.set(h.accountId, requestFields.weight, on, 12000, '/data');
    await h.engine.drain();

    expect((await tr(r.id)).status).toBe('created');
    const shipment = await h.opened.db
      .selectFrom('shipments')
      .selectAll()
      .executeTakeFirstOrThrow();
    // Only the PO fits: the shipment's trucker field lacks the option, there is no shipment
    // note field, and its weight field holds text, not numbers.
    const copied = await store.valuesOf(h.accountId, 'shipment', [shipment.id]);
    expect(copied.map((v) => [v.definition_id, JSON.parse(v.value)])).toEqual([
      [shipmentPo.id, 'PO-4471'],
    ]);
    // The request keeps its own values.
    expect(await store.valuesOf(h.accountId, 'tracking_request', [r.id])).toHaveLength(4);

    // A value set on the request after its shipment exists (the lookup was quicker than the
    // client) reaches the shipment as well.
    await fields.set(h.accountId, requestFields.po, on, 'PO-4472', '/data');
    const later = await store.valuesOf(h.accountId, 'shipment', [shipment.id]);
    expect(later.map((v) => JSON.parse(v.value))).toEqual(['PO-4472']);
  });

  it('sets initial_custom_fields on the shipment and containers once the request creates them', async () => {
    h.line.answer = () => ({ status: 200, body: journey(h.clock.now()) });
    const store = h.stores.customFields;
    const po = await define('Shipment', 'po_number');
    const trucker = await define('Container', 'trucker');
    await define('Container', 'seal');
    const gone = await define('Container', 'gone');
    // As POST /tracking_requests does: checked and staged, then the request is created.
    const staged = await new CustomFields(h.stores).stage(
      h.accountId,
      {
        shipment: [{ api_slug: 'po_number', value: 'PO-9' }],
        containers: [
          { api_slug: 'trucker', value: 'Bay Haulers', number: BOX.toLowerCase() },
          { api_slug: 'trucker', value: 'Acme' },
          { api_slug: 'seal', value: 'S-1', number: 'MSCU0000000' },
          { api_slug: 'gone', value: 'x', number: '' },
        ],
      },
      '/data/attributes/initial_custom_fields',
    );
    await store.deleteDefinition(h.accountId, gone.id);
    const r = await h.tracking.createTrackingRequest(h.accountId, {
      requestNumber: BL,
      requestType: 'bill_of_lading',
      scac: 'MSCU',
      initialCustomFields: staged,
    });
    await h.engine.drain();

    expect((await tr(r.id)).status).toBe('created');
    const shipment = await h.opened.db
      .selectFrom('shipments')
      .selectAll()
      .executeTakeFirstOrThrow();
    const box = await h.opened.db.selectFrom('containers').selectAll().executeTakeFirstOrThrow();
    const valuesOf = async (type: 'shipment' | 'container', id: string) =>
      (await store.valuesOf(h.accountId, type, [id])).map((v) => [
        v.definition_id,
        JSON.parse(v.value),
      ]);
    expect(await valuesOf('shipment', shipment.id)).toEqual([[po.id, 'PO-9']]);
    // The value naming the box wins over the one for every box; the seal was for a box this
    // shipment does not have, and the deleted field is skipped.
    expect(await valuesOf('container', box.id)).toEqual([[trucker.id, 'Bay Haulers']]);
  });

  it('TEST-TR-SUCCEEDED succeeds without polling a line', async () => {
    const r = await request('TEST-TR-SUCCEEDED', 'bill_of_lading', 'TEST');
    await h.engine.drain();
    expect((await tr(r.id)).status).toBe('created');
    expect(names()).toEqual(['tracking_request.succeeded']);
    expect(h.carrier.requests).toHaveLength(0);
  });

  it('a bill of lading the line does not know waits for the manifest, then fails after 7 days', async () => {
    const r = await request(BL, 'bill_of_lading');
    await h.engine.drain();
    expect((await tr(r.id)).status).toBe('awaiting_manifest');
    await advance(3 * DAY, 6 * HOUR);
    expect((await tr(r.id)).status).toBe('awaiting_manifest');
    const lookups = h.carrier.requests.length;
    expect(lookups).toBe(4); // first try and one a day
    await advance(5 * DAY, 6 * HOUR);
    const row = await tr(r.id);
    expect(row.status).toBe('failed');
    expect(row.failed_reason).toBe('not_found');
    expect(names()).toEqual(['tracking_request.awaiting_manifest', 'tracking_request.failed']);
  });

  it('a manifest that appears while awaiting creates the shipment', async () => {
    const r = await request(BL, 'bill_of_lading');
    await h.engine.drain();
    h.line.answer = () => ({ status: 200, body: journey(h.clock.now()) });
    await advance(DAY, 6 * HOUR);
    expect((await tr(r.id)).status).toBe('created');
  });

  for (const [kind, answer, reason] of [
    ['unreachable (5xx)', { status: 503, raw: 'down' }, 'shipping_line_unreachable'],
    ['garbage', { status: 200, raw: '{"not json' }, 'unrecognized_response'],
  ] as const) {
    it(`a line that answers ${kind} is retried 14 times over about a day`, async () => {
      h.line.answer = () => answer;
      const r = await request(BL, 'bill_of_lading');
      await h.engine.drain();
      let row = await tr(r.id);
      expect(row.status).toBe('pending');
      expect(row.is_retrying).toBe(1);
      expect(row.retry_count).toBe(1);
      expect(row.failed_reason).toBe(reason);
      await advance(20 * HOUR, 5 * 60_000);
      row = await tr(r.id);
      expect(row.status).toBe('pending');
      await advance(6 * HOUR, 5 * 60_000);
      row = await tr(r.id);
      expect(row.status).toBe('failed');
      expect(row.failed_reason).toBe('retries_exhausted');
      expect(row.retry_count).toBe(MAX_RETRIES);
      expect(h.carrier.requests).toHaveLength(MAX_RETRIES + 1);
      expect(names()).toEqual(['tracking_request.failed']);
      // 312 scheduling passes: on PostgreSQL each is a few round trips.
    }, 60_000);
  }

  it('a second request for a tracked shipment is a duplicate', async () => {
    h.line.answer = () => ({ status: 200, body: journey(h.clock.now()) });
    await request(BL, 'bill_of_lading');
    await h.engine.drain();
    const second = await request(BOX, 'container');
    await h.engine.drain();
    expect((await tr(second.id)).failed_reason).toBe('duplicate');
  });
});

describe('stopping and resuming', () => {
  async function tracked() {
    const r = await request(BL, 'bill_of_lading');
    await h.engine.drain();
    const shipment = await h.opened.db
      .selectFrom('shipments')
      .selectAll()
      .executeTakeFirstOrThrow();
    return { r, shipment };
  }
  const reason = async () =>
    (
      await h.opened.db
        .selectFrom('shipments')
        .select('line_tracking_stopped_reason')
        .executeTakeFirstOrThrow()
    ).line_tracking_stopped_reason;

  it('no_updates_at_line after 56 days without a change', async () => {
    const frozen = journey(START + 2 * DAY);
    h.line.answer = () => ({ status: 200, body: frozen });
    await tracked();
    // The departure becomes visible a day in (actual events from the future are dropped).
    await advance(55 * DAY, DAY);
    expect(await reason()).toBeNull();
    await advance(3 * DAY, DAY);
    expect(await reason()).toBe('no_updates_at_line');
  });

  it('past_arrival_window 56 days after arrival', async () => {
    const arrived = journey(ETA2 + HOUR).map((e) => e);
    h.clock.advanceTo(ETA2 + 2 * HOUR);
    // The line keeps reporting something new so only the arrival window applies.
    let n = 0;
    h.line.answer = () => ({
      status: 200,
      body: [...arrived, transport('ARRI', 'EST', ETA2 + 30 * DAY + ++n * 60_000, 'USLAX')],
    });
    await tracked();
    await advance(57 * DAY, DAY);
    expect(await reason()).toBe('past_arrival_window');
  });

  it('past_full_out_window when every box left the port long ago', async () => {
    h.clock.advanceTo(ETA2 + 5 * DAY);
    const out = journey(ETA2 + 5 * DAY);
    let n = 0;
    h.line.answer = () => ({
      status: 200,
      body: [...out, transport('ARRI', 'EST', ETA2 + 30 * DAY + ++n * 60_000, 'USLAX')],
    });
    await tracked();
    await advance(29 * DAY, DAY);
    expect(await reason()).toBe('past_full_out_window');
  });

  it('stop_tracking (cancelled_by_user) stops polling; resume_tracking restarts it', async () => {
    h.line.answer = () => ({ status: 200, body: journey(h.clock.now()) });
    const { r, shipment } = await tracked();
    await h.tracking.setLineTracking(h.accountId, shipment.id, 'cancelled_by_user');
    await h.engine.drain();
    expect((await tr(r.id)).status).toBe('tracking_stopped');
    const count = h.carrier.requests.length;
    await advance(2 * DAY, 6 * HOUR);
    expect(h.carrier.requests.length).toBe(count);
    await h.tracking.setLineTracking(h.accountId, shipment.id, null);
    await h.engine.drain();
    expect((await tr(r.id)).status).toBe('created');
    expect(h.carrier.requests.length).toBeGreaterThan(count);
  });
});

describe('bad feed data', () => {
  it('drops impossible times and keeps unknown places by their code without failing the shipment', async () => {
    h.line.answer = () => ({
      status: 200,
      body: [
        ...journey(START + 2 * DAY),
        { ...equipment('GTIN', START, 'ZZZZZ', 'LADEN'), eventID: 'bad-place' },
        { ...transport('ARRI', 'ACT', START, 'USLAX'), eventDateTime: '1970-01-01T00:00:00Z' },
      ],
    });
    h.clock.advance(2 * DAY + HOUR);
    const r = await request(BL, 'bill_of_lading');
    await h.engine.drain();
    expect((await tr(r.id)).status).toBe('created');
    const stats = h.engine.stats();
    expect(stats.dataIssues.impossibleTimestamps).toBeGreaterThan(0);
    expect(stats.dataIssues.unknownLocodes).toBeGreaterThan(0);
    const raw = await h.opened.db.selectFrom('raw_events').selectAll().execute();
    expect(
      raw.every(
        (e) => e.location_locode === null || ['CNSHA', 'USLAX'].includes(e.location_locode),
      ),
    ).toBe(false);
    // A place outside the reference data keeps its code, with no reference record.
    const unknown = raw.filter((e) => e.location_locode === 'ZZZZZ');
    expect(unknown.length).toBeGreaterThan(0);
    expect(unknown.every((e) => e.location_id === null)).toBe(true);
    expect(raw.every((e) => ['CNSHA', 'USLAX', 'ZZZZZ', null].includes(e.location_locode))).toBe(
      true,
    );
    expect(raw.some((e) => e.timestamp.startsWith('1970'))).toBe(false);
  });
});
