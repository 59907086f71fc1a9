import { beforeAll, describe, expect, it } from 'vitest';
import type { FeatureCollection, LineString } from 'geojson';
import { antimeridianCrossings } from '../../../src/shared/geo/antimeridian';
import {
  createSeaRouter,
  haversineKm,
  normalizedPath,
  positionAlong,
  remainingRoute,
  routeBehind,
  type SeaRouter,
} from '../../../src/shared/geo/sea-routes';
import { loadMarineNetwork } from '../../../src/service/routing/network';

const line = (...coordinates: [number, number][]) => ({
  type: 'Feature' as const,
  properties: {},
  geometry: { type: 'LineString' as const, coordinates },
});

describe('createSeaRouter over a given network', () => {
  // A tiny network: a Pacific lane over the antimeridian and a long way round through 0.
  const network: FeatureCollection<LineString> = {
    type: 'FeatureCollection',
    features: [
      line([140, 35], [160, 40], [180, 42]),
      line([-180, 42], [-150, 40], [-120, 34]),
      line([140, 35], [60, 0], [0, 0], [-60, 0], [-120, 34]),
    ],
  };
  const router = createSeaRouter(network);

  it('takes the short way across the antimeridian, unwrapped, with cumulative distances', () => {
    const route = router.seaRoute([139.7, 35.4], [-118.3, 33.7]);
    expect(route.path[0]).toEqual([139.7, 35.4]);
    // Unwrapped: longitudes keep growing past 180 instead of jumping.
    expect(antimeridianCrossings(route.path)).toEqual([]);
    expect(route.path.at(-1)![0]).toBeCloseTo(-118.3 + 360, 9);
    expect(route.cumulativeKm[0]).toBe(0);
    for (let i = 1; i < route.path.length; i++) {
      expect(route.cumulativeKm[i]).toBeGreaterThanOrEqual(route.cumulativeKm[i - 1]!);
    }
    expect(route.lengthKm).toBe(route.cumulativeKm.at(-1));
    expect(route.lengthKm).toBeLessThan(11_000);
    const normalized = normalizedPath(route);
    expect(antimeridianCrossings(normalized)).toHaveLength(1);
    expect(normalized.every(([lon]) => Math.abs(lon!) <= 180)).toBe(true);
    expect(router.isNetworkVertex([160, 40])).toBe(true);
    expect(router.isNetworkVertex([160 + 360, 40])).toBe(true);
    expect(router.isNetworkVertex([161, 40])).toBe(false);
  });

  it('gives what is left of a lane from a vessel on it, across the antimeridian', () => {
    const route = router.seaRoute([139.7, 35.4], [-118.3, 33.7]);
    // Between [160, 40] and the antimeridian point (this network's points lie far apart).
    const ahead = remainingRoute(route, [170, 41.5], 1000)!;
    expect(ahead[0]).toEqual([170, 41.5]);
    // Already past [160, 40]: the rest starts at the next lane point, unwrapped like the route.
    expect(ahead[1]).toEqual([180, 42]);
    expect(ahead.at(-1)).toEqual(route.path.at(-1));
    expect(antimeridianCrossings(ahead)).toEqual([]);
    // East of the antimeridian the vessel's longitude is unwrapped to join the lane.
    const east = remainingRoute(route, [-155, 40.5], 1000)!;
    expect(east[0]).toEqual([-155 + 360, 40.5]);
    expect(east[1]).toEqual([-150 + 360, 40]);
  });

  it('gives what of a lane lies behind a vessel, across the antimeridian', () => {
    const route = router.seaRoute([139.7, 35.4], [-118.3, 33.7]);
    const behind = routeBehind(route, [-155, 40.5], 1000)!;
    // From the departure port along the lane, ending at the vessel, unwrapped: no jump.
    expect(behind[0]).toEqual(route.path[0]);
    expect(behind.at(-1)).toEqual([-155 + 360, 40.5]);
    expect(antimeridianCrossings(behind)).toEqual([]);
    // Together with what is left, the lane is whole: the vessel is the one shared point.
    const ahead = remainingRoute(route, [-155, 40.5], 1000)!;
    expect([...behind, ...ahead.slice(1)]).toEqual([
      ...route.path.slice(0, route.path.indexOf(ahead[1]!)),
      [-155 + 360, 40.5],
      ...route.path.slice(route.path.indexOf(ahead[1]!)),
    ]);
    expect(routeBehind(route, [100, -30], 150)).toBeNull();
  });

  it('gives nothing for a vessel far from the lane', () => {
    const route = router.seaRoute([139.7, 35.4], [-118.3, 33.7]);
    expect(remainingRoute(route, [100, -30], 150)).toBeNull();
  });

  it('interpolates positions along a route', () => {
    const route = router.seaRoute([139.7, 35.4], [-118.3, 33.7]);
    const start = positionAlong(route, 0);
    const end = positionAlong(route, 1);
    expect([start.lon, start.lat]).toEqual([139.7, 35.4]);
    expect(end.lon).toBeCloseTo(-118.3, 9);
    const middle = positionAlong(route, 0.5);
    expect(Math.abs(middle.lon)).toBeLessThanOrEqual(180);
    expect(middle.courseDeg).toBeGreaterThanOrEqual(0);
    expect(middle.courseDeg).toBeLessThan(360);
  });

  it('takes the shorter of two lanes between the same two junctions, whichever is listed first', () => {
    const junctions: FeatureCollection<LineString> = {
      type: 'FeatureCollection',
      features: [
        line([-5, 0], [0, 0]),
        line([10, 0], [15, 0]),
        line([0, 0], [5, 5], [10, 0]),
        line([0, 0], [5, 0.5], [10, 0]),
        line([0, 0], [5, -8], [10, 0]),
      ],
    };
    const route = createSeaRouter(junctions).seaRoute([-5, 0], [15, 0]);
    expect(route.path).toEqual([
      [-5, 0],
      [-5, 0],
      [0, 0],
      [5, 0.5],
      [10, 0],
      [15, 0],
      [15, 0],
    ]);
  });

  it('refuses a network without lines', () => {
    expect(() => createSeaRouter({ type: 'FeatureCollection', features: [] })).toThrow(
      /no LineString/,
    );
  });
});

