/**
 * Longitude helpers for lines that cross the antimeridian (180 degrees).
 *
 * Paths are handled "unwrapped" while we compute on them (consecutive longitudes never jump by
 * more than 180, so a trans-Pacific line may run to 200 or -200) and normalized to [-180, 180]
 * on output. A normalized line is never split here: the wire format keeps the jump (consecutive
 * points more than 180 degrees apart) and clients split it for rendering.
 */
import type { Position } from 'geojson';

/** A longitude in [-180, 180]; 180 stays 180 (not -180) so an eastward arrival keeps its sign. */
export function normalizeLon(lon: number): number {
  if (lon >= -180 && lon <= 180) return lon; // In range: no arithmetic, no rounding error.
  const x = ((((lon + 180) % 360) + 360) % 360) - 180;
  return x === -180 && lon > 0 ? 180 : x;
}

/** [lon, lat] with the longitude normalized and the latitude clamped to [-90, 90]. */
export function normalizePosition(p: Position): [number, number] {
  return [normalizeLon(p[0]!), Math.max(-90, Math.min(90, p[1]!))];
}

export function normalizePath(path: readonly Position[]): [number, number][] {
  return path.map(normalizePosition);
}

/**
 * The same path with longitudes shifted by multiples of 360 so that no two consecutive points are
 * more than 180 degrees apart. The first point keeps its longitude.
 */
export function unwrapPath(path: readonly Position[]): [number, number][] {
  const out: [number, number][] = [];
  let previous: number | undefined;
  for (const p of path) {
    let lon = p[0]!;
    if (previous !== undefined) {
      while (lon - previous > 180) lon -= 360;
      while (lon - previous < -180) lon += 360;
    }
    out.push([lon, p[1]!]);
    previous = lon;
  }
  return out;
}

/** True when the segment a -> b of a normalized line crosses the antimeridian (the spec's rule). */
export const crossesAntimeridian = (a: Position, b: Position): boolean =>
  Math.abs(b[0]! - a[0]!) > 180;

/** Indexes i where the segment (i - 1) -> i of a normalized line crosses the antimeridian. */
export function antimeridianCrossings(path: readonly Position[]): number[] {
  const out: number[] = [];
  for (let i = 1; i < path.length; i++)
    if (crossesAntimeridian(path[i - 1]!, path[i]!)) out.push(i);
  return out;
}

/** True when a position is a finite WGS84 [lon, lat] within [-180, 180] x [-90, 90]. */
export const isValidLonLat = (lon: number, lat: number): boolean =>
  Number.isFinite(lon) &&
  Number.isFinite(lat) &&
  lon >= -180 &&
  lon <= 180 &&
  lat >= -90 &&
  lat <= 90;
