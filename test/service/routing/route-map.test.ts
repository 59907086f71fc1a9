import { beforeAll, describe, expect, it } from 'vitest';
import { Value } from 'typebox/value';
import type { Position } from 'geojson';
import { RouteFeature, RouteFeatureCollection } from '../../../src/shared/api/resources';
import { antimeridianCrossings, unwrapPath } from '../../../src/shared/geo/antimeridian';
import { haversineKm, type SeaRouter } from '../../../src/shared/geo/sea-routes';
import { maxDeviationDeg } from '../../../src/shared/geo/simplify';
import { marineSeaRouter } from '../../../src/service/routing/network';
import {
  FRESH_POSITION_MS,
  buildRouteMap,
  type RoutePort,
  type TrackPoint,
} from '../../../src/service/routing/route-map';
import { CompleteRouteFeature } from '../../../src/shared/api/route-features';
import {
  DAY,
  HOUR,
  PORTS,
  T0,
  VESSELS,
  iso,
  mapData,
  portCalls,
  trackAlong,
  type LegPlan,
} from './fixtures';

let router: SeaRouter;
beforeAll(() => {
  router = marineSeaRouter();
});

type Props = Record<string, unknown>;
type AnyFeature = {
  type: string;
  geometry: { type: string; coordinates: unknown };
  properties: Props;
};

const featuresOf = (fc: { features: unknown[] } | null) => (fc?.features ?? []) as AnyFeature[];
const ofType = (fc: { features: unknown[] } | null, type: string) =>
  featuresOf(fc).filter((f) => f.properties.feature_type === type);

/** Every feature must validate against the shared wire schema and the complete per-type schema. */
function expectValid(fc: { type: string; features: unknown[] } | null) {
  expect(fc).not.toBeNull();
  expect(Value.Check(RouteFeatureCollection, fc)).toBe(true);
  for (const f of fc!.features) {
    expect(Value.Check(RouteFeature, f)).toBe(true);
    const errors = [...Value.Errors(CompleteRouteFeature, f)];
    expect(errors, JSON.stringify(f).slice(0, 300)).toEqual([]);
  }
}

function allCoordinates(fc: { features: unknown[] } | null): Position[] {
  return featuresOf(fc).flatMap((f) =>
    f.geometry.type === 'Point'
      ? [f.geometry.coordinates as Position]
      : (f.geometry.coordinates as Position[]),
  );
}

const leg = (
  vesselIndex: number,
  etd: number,
  eta: number,
  extra: Partial<LegPlan> = {},
): LegPlan => ({
  vessel: VESSELS[vesselIndex]!,
  voyage: `V${vesselIndex + 1}00E`,
  etd,
  eta,
  ...extra,
});

