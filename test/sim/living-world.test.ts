/**
 * The world keeps living: at 3600x (one simulated hour per real second) for 90 simulated days,
 * played on a manual clock in steps instead of real sleeping, every watched stage always holds
 * boxes, the same seed and origin give the same world (also when rebuilt later, as after a
 * restart), plans are plausible and the working set stays bounded.
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/shared/clock';
import { followNewBookings, SimWorld, World, type NewBooking } from '../../src/sim';
import { buildEvents } from '../../src/sim/carriers/events';
import { port } from '../../src/sim/reference';
import { terminalStatusAt } from '../../src/sim/terminals/status';
import { DAY, HOUR, localMidnight } from '../../src/sim/time';
import { DEMO_STAGES, demoStageAt, type DemoStage } from '../../src/sim/world/stages';
import { equipmentOf, type ShipmentPlan, type VesselLeg } from '../../src/sim/world/plan';
import { lastLiveAt, RETENTION_MS } from '../../src/sim/world/stream';

const ORIGIN = Date.UTC(2026, 10, 23, 2);
const SPEED = 3600;
/** One check per real six seconds at 3600x: every six simulated hours. */
const STEP = 6 * HOUR;
const DAYS = 90;

function countStages(world: World, at: number): Map<DemoStage, number> {
  const counts = new Map<DemoStage, number>();
  for (const s of world.shipmentsAt(at))
    for (const c of s.containers) {
      const stage = demoStageAt(s, c, at);
      if (stage) counts.set(stage, (counts.get(stage) ?? 0) + 1);
    }
  return counts;
}

/** Every shipment the world held at some point of the run, by index. */
const seen = new Map<number, ShipmentPlan>();

describe(`a world run at ${SPEED}x for ${DAYS} simulated days`, () => {
  const clock = new ManualClock(ORIGIN);
  const world = new World(42, ORIGIN);
  const live: number[] = [];
  const missing: string[] = [];
  const cohortsHeld: number[] = [];
  for (let at = ORIGIN; at <= ORIGIN + DAYS * DAY; at += STEP) {
    clock.advanceTo(at);
    const counts = countStages(world, clock.now());
    for (const stage of DEMO_STAGES)
      if (!counts.get(stage)) missing.push(`day ${((at - ORIGIN) / DAY).toFixed(2)}: ${stage}`);
    const shipments = world.shipmentsAt(clock.now());
    live.push(shipments.length);
    cohortsHeld.push(world.heldCohorts);
    for (const s of shipments) seen.set(s.index, s);
  }

  it('always holds boxes at sea, arriving, held, with the LFD tomorrow, on rail, picked up and returned', () => {
    expect(missing).toEqual([]);
  });

  it('keeps receiving bookings: shipments booked late in the run are in the world', () => {
    const late = [...seen.values()].filter((s) => s.bookingReceivedAt > ORIGIN + 60 * DAY);
    expect(late.length).toBeGreaterThan(60);
  });

  it('keeps the working set bounded: finished shipments leave, cohorts are dropped', () => {
    const firstMonth = Math.max(...live.slice(0, (30 * DAY) / STEP));
    const lastMonth = Math.max(...live.slice((60 * DAY) / STEP));
    expect(lastMonth).toBeLessThan(firstMonth * 1.5);
    expect(Math.max(...live)).toBeLessThan(400);
    expect(Math.max(...cohortsHeld)).toBeLessThan(200);
    // Every shipment finished long before the end is gone from the world.
    const end = ORIGIN + DAYS * DAY;
    const remaining = new Set(world.shipmentsAt(end).map((s) => s.index));
    for (const s of seen.values()) {
      const finished = Math.max(...s.containers.map((c) => c.emptyReturnedAt));
      if (finished + RETENTION_MS < end) expect(remaining.has(s.index)).toBe(false);
    }
  });
});

