/**
 * Route geometry for Leaflet: GeoJSON gives [longitude, latitude] in [-180, 180]; Leaflet wants
 * [lat, lng] and happily takes longitudes beyond ±180. A trans-Pacific leg jumps from +179° to
 * -179°: instead of cutting the line there, longitudes are unwrapped — each point moved by a
 * multiple of 360° to lie within 180° of the one before — so the whole route is one continuous
 * line on one copy of the world, starting where the route starts. Pins go on the same copy, the
 * view is fitted to it, and the basemap is drawn on the neighbouring copies as well.
 */
export type LngLat = readonly [number, number];
export type LatLng = [number, number];

/** `lng` moved by whole turns to lie within 180° of `reference`. */
export function nearestCopy(lng: number, reference: number): number {
  return lng - 360 * Math.round((lng - reference) / 360);
}

/** A line with each point on the copy nearest the previous one, the first near `reference`. */
export function unwrapLine(coordinates: readonly LngLat[], reference: number): LatLng[] {
  const out: LatLng[] = [];
  let previous = reference;
  for (const [lng, lat] of coordinates) {
    const unwrapped = nearestCopy(lng, previous);
    out.push([lat, unwrapped]);
    previous = unwrapped;
  }
  return out;
}

/** The copy of `lng` closest to any point already placed (or to `fallback` when none is). */
function copyNearPlaced(point: LngLat, placed: readonly LatLng[], fallback: number): number {
  const [lng, lat] = point;
  let best = nearestCopy(lng, fallback);
  let bestDistance = Infinity;
  for (const [placedLat, placedLng] of placed) {
    const candidate = nearestCopy(lng, placedLng);
    const distance = Math.abs(candidate - placedLng) + Math.abs(lat - placedLat);
    if (distance < bestDistance) {
      bestDistance = distance;
      best = candidate;
    }
  }
  return best;
}

export interface RouteLineInput<T> {
  coordinates: readonly LngLat[];
  data: T;
}

export interface PlacedRoute<L, P> {
  lines: { latLngs: LatLng[]; data: L }[];
  points: { latLng: LatLng; data: P }[];
}

/**
 * Places a route's lines and points on one copy of the world: lines are unwrapped in the order
 * given (the route's order), each starting on the copy nearest to what is already drawn (the
 * first one near `start`, the loading port); points go on the copy nearest to the drawn lines.
 */
export function placeRoute<L, P>(
  start: LngLat | null,
  lines: readonly RouteLineInput<L>[],
  points: readonly { coordinates: LngLat; data: P }[],
): PlacedRoute<L, P> {
  const reference = start?.[0] ?? lines[0]?.coordinates[0]?.[0] ?? points[0]?.coordinates[0] ?? 0;
  const placed: LatLng[] = start ? [[start[1], nearestCopy(start[0], reference)]] : [];
  const placedLines = lines.map((line) => {
    const first = line.coordinates[0];
    const from = first ? copyNearPlaced(first, placed, reference) : reference;
    const latLngs = unwrapLine(line.coordinates, from);
    placed.push(...latLngs);
    return { latLngs, data: line.data };
  });
  const placedPoints = points.map((point) => ({
    latLng: [point.coordinates[1], copyNearPlaced(point.coordinates, placed, reference)] as LatLng,
    data: point.data,
  }));
  return { lines: placedLines, points: placedPoints };
}

/** The largest longitude step between consecutive points (under 180° on a continuous line). */
export function largestStep(latLngs: readonly LatLng[]): number {
  let largest = 0;
  for (let i = 1; i < latLngs.length; i++) {
    largest = Math.max(largest, Math.abs(latLngs[i]![1] - latLngs[i - 1]![1]));
  }
  return largest;
}