describe('port points', () => {
  const cases: { name: string; ports: RoutePort[]; labels: string[] }[] = [
    { name: 'no transshipment', ports: [PORTS.shanghai, PORTS.losAngeles], labels: ['POL', 'POD'] },
    {
      name: 'one transshipment',
      ports: [PORTS.shanghai, PORTS.busan, PORTS.losAngeles],
      labels: ['POL', 'TS1', 'POD'],
    },
    {
      name: 'two transshipments',
      ports: [PORTS.shanghai, PORTS.busan, PORTS.yokohama, PORTS.losAngeles],
      labels: ['POL', 'TS1', 'TS2', 'POD'],
    },
  ];
  for (const c of cases) {
    it(`labels and sequences with ${c.name}`, () => {
      const legs = c.ports.slice(1).map((_, k) => leg(k, T0 + k * 5 * DAY, T0 + (k * 5 + 4) * DAY));
      const calls = portCalls(c.ports, legs);
      const fc = buildRouteMap(mapData(c.ports, calls, []), { now: T0 - DAY, router });
      expectValid(fc);
      const ports = ofType(fc, 'port');
      expect(ports.map((p) => p.properties.label)).toEqual(c.labels);
      expect(ports.map((p) => p.properties.ports_sequence)).toEqual(c.labels.map((_, i) => i + 1));
      expect(new Set(ports.map((p) => p.properties.ports_total))).toEqual(
        new Set([c.ports.length]),
      );
      ports.forEach((p, i) => {
        const port = c.ports[i]!;
        expect(p.geometry.coordinates).toEqual([port.longitude, port.latitude]);
        expect(p.properties).toMatchObject({
          location_id: port.id,
          location_type: 'Port',
          name: port.name,
          country_code: port.country_code,
          country: port.country,
          time_zone: port.time_zone,
          state_abbr: port.state_abbr,
          state: port.state,
          inbound_eta_at: calls[i]!.inbound_eta_at,
          outbound_etd_at: calls[i]!.outbound_etd_at,
          updated_at: calls[i]!.updated_at,
        });
      });
      expect(ports.at(-1)!.properties).toMatchObject({ state_abbr: 'CA', state: 'California' });
      // Nothing has sailed: every leg is a predicted full leg from one port to the next.
      const full = ofType(fc, 'estimated_full_legs');
      expect(full.map((f) => f.properties.ports_sequence)).toEqual(
        c.ports.slice(1).map((_, k) => k + 1),
      );
      full.forEach((f, k) => {
        expect(f.properties.previous_port_id).toBe(c.ports[k]!.id);
        expect(f.properties.next_port_id).toBe(c.ports[k + 1]!.id);
        const coords = f.geometry.coordinates as Position[];
        expect(f.properties.point_count).toBe(coords.length);
        expect(coords[0]).toEqual([c.ports[k]!.longitude, c.ports[k]!.latitude]);
        expect(coords.at(-1)).toEqual([c.ports[k + 1]!.longitude, c.ports[k + 1]!.latitude]);
      });
      expect(ofType(fc, 'current_vessel')).toEqual([]);
      expect(ofType(fc, 'past_vessel_locations')).toEqual([]);
    });
  }

  it('counts a port with unknown coordinates in sequences but draws no point or leg to it', () => {
    const unknownTs: RoutePort = { ...PORTS.busan, latitude: null, longitude: null };
    const ports = [PORTS.shanghai, unknownTs, PORTS.losAngeles];
    const calls = portCalls(ports, [leg(0, T0, T0 + 3 * DAY), leg(1, T0 + 5 * DAY, T0 + 15 * DAY)]);
    const fc = buildRouteMap(mapData(ports, calls, []), { now: T0 - DAY, router });
    expectValid(fc);
    expect(ofType(fc, 'port').map((p) => [p.properties.label, p.properties.ports_total])).toEqual([
      ['POL', 3],
      ['POD', 3],
    ]);
    expect(ofType(fc, 'estimated_full_legs')).toEqual([]);
  });
});

describe('empty map', () => {
  it('has no route data without port calls', () => {
    expect(
      buildRouteMap({ calls: [], ports: new Map(), legs: [] }, { now: T0, router }),
    ).toBeNull();
  });

  it('has no route data when no port of the route is known', () => {
    const calls = portCalls([PORTS.shanghai, PORTS.losAngeles], [leg(0, T0, T0 + 14 * DAY)]);
    expect(buildRouteMap({ calls, ports: new Map(), legs: [] }, { now: T0, router })).toBeNull();
  });
});

