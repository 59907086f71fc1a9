import { describe, expect, it } from 'vitest';
import { demoTrackingRequests, listTrackableNumbers, World } from '../../src/sim';
import { withSerialRemainder } from '../../src/sim/codes';
import { isValidContainerNumber } from '../../src/shared/iso6346';
import { isNetworkVertex, normalizedPath } from '../../src/sim/geo/searoutes';
import { KM_PER_NM } from '../../src/sim/geo/searoutes';
import { LINES, port } from '../../src/sim/reference';
import { stageAt } from '../../src/sim/world/world';
import { DAY, HOUR } from '../../src/sim/time';

const ORIGIN = Date.UTC(2026, 2, 10, 6);
const world = new World(42, ORIGIN);

describe('container numbers', () => {
  it('moves a serial to the one of its run with the asked remainder, check digit made again', () => {
    for (const [number, remainder] of [
      ['CSQU3054383', 0],
      ['CSQU3054383', 996],
      ['MSCU0000004', 500],
      ['MSCU9999995', 996],
    ] as const) {
      const moved = withSerialRemainder(number, 997, remainder);
      expect(isValidContainerNumber(moved), moved).toBe(true);
      expect(moved.slice(0, 4)).toBe(number.slice(0, 4));
      expect(Number(moved.slice(4, 10)) % 997, moved).toBe(remainder);
      expect(Math.abs(Number(moved.slice(4, 10)) - Number(number.slice(4, 10)))).toBeLessThan(
        2 * 997,
      );
    }
  });

  it('gives every box a valid number with its carrier owner prefix', () => {
    for (const s of world.shipments) {
      const prefixes = LINES.find((l) => l.scac === s.scac)!.container_prefixes;
      for (const c of s.containers) {
        expect(isValidContainerNumber(c.number), c.number).toBe(true);
        expect(prefixes, `${s.scac} ${c.number}`).toContain(c.number.slice(0, 4));
      }
    }
  });
});

describe('determinism', () => {
  it('gives the same world for the same seed and a different one for another seed', () => {
    const again = new World(42, ORIGIN + 17 * DAY);
    expect(again.trackableNumbers()).toEqual(world.trackableNumbers());
    const other = new World(43, ORIGIN);
    expect(other.trackableNumbers().map((t) => t.request_number)).not.toEqual(
      world.trackableNumbers().map((t) => t.request_number),
    );
    expect(listTrackableNumbers(42)).toEqual(world.trackableNumbers());
  });

  it('plays the same plan relative to its origin', () => {
    const shifted = new World(42, ORIGIN + 5 * DAY);
    const a = world.shipments.map((s) => s.legs.map((l) => l.discharge.arrive - ORIGIN));
    const b = shifted.shipments.map((s) =>
      s.legs.map((l) => l.discharge.arrive - (ORIGIN + 5 * DAY)),
    );
    expect(b).toEqual(a);
  });
});

describe('trackable numbers', () => {
  it('lists BL, booking and container numbers with a SCAC and a story, all unique', () => {
    const numbers = world.trackableNumbers();
    expect(numbers.length).toBeGreaterThan(100);
    const keys = numbers.map((n) => n.request_number);
    expect(new Set(keys).size).toBe(keys.length);
    for (const n of numbers) {
      expect(LINES.map((l) => l.scac)).toContain(n.scac);
      expect(n.story.length).toBeGreaterThan(10);
    }
    const bls = numbers.filter((n) => n.request_type === 'bill_of_lading');
    for (const bl of bls) {
      const prefixes = LINES.find((l) => l.scac === bl.scac)!.bill_of_lading_prefixes;
      expect(
        prefixes.some((p) => bl.request_number.startsWith(p)),
        bl.request_number,
      ).toBe(true);
    }
  });

  it('offers about 25 demo requests covering the stages of an import', () => {
    const demo = demoTrackingRequests(42);
    expect(demo.length).toBeGreaterThanOrEqual(20);
    expect(demo.length).toBeLessThanOrEqual(30);
    expect(new Set(demo.map((d) => d.request_type))).toEqual(
      new Set(['bill_of_lading', 'booking_number', 'container']),
    );
    const stages = new Set<string>();
    for (const d of demo) {
      const s = world.shipments.find(
        (x) =>
          x.billOfLading === d.request_number ||
          x.booking === d.request_number ||
          x.containers.some((c) => c.number === d.request_number),
      )!;
      expect(s.scac).toBe(d.scac);
      for (const c of s.containers) stages.add(stageAt(s, c, ORIGIN));
    }
    for (const stage of ['at_sea', 'discharged', 'available', 'on_rail', 'picked_up', 'returned']) {
      expect([...stages], stage).toContain(stage);
    }
  });

  it('places scenario boxes at their stage at the origin', () => {
    const stagesOf = (kind: string): string[] =>
      world.shipments
        .filter((s) => s.kind === kind)
        .flatMap((s) => s.containers.map((c) => stageAt(s, c, ORIGIN)));
    expect(stagesOf('at_sea').every((s) => s === 'at_sea')).toBe(true);
    expect(stagesOf('on_rail').every((s) => s === 'on_rail')).toBe(true);
    expect(stagesOf('returned').every((s) => s === 'returned')).toBe(true);
    expect(stagesOf('discharged_holds').every((s) => s === 'discharged')).toBe(true);
    expect(stagesOf('available_lfd_tomorrow').every((s) => s === 'available')).toBe(true);
  });
});

