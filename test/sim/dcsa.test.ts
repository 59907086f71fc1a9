import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Value } from 'typebox/value';
import { ManualClock } from '../../src/shared/clock';
import { LineImportDeadlines } from '../../src/shared/feeds/line-deadlines';
import { startSimWorld, type RunningSimWorld } from '../../src/sim';
import { lfdAt } from '../../src/sim/terminals/status';
import { DAY, HOUR } from '../../src/sim/time';
import { dcsaValidators } from '../support/dcsa-domains';

const START = Date.UTC(2026, 2, 10, 6);
const validators = dcsaValidators();

type Event = Record<string, unknown> & {
  eventCreatedDateTime: string;
  eventDateTime: string;
  eventClassifierCode: string;
  eventType: string;
};

let clock: ManualClock;
let sim: RunningSimWorld;

beforeAll(async () => {
  clock = new ManualClock(START);
  sim = await startSimWorld({ seed: 42, clock });
});
afterAll(async () => {
  await sim.close();
});

const eventsUrl = (scac: string, query: Record<string, string> = {}): string => {
  const qs = new URLSearchParams(query).toString();
  return `${sim.carriers[scac]!.dcsaBaseUrl}/v2/events${qs ? `?${qs}` : ''}`;
};

async function getPage(url: string): Promise<{ status: number; body: unknown; headers: Headers }> {
  const res = await fetch(url);
  return { status: res.status, body: await res.json(), headers: res.headers };
}

/** Follows Next-Page links and returns every event, checking each page against the schema. */
async function allEvents(scac: string, query: Record<string, string> = {}): Promise<Event[]> {
  const out: Event[] = [];
  let url: string | null = eventsUrl(scac, query);
  for (let pages = 0; url && pages < 100; pages++) {
    const page = await getPage(url);
    expect(page.status).toBe(200);
    expect(validators.eventsPage(page.body), JSON.stringify(validators.eventsPage.errors)).toBe(
      true,
    );
    expect(page.headers.get('api-version')).toBe('2.2.0');
    out.push(...(page.body as Event[]));
    url = page.headers.get('next-page');
  }
  return out;
}

const shipmentOf = (kind: string) => sim.world.model.shipments.find((s) => s.kind === kind)!;