describe('current_vessel rules', () => {
  // Yokohama -> Los Angeles, 12 days; "now" is 5 days into the voyage.
  const from = PORTS.yokohama;
  const to = PORTS.losAngeles;
  const ports = [from, to];
  const departed = T0;
  const arrives = T0 + 12 * DAY;
  const now = T0 + 5 * DAY;
  const fullTrack = (end: number) =>
    trackAlong(router, from, to, { departed, arrives, start: departed, end, stepMs: HOUR });

  type PositionCase = 'fresh' | 'stale' | 'missing';
  const track = (position: PositionCase): TrackPoint[] => {
    if (position === 'missing') return [];
    if (position === 'fresh') return fullTrack(now - 15 * 60 * 1000);
    return fullTrack(now - FRESH_POSITION_MS - HOUR); // last report more than a day old
  };

  for (const hasDeparted of [false, true]) {
    for (const hasArrived of [false, true]) {
      for (const position of ['fresh', 'stale', 'missing'] as const) {
        const expected = hasDeparted && !hasArrived && position === 'fresh';
        it(`departed=${hasDeparted} arrived=${hasArrived} position=${position}: ${expected ? 'shown' : 'absent'}`, () => {
          const plan = leg(0, departed, arrives, {
            ...(hasDeparted ? { atd: departed } : {}),
            ...(hasArrived ? { ata: now - 2 * HOUR } : {}),
          });
          const calls = portCalls(ports, [plan]);
          const fc = buildRouteMap(mapData(ports, calls, [track(position)]), { now, router });
          expectValid(fc);
          const vessels = ofType(fc, 'current_vessel');
          const partial = ofType(fc, 'estimated_partial_leg');
          expect(vessels).toHaveLength(expected ? 1 : 0);
          expect(partial).toHaveLength(expected ? 1 : 0);
          // Without a departure the leg is still ahead: a predicted full leg instead.
          expect(ofType(fc, 'estimated_full_legs')).toHaveLength(
            !hasDeparted && !hasArrived ? 1 : 0,
          );
          if (expected) {
            const last = track(position).at(-1)!;
            expect(vessels[0]!.geometry.coordinates).toEqual([last.lon, last.lat]);
            expect(vessels[0]!.properties).toMatchObject({
              ports_sequence: 1,
              vessel_id: VESSELS[0]!.id,
              vessel_name: VESSELS[0]!.name,
              vessel_imo: VESSELS[0]!.imo,
              voyage_number: 'V100E',
              vessel_location_timestamp: iso(last.at),
              vessel_location_speed: 18.5,
              vessel_location_heading: last.heading_deg,
              departure_port_id: from.id,
              departure_port_label: 'POL',
              departure_port_atd: iso(departed),
              departure_port_time_zone: 'Asia/Tokyo',
              arrival_port_id: to.id,
              arrival_port_label: 'POD',
              arrival_port_eta: iso(arrives),
              arrival_port_state_abbr: 'CA',
              arrival_port_time_zone: 'America/Los_Angeles',
            });
          }
        });
      }
    }
  }

  const departedCalls = () => portCalls(ports, [leg(0, departed, arrives, { atd: departed })]);

  it('ignores a fresh position recorded before the departure', () => {
    const before = trackAlong(router, from, to, {
      departed,
      arrives,
      start: departed - 6 * HOUR,
      end: departed - HOUR,
      stepMs: HOUR,
    });
    const fc = buildRouteMap(mapData(ports, departedCalls(), [before]), {
      now: departed + 2 * HOUR,
      router,
    });
    expect(ofType(fc, 'current_vessel')).toEqual([]);
  });

  it('ignores positions stamped in the future and invalid fixes', () => {
    const good = fullTrack(now - 2 * DAY);
    const future = { ...good.at(-1)!, at: now + HOUR };
    const nullIsland = { ...good.at(-1)!, lon: 0, lat: 0, at: now - HOUR };
    const outOfRange = { ...good.at(-1)!, lon: 181, lat: 91, at: now - HOUR };
    for (const bad of [future, nullIsland, outOfRange]) {
      const fc = buildRouteMap(mapData(ports, departedCalls(), [[...good, bad]]), { now, router });
      // The valid positions are two days old: too stale to show the vessel.
      expect(ofType(fc, 'current_vessel')).toEqual([]);
    }
  });

  it('honours a custom freshness window', () => {
    const t = fullTrack(now - 3 * HOUR);
    const tight = buildRouteMap(mapData(ports, departedCalls(), [t]), {
      now,
      router,
      freshPositionMs: 2 * HOUR,
    });
    expect(ofType(tight, 'current_vessel')).toEqual([]);
    const loose = buildRouteMap(mapData(ports, departedCalls(), [t]), { now, router });
    expect(ofType(loose, 'current_vessel')).toHaveLength(1);
  });

  it('shows no vessel when the leg vessel is unknown', () => {
    const data = mapData(ports, departedCalls(), [fullTrack(now - HOUR)]);
    const legs = data.legs.map((l) => ({ ...l, vessel: null }));
    const fc = buildRouteMap({ ...data, legs }, { now, router });
    expect(ofType(fc, 'current_vessel')).toEqual([]);
    expect(ofType(fc, 'past_vessel_locations')).toEqual([]);
  });

  it('treats a later actual as arrival when the transshipment arrival was never reported', () => {
    const p3 = [PORTS.shanghai, PORTS.busan, PORTS.losAngeles];
    const calls = portCalls(p3, [
      leg(0, T0, T0 + 2 * DAY, { atd: T0 }),
      leg(1, T0 + 4 * DAY, T0 + 16 * DAY, { atd: T0 + 4 * DAY }),
    ]);
    const tracks = [
      trackAlong(router, PORTS.shanghai, PORTS.busan, {
        departed: T0,
        arrives: T0 + 2 * DAY,
        start: T0,
        end: T0 + 2 * DAY,
        stepMs: HOUR,
      }),
      trackAlong(router, PORTS.busan, PORTS.losAngeles, {
        departed: T0 + 4 * DAY,
        arrives: T0 + 16 * DAY,
        start: T0 + 4 * DAY,
        end: T0 + 6 * DAY,
        stepMs: HOUR,
      }),
    ];
    const fc = buildRouteMap(mapData(p3, calls, tracks), { now: T0 + 6 * DAY, router });
    expectValid(fc);
    const vessels = ofType(fc, 'current_vessel');
    expect(vessels.map((v) => v.properties.ports_sequence)).toEqual([2]);
    expect(vessels[0]!.properties).toMatchObject({
      vessel_id: VESSELS[1]!.id,
      departure_port_label: 'TS1',
      arrival_port_label: 'POD',
    });
    expect(ofType(fc, 'past_vessel_locations').map((f) => f.properties.ports_sequence)).toEqual([
      1, 2,
    ]);
  });
});

