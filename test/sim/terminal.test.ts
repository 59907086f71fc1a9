import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Value } from 'typebox/value';
import { ManualClock } from '../../src/shared/clock';
import { TerminalContainerStatus, TerminalQueryResult } from '../../src/shared/feeds/terminal';
import { startSimWorld, type RunningSimWorld } from '../../src/sim';
import { DAY, HOUR } from '../../src/sim/time';
import type { ShipmentPlan } from '../../src/sim/world/plan';

const START = Date.UTC(2026, 2, 10, 6);
let clock: ManualClock;
let sim: RunningSimWorld;

beforeAll(async () => {
  clock = new ManualClock(START);
  sim = await startSimWorld({ seed: 42, clock });
});
afterAll(async () => {
  await sim.close();
});

async function status(number: string): Promise<{ code: number; body: TerminalContainerStatus }> {
  const res = await fetch(`${sim.terminal.baseUrl}/containers/${number}`);
  const body = (await res.json()) as TerminalContainerStatus;
  if (res.status === 200)
    expect(
      Value.Check(TerminalContainerStatus, body),
      JSON.stringify([...Value.Errors(TerminalContainerStatus, body)]),
    ).toBe(true);
  return { code: res.status, body };
}

const shipments = (kind: string): ShipmentPlan[] =>
  sim.world.model.shipments.filter((s) => s.kind === kind);

describe('terminal feed', () => {
  it('reports holds on a discharged box and no availability', async () => {
    const box = shipments('discharged_holds')[0]!.containers[0]!;
    const { code, body } = await status(box.number);
    expect(code).toBe(200);
    expect(body.facility.kind).toBe('terminal');
    expect(body.discharged_at).not.toBeNull();
    expect(body.available_for_pickup).toBe(false);
    expect(body.holds.some((h) => h.status === 'hold')).toBe(true);
  });

  it('reports an available box whose last free day is tomorrow in the terminal zone', async () => {
    const s = shipments('available_lfd_tomorrow')[0]!;
    const { body } = await status(s.containers[0]!.number);
    expect(body.available_for_pickup).toBe(true);
    const localDate = (ms: number): string =>
      new Intl.DateTimeFormat('en-CA', {
        timeZone: body.facility.time_zone,
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
      }).format(ms);
    expect(localDate(Date.parse(body.last_free_day!))).toBe(localDate(START + DAY));
    expect(body.holds.every((h) => h.status === 'released')).toBe(true);
  });

  it('answers a rail box from the inland ramp once it has left the port', async () => {
    const box = shipments('on_rail')[0]!.containers[0]!;
    const { body } = await status(box.number);
    expect(body.facility.kind).toBe('rail_terminal');
    expect(body.facility.locode).toBe(box.rail!.metro.locode);
    expect(body.rail_unloaded_at).toBeNull();
  });

  it('grows demurrage daily after the last free day', async () => {
    const box = shipments('demurrage')[0]!.containers[0]!;
    const first = await status(box.number);
    const fee = (b: TerminalContainerStatus): number =>
      b.fees.find((f) => f.type === 'demurrage')?.amount ?? 0;
    expect(fee(first.body)).toBeGreaterThan(0);
    expect(first.body.fees.find((f) => f.type === 'total')!.amount).toBeGreaterThanOrEqual(
      fee(first.body),
    );
    clock.advance(DAY);
    const next = await status(box.number);
    expect(fee(next.body)).toBeGreaterThan(fee(first.body));
  });

  it('answers queries in bulk and lists unknown numbers, and refuses bad bodies', async () => {
    const known = shipments('picked_up').flatMap((s) => s.containers.map((c) => c.number));
    const res = await fetch(`${sim.terminal.baseUrl}/containers/query`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ container_numbers: [...known, 'ABCU1234560'] }),
    });
    const body = (await res.json()) as TerminalQueryResult;
    expect(Value.Check(TerminalQueryResult, body)).toBe(true);
    expect(body.containers.map((c) => c.container_number).sort()).toEqual(known.sort());
    expect(body.not_found).toEqual(['ABCU1234560']);
    for (const bad of [{}, { container_numbers: [] }, { container_numbers: ['nope'] }]) {
      const r = await fetch(`${sim.terminal.baseUrl}/containers/query`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(bad),
      });
      expect(r.status, JSON.stringify(bad)).toBe(400);
    }
    expect((await fetch(`${sim.terminal.baseUrl}/containers/not-a-number`)).status).toBe(400);
    expect((await fetch(`${sim.terminal.baseUrl}/containers/ABCU1234560`)).status).toBe(404);
  });
});

