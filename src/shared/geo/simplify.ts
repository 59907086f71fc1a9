/**
 * Douglas-Peucker simplification of map lines (through @turf/simplify), antimeridian-safe: the
 * line is unwrapped before simplifying (so planar distances are not fooled by a 360 degree jump)
 * and normalized afterwards. The first and last positions are always kept.
 */
import turfSimplify from '@turf/simplify';
import type { Feature, LineString, Position } from 'geojson';
import { normalizePath, normalizePosition, unwrapPath } from './antimeridian';

/** Tolerance bounds in degrees: about 100 m at the finest, about 5.5 km at the coarsest. */
export const MIN_TOLERANCE_DEG = 0.001;
export const MAX_TOLERANCE_DEG = 0.05;

/**
 * A tolerance in degrees that grows with the size of the line: 1/2000 of its bounding-box
 * diagonal, clamped to [MIN_TOLERANCE_DEG, MAX_TOLERANCE_DEG]. A harbour approach keeps its
 * detail; an ocean crossing drops points no map zoom that shows it whole can tell apart.
 */
export function toleranceFor(path: readonly Position[]): number {
  if (path.length < 2) return MIN_TOLERANCE_DEG;
  const unwrapped = unwrapPath(path);
  let minX = Infinity;
  let maxX = -Infinity;
  let minY = Infinity;
  let maxY = -Infinity;
  for (const [x, y] of unwrapped) {
    if (x < minX) minX = x;
    if (x > maxX) maxX = x;
    if (y < minY) minY = y;
    if (y > maxY) maxY = y;
  }
  const diagonal = Math.hypot(maxX - minX, maxY - minY);
  return Math.min(MAX_TOLERANCE_DEG, Math.max(MIN_TOLERANCE_DEG, diagonal / 2000));
}

/** Drops consecutive duplicate positions (a ship at anchor reports the same fix many times). */
function dropRepeats(path: readonly [number, number][]): [number, number][] {
  const out: [number, number][] = [];
  for (const p of path) {
    const last = out[out.length - 1];
    if (!last || last[0] !== p[0] || last[1] !== p[1]) out.push(p);
  }
  return out;
}

/**
 * The path simplified with Douglas-Peucker at `toleranceDeg` (planar degrees on the unwrapped
 * path), normalized to [-180, 180]. Every dropped position lies within the tolerance of the
 * result. A path with fewer than two distinct positions comes back deduplicated only.
 */
export function simplifyPath(
  path: readonly Position[],
  toleranceDeg: number = toleranceFor(path),
): [number, number][] {
  const unwrapped = dropRepeats(unwrapPath(path));
  if (unwrapped.length <= 2) return normalizePath(unwrapped);
  const line: Feature<LineString> = {
    type: 'Feature',
    properties: {},
    geometry: { type: 'LineString', coordinates: unwrapped },
  };
  const simplified = turfSimplify(line, {
    tolerance: toleranceDeg,
    highQuality: true,
    mutate: true,
  });
  const out = normalizePath(simplified.geometry.coordinates);
  // Unwrapping moved longitudes by 360 and back; give the ends their exact input values.
  out[0] = normalizePosition(path[0]!);
  out[out.length - 1] = normalizePosition(path[path.length - 1]!);
  return out;
}

/**
 * Largest planar distance (degrees, unwrapped) from any position of `original` to the polyline
 * `simplified`. Used to check that simplification respected its tolerance.
 */
export function maxDeviationDeg(
  original: readonly Position[],
  simplified: readonly Position[],
): number {
  const a = unwrapPath(original);
  // Unwrap the simplified line in the same frame as the original (same starting longitude).
  const b = unwrapPath([a[0]!, ...simplified.slice(1)]);
  let worst = 0;
  for (const p of a) {
    let best = Infinity;
    for (let i = 1; i < b.length; i++) best = Math.min(best, segmentDistance(p, b[i - 1]!, b[i]!));
    if (b.length === 1) best = Math.hypot(p[0] - b[0]![0], p[1] - b[0]![1]);
    worst = Math.max(worst, best);
  }
  return worst;
}

function segmentDistance(p: Position, s: Position, e: Position): number {
  const dx = e[0]! - s[0]!;
  const dy = e[1]! - s[1]!;
  let t = 0;
  if (dx !== 0 || dy !== 0) {
    t = ((p[0]! - s[0]!) * dx + (p[1]! - s[1]!) * dy) / (dx * dx + dy * dy);
    t = Math.max(0, Math.min(1, t));
  }
  return Math.hypot(p[0]! - (s[0]! + dx * t), p[1]! - (s[1]! + dy * t));
}