describe('a journey under way with one transshipment', () => {
  // Shanghai -> Busan (done), Busan -> Los Angeles (day 4 of 12), nothing ahead after the POD.
  const ports = [PORTS.shanghai, PORTS.busan, PORTS.losAngeles];
  const leg1 = { departed: T0, arrives: T0 + 2 * DAY };
  const leg2 = { departed: T0 + 3 * DAY, arrives: T0 + 15 * DAY };
  const now = leg2.departed + 8 * DAY; // mid-Pacific, past the antimeridian
  const calls = () =>
    portCalls(ports, [
      leg(0, leg1.departed, leg1.arrives, { atd: leg1.departed, ata: leg1.arrives }),
      leg(1, leg2.departed, leg2.arrives, { atd: leg2.departed }),
    ]);
  const tracks = () => [
    // The feeder's AIS history runs beyond the leg (it sailed on after Busan): cut at the ATA.
    trackAlong(router, PORTS.shanghai, PORTS.busan, {
      ...leg1,
      start: leg1.departed - DAY,
      end: leg1.arrives + DAY,
      stepMs: 15 * 60 * 1000,
    }),
    trackAlong(router, PORTS.busan, PORTS.losAngeles, {
      ...leg2,
      start: leg2.departed,
      end: now - 10 * 60 * 1000,
      stepMs: 15 * 60 * 1000,
    }),
  ];

  it('joins the track, the vessel and the predicted partial leg', () => {
    const fc = buildRouteMap(mapData(ports, calls(), tracks()), { now, router });
    expectValid(fc);
    const [vessel] = ofType(fc, 'current_vessel');
    const [partial] = ofType(fc, 'estimated_partial_leg');
    const past = ofType(fc, 'past_vessel_locations');
    expect(vessel).toBeDefined();
    expect(partial).toBeDefined();
    const partialCoords = partial!.geometry.coordinates as Position[];
    expect(partialCoords[0]).toEqual(vessel!.geometry.coordinates);
    expect(partialCoords.at(-1)).toEqual([PORTS.losAngeles.longitude, PORTS.losAngeles.latitude]);
    expect(partial!.properties).toEqual({
      feature_type: 'estimated_partial_leg',
      ports_sequence: 2,
      current_port_id: PORTS.busan.id,
      next_port_id: PORTS.losAngeles.id,
      point_count: partialCoords.length,
    });
    // The in-progress track ends where the vessel is now.
    const current = past.find((f) => f.properties.ports_sequence === 2)!;
    expect((current.geometry.coordinates as Position[]).at(-1)).toEqual(
      vessel!.geometry.coordinates,
    );
    expect(current.properties.inbound_ata_at).toBeNull();
    expect(current.properties.inbound_eta_at).toBe(iso(leg2.arrives));
    expect(ofType(fc, 'estimated_full_legs')).toEqual([]);
  });

  it('limits each past leg to the positions between its ATD and ATA', () => {
    const fc = buildRouteMap(mapData(ports, calls(), tracks()), { now, router });
    const first = ofType(fc, 'past_vessel_locations').find(
      (f) => f.properties.ports_sequence === 1,
    )!;
    expect(first.properties).toMatchObject({
      vessel_id: VESSELS[0]!.id,
      start_time: iso(leg1.departed),
      end_time: iso(leg1.arrives),
      outbound_atd_at: iso(leg1.departed),
      inbound_ata_at: iso(leg1.arrives),
    });
  });

  it('keeps trans-Pacific lines whole across the antimeridian, coordinates in range', () => {
    const fc = buildRouteMap(mapData(ports, calls(), tracks()), { now, router });
    for (const [lon, lat] of allCoordinates(fc)) {
      expect(Math.abs(lon!)).toBeLessThanOrEqual(180);
      expect(Math.abs(lat!)).toBeLessThanOrEqual(90);
    }
    const [vessel] = ofType(fc, 'current_vessel');
    // 8 of 12 days from Busan: the vessel is east of the antimeridian, so the track jumps once.
    expect((vessel!.geometry.coordinates as number[])[0]).toBeLessThan(-150);
    const past = ofType(fc, 'past_vessel_locations').find(
      (f) => f.properties.ports_sequence === 2,
    )!;
    expect(antimeridianCrossings(past.geometry.coordinates as Position[])).toHaveLength(1);
    const [partial] = ofType(fc, 'estimated_partial_leg');
    expect(antimeridianCrossings(partial!.geometry.coordinates as Position[])).toHaveLength(0);
  });

  it('simplifies recorded tracks within the tolerance, keeping both ends', () => {
    const raw = tracks()[1]!;
    const toleranceDeg = 0.05;
    const fc = buildRouteMap(mapData(ports, calls(), tracks()), { now, router, toleranceDeg });
    const past = ofType(fc, 'past_vessel_locations').find(
      (f) => f.properties.ports_sequence === 2,
    )!;
    const coords = past.geometry.coordinates as Position[];
    expect(past.properties.point_count).toBe(coords.length);
    expect(coords.length).toBeLessThan(raw.length / 4);
    expect(coords[0]).toEqual([raw[0]!.lon, raw[0]!.lat]);
    expect(coords.at(-1)).toEqual([raw.at(-1)!.lon, raw.at(-1)!.lat]);
    const original = raw.map((p) => [p.lon, p.lat]);
    expect(maxDeviationDeg(original, coords)).toBeLessThanOrEqual(toleranceDeg + 1e-9);
  });
});