describe('determinism', () => {
  it('rebuilds the same world from seed and origin at any later time (a restart)', () => {
    const at = ORIGIN + 75 * DAY;
    const long = new World(42, ORIGIN);
    for (let t = ORIGIN; t <= at; t += DAY) long.shipmentsAt(t);
    const restarted = new World(42, ORIGIN);
    expect(restarted.shipmentsAt(at)).toEqual(long.shipmentsAt(at));
    expect(restarted.bookingsTrackableBetween(at - 5 * DAY, at)).toEqual(
      long.bookingsTrackableBetween(at - 5 * DAY, at),
    );
  });

  it('answers just before and at the instants a booking arrives or a shipment retires as a world built afresh does', () => {
    // The world keeps its last answer until the next of those instants: ask one world at each
    // in turn, and a new world (no answer kept) at the same instant.
    const probe = new World(42, ORIGIN);
    const all = new Map<number, ShipmentPlan>();
    for (let day = 0; day <= 40; day++)
      for (const s of probe.shipmentsAt(ORIGIN + day * DAY)) all.set(s.index, s);
    const from = ORIGIN + 20 * DAY;
    const nearest = (instants: number[]) =>
      instants
        .filter((t) => t > from)
        .sort((a, b) => a - b)
        .slice(0, 3);
    const bookings = nearest([...all.values()].map((s) => s.bookingReceivedAt));
    const retirements = nearest([...all.values()].map(lastLiveAt));
    expect(bookings).toHaveLength(3);
    expect(retirements).toHaveLength(3);
    const instants = [
      ...bookings.flatMap((t) => [t - 1, t]),
      ...retirements.flatMap((t) => [t, t + 1]),
    ].sort((a, b) => a - b);
    const world = new World(42, ORIGIN);
    world.shipmentsAt(from);
    const indexes = (shipments: ShipmentPlan[]) => shipments.map((s) => s.index);
    for (const at of instants) {
      const afresh = new World(42, ORIGIN).shipmentsAt(at);
      expect(indexes(world.shipmentsAt(at)), `at ${new Date(at).toISOString()}`).toEqual(
        indexes(afresh),
      );
      const last = afresh.at(-1)!.containers[0]!.number;
      expect(world.findContainer(last, at)?.container.number).toBe(last);
    }
  });

  it('gives another seed other bookings', () => {
    const at = ORIGIN + 40 * DAY;
    const a = new World(42, ORIGIN).bookingsTrackableBetween(at - 10 * DAY, at);
    const b = new World(43, ORIGIN).bookingsTrackableBetween(at - 10 * DAY, at);
    expect(a.length).toBeGreaterThan(10);
    expect(b.map((x) => x.request_number)).not.toEqual(a.map((x) => x.request_number));
  });

  it('never gives two boxes, bills of lading or bookings alive at once the same number', () => {
    const world = new World(42, ORIGIN);
    for (let at = ORIGIN; at <= ORIGIN + DAYS * DAY; at += 5 * DAY) {
      const shipments = world.shipmentsAt(at);
      const numbers = shipments.flatMap((s) => [
        s.billOfLading,
        s.booking,
        ...s.containers.map((c) => c.number),
      ]);
      expect(new Set(numbers).size).toBe(numbers.length);
    }
  });
});

