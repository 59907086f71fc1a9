import { describe, expect, it } from 'vitest';
import { antimeridianCrossings } from '../../../src/shared/geo/antimeridian';
import {
  MAX_TOLERANCE_DEG,
  MIN_TOLERANCE_DEG,
  maxDeviationDeg,
  simplifyPath,
  toleranceFor,
} from '../../../src/shared/geo/simplify';

/** A wavy track of n points from (lon0, lat0) eastwards over `spanDeg` of longitude. */
function wavyTrack(n: number, lon0: number, lat0: number, spanDeg: number): [number, number][] {
  return Array.from({ length: n }, (_, i) => {
    const t = i / (n - 1);
    return [lon0 + spanDeg * t, lat0 + 2 * Math.sin(t * 12) + 0.003 * Math.sin(i * 1.7)];
  });
}

describe('simplifyPath (Douglas-Peucker)', () => {
  it('shrinks the point count, keeps both ends and respects the tolerance', () => {
    const track = wavyTrack(2000, 120, 30, 40);
    for (const tolerance of [0.001, 0.01, 0.05]) {
      const simplified = simplifyPath(track, tolerance);
      expect(simplified.length).toBeLessThan(track.length);
      expect(simplified.length).toBeGreaterThanOrEqual(2);
      expect(simplified[0]).toEqual(track[0]);
      expect(simplified.at(-1)).toEqual(track.at(-1));
      expect(maxDeviationDeg(track, simplified)).toBeLessThanOrEqual(tolerance + 1e-12);
    }
    // A coarser tolerance never keeps more points.
    expect(simplifyPath(track, 0.05).length).toBeLessThanOrEqual(simplifyPath(track, 0.01).length);
  });

  it('simplifies across the antimeridian without a spurious jump and keeps the crossing', () => {
    const unwrapped = wavyTrack(1500, 160, 35, 60); // 160E to 140W
    const normalized = unwrapped.map(([lon, lat]) => [lon > 180 ? lon - 360 : lon, lat]);
    const simplified = simplifyPath(normalized, 0.01);
    expect(simplified.length).toBeLessThan(normalized.length / 3);
    expect(antimeridianCrossings(simplified)).toHaveLength(1);
    for (const [lon, lat] of simplified) {
      expect(Math.abs(lon)).toBeLessThanOrEqual(180);
      expect(Math.abs(lat)).toBeLessThanOrEqual(90);
    }
    expect(simplified[0]).toEqual(normalized[0]);
    expect(simplified.at(-1)).toEqual(normalized.at(-1));
    expect(maxDeviationDeg(normalized, simplified)).toBeLessThanOrEqual(0.01 + 1e-12);
  });

  it('drops repeated fixes of a ship at anchor and keeps short lines as they are', () => {
    const anchored = [
      [4.05, 51.95],
      [4.05, 51.95],
      [4.05, 51.95],
    ];
    expect(simplifyPath(anchored, 0.01)).toEqual([[4.05, 51.95]]);
    expect(
      simplifyPath(
        [
          [4.05, 51.95],
          [4.1, 52],
        ],
        0.01,
      ),
    ).toEqual([
      [4.05, 51.95],
      [4.1, 52],
    ]);
  });

  it('scales the default tolerance with the size of the line, within bounds', () => {
    const harbour = Array.from({ length: 50 }, (_, i) => [4 + i * 0.004, 51.9 + i * 0.001]);
    const ocean = wavyTrack(100, 120, 30, 100);
    expect(toleranceFor(harbour)).toBe(MIN_TOLERANCE_DEG);
    expect(toleranceFor(ocean)).toBe(MAX_TOLERANCE_DEG);
    const mid = wavyTrack(100, 120, 30, 20);
    expect(toleranceFor(mid)).toBeGreaterThan(MIN_TOLERANCE_DEG);
    expect(toleranceFor(mid)).toBeLessThan(MAX_TOLERANCE_DEG);
  });
});