describe('trans-Pacific predicted legs', () => {
  for (const origin of [PORTS.shanghai, PORTS.yokohama]) {
    it(`${origin.name} -> Los Angeles crosses the antimeridian with coordinates in range`, () => {
      const ports = [origin, PORTS.losAngeles];
      const calls = portCalls(ports, [leg(0, T0, T0 + 14 * DAY)]);
      const fc = buildRouteMap(mapData(ports, calls, []), { now: T0 - DAY, router });
      expectValid(fc);
      const [full] = ofType(fc, 'estimated_full_legs');
      const coords = full!.geometry.coordinates as Position[];
      const crossings = antimeridianCrossings(coords);
      expect(crossings).toHaveLength(1);
      const i = crossings[0]!;
      expect(Math.abs(coords[i]![0]! - coords[i - 1]![0]!)).toBeGreaterThan(180);
      for (const [lon, lat] of coords) {
        expect(Math.abs(lon!)).toBeLessThanOrEqual(180);
        expect(Math.abs(lat!)).toBeLessThanOrEqual(90);
      }
      // The line goes the short way: no point strays into the Atlantic or Indian Ocean.
      expect(coords.every(([lon]) => lon! > 100 || lon! < -100)).toBe(true);
    });
  }
});

describe('a completed journey', () => {
  it('has ports and past tracks only', () => {
    const ports = [PORTS.singapore, PORTS.rotterdam];
    const t = { departed: T0, arrives: T0 + 25 * DAY };
    const calls = portCalls(ports, [leg(1, T0, t.arrives, { atd: T0, ata: t.arrives })]);
    const track = trackAlong(router, PORTS.singapore, PORTS.rotterdam, {
      ...t,
      start: T0,
      end: t.arrives,
      stepMs: HOUR,
    });
    const fc = buildRouteMap(mapData(ports, calls, [track]), { now: t.arrives + 3 * DAY, router });
    expectValid(fc);
    expect(featuresOf(fc).map((f) => f.properties.feature_type)).toEqual([
      'port',
      'port',
      'past_vessel_locations',
    ]);
    expect(ofType(fc, 'port')[1]!.properties.inbound_ata_at).toBe(iso(t.arrives));
  });
});