describe('a seeded box through the protocol faces as time passes', () => {
  it('goes from at sea to available to picked up', async () => {
    const s = shipments('lifecycle').find((x) => x.scac in sim.carriers)!;
    const box = s.containers[0]!;
    const dcsa = async (): Promise<Record<string, unknown>[]> => {
      const res = await fetch(
        `${sim.carriers[s.scac]!.dcsaBaseUrl}/v2/events?equipmentReference=${box.number}&limit=1000`,
      );
      return (await res.json()) as Record<string, unknown>[];
    };
    const has = (events: Record<string, unknown>[], code: string, empty = 'LADEN'): boolean =>
      events.some(
        (e) =>
          e.equipmentEventTypeCode === code &&
          e.emptyIndicatorCode === empty &&
          e.eventClassifierCode === 'ACT',
      );

    // At sea: loaded, not discharged; the terminal does not show it as available.
    expect(sim.world.containerStory(box.number)!.stage).toBe('at_sea');
    let events = await dcsa();
    expect(has(events, 'LOAD')).toBe(true);
    expect(has(events, 'DISC')).toBe(false);
    const before = await status(box.number);
    if (before.code === 200) expect(before.body.available_for_pickup).toBe(false);

    // Available: discharged, holds cleared, a last free day set.
    clock.advanceTo(box.availableAt + HOUR);
    expect(sim.world.containerStory(box.number)!.stage).toBe('available');
    events = await dcsa();
    expect(has(events, 'DISC')).toBe(true);
    const available = await status(box.number);
    expect(available.code).toBe(200);
    expect(available.body.available_for_pickup).toBe(true);
    expect(available.body.discharged_at).not.toBeNull();
    expect(available.body.last_free_day).not.toBeNull();
    expect(available.body.holds.filter((h) => h.status !== 'released')).toEqual([]);
    const arrivals = events.length;

    // Picked up: gated out full on a chassis, no longer available.
    clock.advanceTo(box.fullOutAt + HOUR);
    expect(sim.world.containerStory(box.number)!.stage).toBe('picked_up');
    events = await dcsa();
    expect(events.length).toBeGreaterThan(arrivals);
    expect(has(events, 'GTOT')).toBe(true);
    const out = await status(box.number);
    expect(out.body.available_for_pickup).toBe(false);
    expect(out.body.full_out_at).not.toBeNull();
    expect(out.body.full_out_chassis_number).toMatch(/^[A-Z]{3}Z[0-9]{7}$/);

    // Empty returned.
    clock.advanceTo(box.emptyReturnedAt + HOUR);
    events = await dcsa();
    expect(has(events, 'GTIN', 'EMPTY')).toBe(true);
    expect((await status(box.number)).body.empty_returned_at).not.toBeNull();
  });
});

describe('terminal error injection', () => {
  it('fails some requests the same way for the same seed', async () => {
    const run = async (): Promise<number[]> => {
      const c = new ManualClock(START);
      const faulty = await startSimWorld({ seed: 9, clock: c, errorRates: { serverError: 0.4 } });
      try {
        const number = faulty.world.model.shipments[0]!.containers[0]!.number;
        const codes: number[] = [];
        for (let i = 0; i < 15; i++)
          codes.push((await fetch(`${faulty.terminal.baseUrl}/containers/${number}`)).status);
        return codes;
      } finally {
        await faulty.close();
      }
    };
    const a = await run();
    expect(a).toEqual(await run());
    expect(a).toContain(502);
    expect(a.some((code) => code !== 502)).toBe(true);
  });
});
