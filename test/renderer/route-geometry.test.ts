/** Route lines unwrapped across the antimeridian, pins on the same copy of the world. */
import { describe, expect, it } from 'vitest';
import {
  largestStep,
  nearestCopy,
  placeRoute,
  unwrapLine,
  type LngLat,
} from '../../src/renderer/map/geometry';

const YANTIAN: LngLat = [114.27, 22.57];
/** Longitudes to a thousandth of a degree (whole turns added leave float noise). */
const lngs = (latLngs: readonly (readonly [number, number])[]) =>
  latLngs.map(([, lng]) => Math.round(lng * 1000) / 1000);
const LONG_BEACH: LngLat = [-118.21, 33.75];

describe('route geometry', () => {
  it('moves a longitude by whole turns to the copy nearest a reference', () => {
    expect(nearestCopy(-118, 114)).toBe(242);
    expect(nearestCopy(170, -170)).toBe(-190);
    expect(nearestCopy(10, 0)).toBe(10);
  });

  it('draws a trans-Pacific line in one piece, eastward past 180°', () => {
    const line: LngLat[] = [
      YANTIAN,
      [150, 35],
      [179.5, 42],
      [-179.5, 42.5],
      [-150, 40],
      LONG_BEACH,
    ];
    const unwrapped = unwrapLine(line, YANTIAN[0]);
    expect(lngs(unwrapped)).toEqual([114.27, 150, 179.5, 180.5, 210, 241.79]);
    expect(largestStep(unwrapped)).toBeLessThan(40);
  });

  it('places legs and pins on one copy starting at the loading port', () => {
    const { lines, points } = placeRoute(
      YANTIAN,
      [
        // Sailed from Yantian to mid-ocean, then the estimate from there to Long Beach.
        { coordinates: [YANTIAN, [170, 40], [-175, 41]], data: 'sailed' },
        { coordinates: [[-175, 41], [-150, 40], LONG_BEACH], data: 'ahead' },
      ],
      [
        { coordinates: YANTIAN, data: 'POL' },
        { coordinates: LONG_BEACH, data: 'POD' },
        { coordinates: [-175, 41], data: 'vessel' },
      ],
    );
    expect(lines.map((l) => lngs(l.latLngs))).toEqual([
      [114.27, 170, 185],
      [185, 210, 241.79],
    ]);
    expect(points.map((p) => [p.data, Math.round(p.latLng[1] * 1000) / 1000])).toEqual([
      ['POL', 114.27],
      ['POD', 241.79],
      ['vessel', 185],
    ]);
  });

  it('keeps a westbound route round the world continuous (Asia to New York via Suez)', () => {
    const { lines, points } = placeRoute(
      [121.5, 31.2],
      [
        {
          coordinates: [
            [121.5, 31.2],
            [80, 6],
            [32.5, 30],
            [4, 51.9],
          ],
          data: 'leg 1',
        },
        {
          coordinates: [
            [4, 51.9],
            [-40, 45],
            [-74, 40.7],
          ],
          data: 'leg 2',
        },
      ],
      [{ coordinates: [-74, 40.7], data: 'POD' }],
    );
    expect(lngs(lines[1]!.latLngs)).toEqual([4, -40, -74]);
    expect(points[0]!.latLng[1]).toBe(-74);
  });
});