/** The pieces of a line joined end to start; fails when one does not start where the last ended. */
function joined(pieces: AnyFeature[]): Position[] {
  const out: Position[] = [];
  for (const piece of pieces) {
    const coords = piece.geometry.coordinates as Position[];
    if (out.length > 0) expect(coords[0]).toEqual(out.at(-1));
    out.push(...(out.length > 0 ? coords.slice(1) : coords));
  }
  return out;
}

const portAt = (p: RoutePort): Position => [p.longitude!, p.latitude!];

describe('the sailed line when positions were recorded only from mid-voyage', () => {
  // Yantian -> Long Beach, 16 days; the service saw the vessel only from day 7 (it started late).
  const ports = [PORTS.yantian, PORTS.longBeach];
  const voyage = { departed: T0, arrives: T0 + 16 * DAY };
  const now = T0 + 11 * DAY;
  const calls = portCalls(ports, [leg(0, voyage.departed, voyage.arrives, { atd: T0 })]);
  const recorded = () =>
    trackAlong(router, PORTS.yantian, PORTS.longBeach, {
      ...voyage,
      start: T0 + 7 * DAY,
      end: now - 10 * 60 * 1000,
      stepMs: 15 * 60 * 1000,
    });

  it('draws one continuous line from Yantian to the vessel, the unrecorded part estimated', () => {
    const fc = buildRouteMap(mapData(ports, calls, [recorded()]), { now, router });
    expectValid(fc);
    const sailed = ofType(fc, 'past_vessel_locations');
    expect(sailed.map((f) => f.properties.estimated)).toEqual([true, false]);
    const line = joined(sailed);
    expect(line[0]).toEqual(portAt(PORTS.yantian));
    const [vessel] = ofType(fc, 'current_vessel');
    expect(line.at(-1)).toEqual(vessel!.geometry.coordinates);
    // The estimated piece covers departure to the first recorded position.
    const first = recorded()[0]!;
    expect(sailed[0]!.properties).toMatchObject({
      vessel_id: VESSELS[0]!.id,
      start_time: iso(T0),
      end_time: iso(first.at),
      outbound_atd_at: iso(T0),
    });
    expect((sailed[0]!.geometry.coordinates as Position[]).at(-1)).toEqual([first.lon, first.lat]);
    // Across the Pacific: in range on the wire, and once unwrapped never a jump between points,
    // so a client that unwraps draws it without a break.
    for (const [lon] of line) expect(Math.abs(lon!)).toBeLessThanOrEqual(180);
    const whole = unwrapPath([
      ...line,
      ...(ofType(fc, 'estimated_partial_leg')[0]!.geometry.coordinates as Position[]),
    ]);
    for (let i = 1; i < whole.length; i++) {
      expect(Math.abs(whole[i]![0] - whole[i - 1]![0])).toBeLessThan(30);
    }
    // The line goes east over the Pacific: it ends past the antimeridian, east of Japan.
    expect(whole.at(-1)![0]).toBeGreaterThan(180);
  });

  it('draws no estimated piece when positions start at the departure port', () => {
    const fromPort = trackAlong(router, PORTS.yantian, PORTS.longBeach, {
      ...voyage,
      start: T0,
      end: now - 10 * 60 * 1000,
      stepMs: 15 * 60 * 1000,
    });
    const fc = buildRouteMap(mapData(ports, calls, [fromPort]), { now, router });
    const sailed = ofType(fc, 'past_vessel_locations');
    expect(sailed.map((f) => f.properties.estimated)).toEqual([false]);
    expect((sailed[0]!.geometry.coordinates as Position[])[0]).toEqual(portAt(PORTS.yantian));
  });
});