describe('DCSA Track & Trace 2.2 carriers', () => {
  it('serves one base path per carrier', () => {
    for (const scac of [
      'MSCU',
      'MAEU',
      'CMDU',
      'COSU',
      'HLCU',
      'ONEY',
      'EGLV',
      'HDMU',
      'YMLU',
      'ZIMU',
      'OOLU',
      'MATS',
    ]) {
      expect(sim.carriers[scac]!.dcsaBaseUrl).toMatch(
        new RegExp(`^http://127\\.0\\.0\\.1:\\d+/carriers/${scac}$`),
      );
    }
  });

  it('answers every carrier with events that validate against the T&T 2.2 schema', async () => {
    let total = 0;
    const types = new Set<string>();
    const classifiers = new Set<string>();
    for (const scac of Object.keys(sim.carriers)) {
      const events = await allEvents(scac, { limit: '50' });
      total += events.length;
      for (const e of events) {
        types.add(e.eventType);
        classifiers.add(e.eventClassifierCode);
      }
    }
    expect(total).toBeGreaterThan(200);
    expect(types).toEqual(new Set(['SHIPMENT', 'TRANSPORT', 'EQUIPMENT']));
    expect(classifiers).toEqual(new Set(['ACT', 'PLN', 'EST']));
  });

  it('uses a schema that rejects events missing what the spec requires', async () => {
    const page = await getPage(eventsUrl('MAEU', { limit: '20' }));
    const events = page.body as Event[];
    const transport = structuredClone(events.find((e) => e.eventType === 'TRANSPORT')!);
    delete transport.transportCall;
    expect(validators.eventsPage([transport])).toBe(false);
    const wrongClass = { ...events[0]!, eventClassifierCode: 'REQ' };
    expect(validators.eventsPage([wrongClass])).toBe(false);
    const badTime = { ...events[0]!, eventCreatedDateTime: 'yesterday' };
    expect(validators.eventsPage([badTime])).toBe(false);
  });

  it('shows only events whose time has come, with plans and estimates for the future', async () => {
    const scac = shipmentOf('at_sea').scac;
    const now = clock.now();
    const events = await allEvents(scac);
    for (const e of events) {
      expect(Date.parse(e.eventCreatedDateTime)).toBeLessThanOrEqual(now);
      if (e.eventClassifierCode === 'ACT')
        expect(Date.parse(e.eventDateTime)).toBeLessThanOrEqual(now);
    }
    expect(
      events.some((e) => e.eventClassifierCode !== 'ACT' && Date.parse(e.eventDateTime) > now),
    ).toBe(true);
  });

  it('pages with a cursor and the spec headers, stably while time moves', async () => {
    const scac = 'MSCU';
    const first = await getPage(eventsUrl(scac, { limit: '5' }));
    expect((first.body as unknown[]).length).toBe(5);
    for (const h of ['current-page', 'first-page', 'last-page', 'next-page'])
      expect(first.headers.get(h), h).toMatch(/cursor=/);
    expect(first.headers.get('prev-page')).toBeNull();
    clock.advance(2 * DAY);
    const second = await getPage(first.headers.get('next-page')!);
    expect(second.status).toBe(200);
    expect(second.headers.get('prev-page')).toMatch(/cursor=/);
    const ids = [...(first.body as Event[]), ...(second.body as Event[])].map((e) => e.eventID);
    expect(new Set(ids).size).toBe(10);
    // The snapshot of the first page is kept: nothing created after it shows up on page two.
    for (const e of second.body as Event[])
      expect(Date.parse(e.eventCreatedDateTime)).toBeLessThanOrEqual(START);
  });

  it('filters by equipment reference, booking, BL and event type', async () => {
    const s = shipmentOf('picked_up');
    const box = s.containers[0]!;
    const byBox = await allEvents(s.scac, { equipmentReference: box.number });
    expect(byBox.length).toBeGreaterThan(3);
    for (const e of byBox.filter((x) => x.eventType === 'EQUIPMENT'))
      expect(e.equipmentReference).toBe(box.number);
    const codes = byBox
      .filter((x) => x.eventType === 'EQUIPMENT')
      .map((x) => `${x.equipmentEventTypeCode}/${x.emptyIndicatorCode}`);
    expect(codes).toEqual(
      expect.arrayContaining([
        'GTOT/EMPTY',
        'GTIN/LADEN',
        'LOAD/LADEN',
        'DISC/LADEN',
        'GTOT/LADEN',
      ]),
    );

    const onlyTransport = await allEvents(s.scac, {
      carrierBookingReference: s.booking,
      eventType: 'TRANSPORT',
    });
    expect(onlyTransport.length).toBeGreaterThan(0);
    expect(onlyTransport.every((e) => e.eventType === 'TRANSPORT')).toBe(true);

    const byBl = await allEvents(s.scac, {
      transportDocumentReference: s.billOfLading,
      eventType: 'SHIPMENT',
    });
    expect(byBl.map((e) => e.shipmentEventTypeCode)).toEqual(
      expect.arrayContaining(['RECE', 'CONF', 'ISSU']),
    );

    const none = await allEvents(s.scac, { equipmentReference: 'ABCU1234560' });
    expect(none).toEqual([]);
  });

  it('does not know a BL for its first days, then does', async () => {
    const s = shipmentOf('bl_unknown');
    expect(await allEvents(s.scac, { transportDocumentReference: s.billOfLading })).toEqual([]);
    expect(
      (await allEvents(s.scac, { carrierBookingReference: s.booking })).length,
    ).toBeGreaterThan(0);
    clock.advanceTo(s.blKnownFrom + HOUR);
    expect(
      (await allEvents(s.scac, { transportDocumentReference: s.billOfLading })).length,
    ).toBeGreaterThan(0);
  });

  it('publishes a later estimate when a vessel slips, and the new terminal when it changes', async () => {
    const slipped = sim.world.model.shipments.find((s) => s.kind === 'eta_slip')!;
    expect(slipped).toBeDefined();
    clock.advanceTo(Math.max(clock.now(), slipped.legs.at(-1)!.discharge.slipKnownAt! + HOUR));
    const changed = sim.world.model.shipments.find(
      (s) => s.kind === 'terminal_change' && s.podFacilityChange!.at <= clock.now(),
    )!;
    {
      const arrivals = (
        await allEvents(slipped.scac, {
          carrierBookingReference: slipped.booking,
          transportEventTypeCode: 'ARRI',
        })
      ).filter((e) => (e.transportCall as Record<string, unknown>).UNLocationCode === slipped.pod);
      const plan = arrivals.find((e) => e.eventClassifierCode === 'PLN')!;
      const estimates = arrivals.filter((e) => e.eventClassifierCode === 'EST');
      expect(Date.parse(estimates.at(-1)!.eventDateTime)).toBeGreaterThan(
        Date.parse(plan.eventDateTime),
      );
    }
    expect(changed).toBeDefined();
    const est = (
      await allEvents(changed.scac, {
        carrierBookingReference: changed.booking,
        transportEventTypeCode: 'ARRI',
      })
    ).filter(
      (e) =>
        e.eventClassifierCode === 'EST' &&
        (e.transportCall as Record<string, unknown>).UNLocationCode === changed.pod,
    );
    const facilities = est.map((e) => (e.transportCall as Record<string, unknown>).facilityCode);
    expect(facilities.at(-1)).toBe(
      changed.podFacilityChange!.to.firms_code ?? changed.podFacilityChange!.to.smdg_code,
    );
  });

  it('accepts the eventType values the spec lists and refuses others with a DCSA error', async () => {
    const params = (
      (validators.document.paths as Record<string, Record<string, Record<string, unknown>>>)[
        '/v2/events'
      ]!.get!.parameters as Record<string, unknown>[]
    ).find((p) => p.name === 'eventType')!;
    const allowed = ((params.schema as Record<string, unknown>).items as { enum: string[] }).enum;
    for (const value of allowed)
      expect((await getPage(eventsUrl('MSCU', { eventType: value, limit: '1' }))).status).toBe(200);
    const badQueries: Record<string, string>[] = [
      { eventType: 'BOGUS' },
      { limit: '0' },
      { limit: 'ten' },
      { color: 'blue' },
      { cursor: 'not-a-cursor' },
      { 'eventCreatedDateTime:gte': 'yesterday' },
    ];
    for (const bad of badQueries) {
      const res = await getPage(eventsUrl('MSCU', bad));
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(validators.error(res.body), JSON.stringify(validators.error.errors)).toBe(true);
    }
    const unknownCarrier = await getPage(eventsUrl('MSCU').replace('/MSCU/', '/XXXX/'));
    expect(unknownCarrier.status).toBe(404);
    expect(validators.error(unknownCarrier.body)).toBe(true);
  });

  it('filters on eventCreatedDateTime with operators', async () => {
    const cut = new Date(clock.now() - 5 * DAY).toISOString();
    const after = await allEvents('MSCU', { 'eventCreatedDateTime:gte': cut });
    expect(after.length).toBeGreaterThan(0);
    expect(after.every((e) => Date.parse(e.eventCreatedDateTime) >= Date.parse(cut) - 1000)).toBe(
      true,
    );
    const before = await allEvents('MSCU', { 'eventCreatedDateTime:lt': cut });
    expect(before.every((e) => Date.parse(e.eventCreatedDateTime) < Date.parse(cut))).toBe(true);
  });

  it('serves single events by ID', async () => {
    const [e] = (await getPage(eventsUrl('MAEU', { limit: '1' }))).body as Event[];
    const res = await getPage(
      `${sim.carriers.MAEU!.dcsaBaseUrl}/v2/events/${e!.eventID as string}`,
    );
    expect(res.status).toBe(200);
    expect(validators.singleEvent(res.body), JSON.stringify(validators.singleEvent.errors)).toBe(
      true,
    );
    expect(res.body).toEqual(e);
  });

  it('publishes line last free days through the import-deadlines extension', async () => {
    const now = clock.now();
    const box = sim.world.model.shipments
      .flatMap((x) => x.containers)
      .find((c) => c.lineLfd && c.lineLfd.setAt <= now && !c.rail)!;
    const owner = sim.world.model.findContainer(box.number, now)!.shipment;
    const res = await fetch(
      `${sim.carriers[owner.scac]!.dcsaBaseUrl}/x-import-deadlines/${box.number}`,
    );
    expect(res.status).toBe(200);
    const body = (await res.json()) as LineImportDeadlines;
    expect(Value.Check(LineImportDeadlines, body)).toBe(true);
    expect(body.equipmentReference).toBe(box.number);
    expect(Date.parse(body.lastFreeDay!)).toBe(lfdAt(box.lineLfd!, now));
    expect(body.locode).toBe(owner.pod);
    // Not published for boxes still at sea, nor for other lines' boxes.
    const atSea = shipmentOf('at_sea');
    const notYet = await fetch(
      `${sim.carriers[atSea.scac]!.dcsaBaseUrl}/x-import-deadlines/${atSea.containers[0]!.number}`,
    );
    expect(notYet.status).toBe(404);
    const other = Object.keys(sim.carriers).find((k) => k !== owner.scac)!;
    expect(
      (await fetch(`${sim.carriers[other]!.dcsaBaseUrl}/x-import-deadlines/${box.number}`)).status,
    ).toBe(404);
  });
});