describe('voyage geometry', () => {
  const legs = world.services.flatMap((s) =>
    s.legs.map((leg, i) => ({
      service: s,
      from: s.spec.rotation[i]!,
      to: s.spec.rotation[(i + 1) % s.spec.rotation.length]!,
      leg,
    })),
  );

  it('keeps every leg on the marine network between its two ports', () => {
    for (const { from, to, leg } of legs) {
      const inner = leg.path.slice(1, -1);
      expect(inner.length, `${from}-${to}`).toBeGreaterThan(0);
      expect(
        inner.every((p) => isNetworkVertex(p)),
        `${from}-${to}`,
      ).toBe(true);
      // The ends are the ports themselves, and the first/last hop to the network is short.
      const a = port(from);
      const b = port(to);
      expect(leg.path[0]).toEqual([a.longitude, a.latitude]);
      const end = normalizedPath(leg)[leg.path.length - 1]!;
      expect(end[0]).toBeCloseTo(b.longitude, 9);
      expect(end[1]).toBeCloseTo(b.latitude, 9);
      expect(leg.cumulativeKm[1]!, `${from} to network`).toBeLessThan(400);
      expect(
        leg.lengthKm - leg.cumulativeKm[leg.path.length - 2]!,
        `network to ${to}`,
      ).toBeLessThan(400);
      for (const p of normalizedPath(leg)) expect(Math.abs(p[0]!)).toBeLessThanOrEqual(180);
    }
  });

  it('sends trans-Pacific legs across the antimeridian, not round the world', () => {
    const westCoast = ['USLAX', 'USLGB', 'USOAK', 'USSEA', 'USTIW'];
    const eastAsia = /^(CN|KR|TW|HK|JP)/;
    const transPacific = legs.filter(
      ({ from, to }) =>
        (westCoast.includes(from) && eastAsia.test(to)) ||
        (westCoast.includes(to) && eastAsia.test(from)),
    );
    expect(transPacific.length).toBeGreaterThan(10);
    for (const { from, to, leg } of transPacific) {
      const lons = normalizedPath(leg).map((p) => p[0]!);
      const crossings = lons.slice(1).filter((lon, i) => Math.abs(lon - lons[i]!) > 180).length;
      expect(crossings, `${from}-${to}`).toBe(1);
      // Shanghai to Los Angeles is about 10,500 km by great circle; round the world would be 25,000+.
      expect(leg.lengthKm, `${from}-${to}`).toBeLessThan(13_000);
    }
  });

  it('moves vessels at 14 to 20 knots between ports and keeps them still in port', () => {
    for (const at of [ORIGIN, ORIGIN + 3 * DAY + 5 * HOUR, ORIGIN + 20 * DAY]) {
      for (const { vessel, state } of world.vessels(at)) {
        if (state.inPort) expect(state.speedKnots).toBe(0);
        else {
          expect(state.speedKnots, vessel.name).toBeGreaterThanOrEqual(13.5);
          expect(state.speedKnots, vessel.name).toBeLessThanOrEqual(21);
        }
        expect(Math.abs(state.lon)).toBeLessThanOrEqual(180);
      }
    }
  });

  it('moves a vessel at sea by about its speed times the elapsed time', () => {
    const atSea = world
      .vessels(ORIGIN)
      .find(
        (v) =>
          !v.state.inPort &&
          world
            .vessels(ORIGIN + HOUR)
            .find((w) => w.vessel.imo === v.vessel.imo && !w.state.inPort),
      )!;
    const later = world.vessels(ORIGIN + HOUR).find((v) => v.vessel.imo === atSea.vessel.imo)!;
    const dLat = (later.state.lat - atSea.state.lat) * 111;
    const dLon =
      (((later.state.lon - atSea.state.lon + 540) % 360) - 180) *
      111 *
      Math.cos((atSea.state.lat * Math.PI) / 180);
    const km = Math.hypot(dLat, dLon);
    expect(km).toBeGreaterThan(atSea.state.speedKnots * KM_PER_NM * 0.6);
    expect(km).toBeLessThan(atSea.state.speedKnots * KM_PER_NM * 1.4);
  });
});