describe('an arrived container', () => {
  const ports = [PORTS.shanghai, PORTS.busan, PORTS.losAngeles];
  const leg1 = { departed: T0, arrives: T0 + 2 * DAY };
  const leg2 = { departed: T0 + 3 * DAY, arrives: T0 + 15 * DAY };
  const now = leg2.arrives + 2 * DAY;
  const calls = portCalls(ports, [
    leg(0, leg1.departed, leg1.arrives, { atd: leg1.departed, ata: leg1.arrives }),
    leg(1, leg2.departed, leg2.arrives, { atd: leg2.departed, ata: leg2.arrives }),
  ]);

  it('shows its whole path from the loading port to the discharge port without positions', () => {
    const fc = buildRouteMap(mapData(ports, calls, []), { now, router });
    expectValid(fc);
    const sailed = ofType(fc, 'past_vessel_locations');
    expect(sailed.map((f) => [f.properties.ports_sequence, f.properties.estimated])).toEqual([
      [1, true],
      [2, true],
    ]);
    const line = joined(sailed);
    expect(line[0]).toEqual(portAt(PORTS.shanghai));
    expect(line.at(-1)).toEqual(portAt(PORTS.losAngeles));
    expect(sailed[1]!.properties).toMatchObject({
      start_time: iso(leg2.departed),
      end_time: iso(leg2.arrives),
    });
    expect(ofType(fc, 'current_vessel')).toEqual([]);
    expect(ofType(fc, 'estimated_partial_leg')).toEqual([]);
    expect(ofType(fc, 'estimated_full_legs')).toEqual([]);
  });

  it('fills the gaps around the positions it has, port to port', () => {
    // Positions of the ocean leg only from day 4 to day 9 of its 12.
    const middle = trackAlong(router, PORTS.busan, PORTS.losAngeles, {
      ...leg2,
      start: leg2.departed + 4 * DAY,
      end: leg2.departed + 9 * DAY,
      stepMs: HOUR,
    });
    const fc = buildRouteMap(mapData(ports, calls, [[], middle]), { now, router });
    expectValid(fc);
    const ocean = ofType(fc, 'past_vessel_locations').filter(
      (f) => f.properties.ports_sequence === 2,
    );
    expect(ocean.map((f) => f.properties.estimated)).toEqual([true, false, true]);
    const line = joined(ocean);
    expect(line[0]).toEqual(portAt(PORTS.busan));
    expect(line.at(-1)).toEqual(portAt(PORTS.losAngeles));
    expect(ocean[2]!.properties).toMatchObject({
      start_time: iso(middle.at(-1)!.at),
      end_time: iso(leg2.arrives),
    });
    // Each estimated stretch follows the sea: no straight jump of more than the lane's spacing.
    const unwrapped = unwrapPath(line);
    for (let i = 1; i < unwrapped.length; i++) {
      expect(haversineKm(unwrapped[i - 1]!, unwrapped[i]!)).toBeLessThan(1500);
    }
  });
});

describe('a track that grows between builds', () => {
  it('draws the same map as a build from scratch, position after position', () => {
    // Busan -> Los Angeles under way; the service keeps the leg's positions and adds new ones.
    const ports = [PORTS.busan, PORTS.losAngeles];
    const voyage = { departed: T0, arrives: T0 + 12 * DAY };
    const calls = portCalls(ports, [leg(0, voyage.departed, voyage.arrives, { atd: T0 })]);
    const all = trackAlong(router, PORTS.busan, PORTS.losAngeles, {
      ...voyage,
      start: T0 + 2 * DAY,
      end: T0 + 6 * DAY,
      stepMs: 20 * 60 * 1000,
    });
    const kept: TrackPoint[] = all.slice(0, 50);
    buildRouteMap(mapData(ports, calls, [kept]), { now: kept.at(-1)!.at + 60_000, router });
    // Grow by uneven steps, across UTC midnights, and compare each build with a fresh one.
    for (const step of [1, 7, 1, 60, 3, 100, 1]) {
      kept.push(...all.slice(kept.length, kept.length + step));
      const now = kept.at(-1)!.at + 60_000;
      const grown = buildRouteMap(mapData(ports, calls, [kept]), { now, router });
      const fresh = buildRouteMap(mapData(ports, calls, [[...kept]]), { now, router });
      expect(grown).toEqual(fresh);
      const [vessel] = ofType(grown, 'current_vessel');
      expect(vessel!.geometry.coordinates).toEqual([kept.at(-1)!.lon, kept.at(-1)!.lat]);
    }
  });
});