describe('DCSA error injection', () => {
  async function fates(): Promise<string[]> {
    const c = new ManualClock(START);
    const faulty = await startSimWorld({
      seed: 7,
      clock: c,
      errorRates: { serverError: 0.25, timeout: 0.1, malformed: 0.15 },
    });
    try {
      const out: string[] = [];
      for (let i = 0; i < 24; i++) {
        try {
          // An injected timeout is never answered; an answer, even on a busy machine, comes
          // well within this.
          const res = await fetch(`${faulty.carriers.MSCU!.dcsaBaseUrl}/v2/events?limit=2`, {
            signal: AbortSignal.timeout(3_000),
          });
          const text = await res.text();
          if (res.status >= 500) out.push(`5xx:${res.status}`);
          else {
            try {
              JSON.parse(text);
              out.push('ok');
            } catch {
              out.push('malformed');
            }
          }
        } catch {
          out.push('timeout');
        }
      }
      return out;
    } finally {
      await faulty.close();
    }
  }

  it('injects 5xx, timeouts and malformed bodies, the same way for the same seed', async () => {
    // Two worlds of one seed side by side: each waits out its own injected timeouts.
    const [a, b] = await Promise.all([fates(), fates()]);
    expect(a).toEqual(b);
    for (const kind of ['ok', '5xx:503', 'timeout', 'malformed']) expect(a, kind).toContain(kind);
  });
});
