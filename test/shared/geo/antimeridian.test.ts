import { describe, expect, it } from 'vitest';
import {
  antimeridianCrossings,
  crossesAntimeridian,
  isValidLonLat,
  normalizeLon,
  normalizePath,
  unwrapPath,
} from '../../../src/shared/geo/antimeridian';

describe('antimeridian helpers', () => {
  it('normalizes longitudes into [-180, 180], leaving in-range values untouched', () => {
    expect(normalizeLon(-118.26)).toBe(-118.26);
    expect(normalizeLon(190)).toBeCloseTo(-170, 9);
    expect(normalizeLon(-190)).toBeCloseTo(170, 9);
    expect(normalizeLon(540)).toBe(180);
    expect(normalizeLon(-540)).toBe(-180);
    expect(normalizeLon(720 + 45)).toBeCloseTo(45, 9);
  });

  it('unwraps a line so consecutive points never jump more than 180 degrees', () => {
    const line = [
      [170, 40],
      [179, 41],
      [-179, 42],
      [-170, 43],
    ];
    const unwrapped = unwrapPath(line);
    expect(unwrapped.map((p) => p[0])).toEqual([170, 179, 181, 190]);
    expect(antimeridianCrossings(unwrapped)).toEqual([]);
    const back = normalizePath(unwrapped);
    expect(back[0]).toEqual([170, 40]);
    expect(back[2]![0]).toBeCloseTo(-179, 9);
    expect(antimeridianCrossings(back)).toEqual([2]);
    expect(crossesAntimeridian(back[1]!, back[2]!)).toBe(true);
    expect(crossesAntimeridian(back[2]!, back[3]!)).toBe(false);
  });

  it('checks WGS84 ranges', () => {
    expect(isValidLonLat(180, 90)).toBe(true);
    expect(isValidLonLat(-180, -90)).toBe(true);
    expect(isValidLonLat(181, 0)).toBe(false);
    expect(isValidLonLat(0, 91)).toBe(false);
    expect(isValidLonLat(Number.NaN, 0)).toBe(false);
  });
});