describe('the marine network', () => {
  let router: SeaRouter;
  beforeAll(() => {
    router = createSeaRouter(loadMarineNetwork());
  });

  it('routes Yokohama to Los Angeles across the Pacific on network vertices', () => {
    const route = router.seaRoute([139.65, 35.45], [-118.26, 33.73]);
    const inner = route.path.slice(1, -1);
    expect(inner.length).toBeGreaterThan(5);
    expect(inner.every((p) => router.isNetworkVertex(p))).toBe(true);
    // Great circle is about 8,800 km; the lane may not be much longer.
    const direct = haversineKm([139.65, 35.45], [-118.26, 33.73]);
    expect(route.lengthKm).toBeGreaterThan(direct);
    expect(route.lengthKm).toBeLessThan(direct * 1.25);
    expect(antimeridianCrossings(normalizedPath(route))).toHaveLength(1);
  });

  it('never finds a longer way between two places than through a third one', () => {
    // The shortest-route property (the triangle inequality), on places spread over the network.
    const places: [number, number][] = [
      [139.65, 35.45],
      [-118.26, 33.73],
      [103.84, 1.26],
      [4.05, 51.95],
      [-74.04, 40.67],
      [121.5, 31.23],
      [32.3, 31.26],
      [-79.9, 9.36],
      [18.42, -33.91],
      [151.2, -33.86],
      [55.06, 25.01],
      [-46.3, -23.97],
      [72.84, 18.94],
      [-122.4, 37.8],
      [10.0, 53.55],
    ];
    let checked = 0;
    for (const a of places) {
      for (const b of places) {
        if (a === b) continue;
        const direct = router.seaRoute(a, b).lengthKm;
        for (const via of places) {
          if (via === a || via === b) continue;
          const through = router.seaRoute(a, via).lengthKm + router.seaRoute(via, b).lengthKm;
          expect(direct, `${a} > ${b} via ${via}`).toBeLessThanOrEqual(through + 1e-6);
          checked++;
        }
      }
    }
    expect(checked).toBe(15 * 14 * 13);
  });

  it('routes Singapore to Rotterdam through Suez without touching the antimeridian', () => {
    const route = router.seaRoute([103.84, 1.26], [4.05, 51.95]);
    expect(antimeridianCrossings(normalizedPath(route))).toEqual([]);
    expect(route.lengthKm).toBeGreaterThan(14_000);
    expect(route.lengthKm).toBeLessThan(17_500); // round the Cape would be over 20,000 km
  });
});