describe('plausibility of every shipment of the run', () => {
  const shipments = () => [...seen.values()];
  const world = new World(42, ORIGIN);
  const legKm = (leg: VesselLeg): number => {
    const service = world.services.find((s) => s.code === leg.serviceCode)!;
    return leg.calls.slice(0, -1).reduce((km, c) => km + service.legs[c.callIndex]!.lengthKm, 0);
  };

  it('sails each leg at a plausible average speed, port calls included', () => {
    for (const s of shipments())
      for (const leg of s.legs) {
        const hours = (leg.discharge.arrive - leg.load.depart) / HOUR;
        const knots = legKm(leg) / 1.852 / hours;
        expect(knots, `${s.story}`).toBeGreaterThan(9);
        expect(knots, `${s.story}`).toBeLessThan(21);
      }
  });

  it('takes days, not weeks, on short feeder legs (Haiphong -> Hong Kong kind of lanes)', () => {
    const feederLegs = shipments().flatMap((s) => (s.legs.length > 1 ? [s.legs[0]!] : []));
    expect(feederLegs.length).toBeGreaterThan(0);
    for (const leg of feederLegs) {
      const days = (leg.discharge.arrive - leg.load.depart) / DAY;
      const a = port(leg.load.locode);
      const b = port(leg.discharge.locode);
      const km = Math.hypot(a.longitude - b.longitude, a.latitude - b.latitude) * 111;
      // Never more than twice the time of a direct 14-knot passage plus a day in each port.
      expect(days, `${leg.load.locode} -> ${leg.discharge.locode}`).toBeLessThan(
        (2 * km) / (14 * 1.852 * 24) + leg.calls.length,
      );
    }
  });

  it('keeps every box on a consistent timeline', () => {
    for (const s of shipments()) {
      if (s.cancelledAt !== null) continue;
      for (const c of s.containers) {
        const seq = [
          s.bookingReceivedAt,
          c.emptyOutAt,
          c.fullInAt,
          c.loadedAt,
          s.legs[0]!.load.depart,
          s.legs[s.legs.length - 1]!.discharge.arrive,
          c.berthedAt,
          c.dischargedAt,
          c.availableAt,
          c.fullOutAt,
          c.emptyReturnedAt,
        ];
        for (let i = 1; i < seq.length; i++)
          expect(seq[i], `${c.number} step ${i}`).toBeGreaterThanOrEqual(seq[i - 1]!);
        if (c.rail) {
          expect(c.rail.loadedAt).toBeGreaterThanOrEqual(c.dischargedAt);
          expect(c.fullOutAt).toBeGreaterThanOrEqual(c.rail.availableAt);
        }
      }
    }
  });

  it('sets every last free day at local midnight in the zone of its source', () => {
    const midnight = (zone: string, at: number) => at === localMidnight(zone, at + 12 * HOUR);
    for (const s of shipments()) {
      if (s.cancelledAt !== null) continue;
      const portZone = port(s.pod).time_zone;
      for (const c of s.containers) {
        const lfds = (p: { lfd: number; moves: { lfd: number }[] }) => [
          p.lfd,
          ...p.moves.map((m) => m.lfd),
        ];
        for (const lfd of lfds(c.terminalLfd))
          if (!c.rail) expect(midnight(portZone, lfd), c.number).toBe(true);
        if (c.lineLfd)
          for (const lfd of lfds(c.lineLfd)) expect(midnight(portZone, lfd), c.number).toBe(true);
        if (c.rail)
          for (const lfd of lfds(c.rail.lfd))
            expect(midnight(c.rail.metro.time_zone, lfd), c.number).toBe(true);
      }
    }
  });

  it('publishes no actual in the future and no arrival estimate in the past for a box still at sea', () => {
    for (const s of shipments()
      .filter((x) => x.index >= 10_000)
      .slice(0, 120)) {
      const events = buildEvents(s, 42);
      for (const e of events) {
        if (e.body.eventClassifierCode === 'ACT')
          expect(e.createdAt).toBeGreaterThanOrEqual(e.eventDateTime);
      }
      const arrive = s.legs[s.legs.length - 1]!.discharge.arrive;
      for (let at = s.legs[0]!.load.depart + DAY; at < arrive - HOUR; at += 2 * DAY) {
        const estimates = events.filter(
          (e) =>
            e.typeCode === 'ARRI' &&
            e.body.eventClassifierCode !== 'ACT' &&
            e.createdAt <= at &&
            (e.body.transportCall as { UNLocationCode?: string } | undefined)?.UNLocationCode ===
              s.pod,
        );
        const latest = estimates.sort((a, b) => a.createdAt - b.createdAt).at(-1);
        if (latest)
          expect(
            latest.eventDateTime,
            `${s.story} at ${new Date(at).toISOString()}`,
          ).toBeGreaterThan(at);
      }
    }
  });

  it('gives every box an ISO size-type, every shipment a customer and references, every available box a terminal', () => {
    for (const s of shipments()) {
      expect(s.customer.length).toBeGreaterThan(3);
      expect(s.references.length).toBeGreaterThan(0);
      for (const c of s.containers) {
        expect(c.isoCode).toMatch(/^(22|42|45|L5)[GRU]\d$/);
        expect([20, 40, 45]).toContain(equipmentOf(c.isoCode).lengthFt);
        if (s.cancelledAt === null) expect(c.sealNumber).toMatch(/^[A-Z]{2}\d{7}$/);
        for (
          let at = c.availableAt;
          at < Math.min(c.fullOutAt, c.availableAt + 3 * DAY);
          at += 12 * HOUR
        ) {
          const status = terminalStatusAt(s, c, at);
          if (status?.available_for_pickup) expect(status.facility.name.length).toBeGreaterThan(0);
        }
      }
    }
  });
});

describe('following new bookings', () => {
  it('hands each booking over once, oldest first, as the clock reaches it', async () => {
    const clock = new ManualClock(ORIGIN);
    const sim = new SimWorld(new World(42, ORIGIN), clock);
    const got: NewBooking[] = [];
    const follower = followNewBookings(sim, {
      since: ORIGIN,
      pollMs: 5,
      track: async (b) => {
        got.push(b);
      },
    });
    const waitFor = async (at: number) => {
      clock.advanceTo(at);
      while (follower.upTo < at) await new Promise((r) => setTimeout(r, 5));
    };
    await waitFor(ORIGIN + 3 * DAY);
    const firstBatch = got.length;
    await waitFor(ORIGIN + 6 * DAY);
    await follower.stop();
    expect(firstBatch).toBeGreaterThan(3);
    expect(got.length).toBeGreaterThan(firstBatch);
    expect(got.map((b) => b.request_number)).toEqual(
      sim.model.bookingsTrackableBetween(ORIGIN, ORIGIN + 6 * DAY).map((b) => b.request_number),
    );
    expect(new Set(got.map((b) => b.request_number)).size).toBe(got.length);
    for (const b of got) expect(b.trackableFrom).toBeLessThanOrEqual(ORIGIN + 6 * DAY);
  });
});
