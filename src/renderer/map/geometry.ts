/**
 * Route geometry for Leaflet: GeoJSON gives [longitude, latitude]; Leaflet wants [lat, lng].
 * A trans-Pacific leg jumps from +179° to -179°: drawn naively it would cross the whole map,
 * so lines are split where consecutive points are more than 180° of longitude apart, each side
 * ending exactly on the antimeridian at the interpolated latitude.
 */
export type LngLat = readonly [number, number];
export type LatLng = [number, number];

export function splitAtAntimeridian(coordinates: readonly LngLat[]): LatLng[][] {
  const parts: LatLng[][] = [];
  let current: LatLng[] = [];
  let previous: LngLat | null = null;
  for (const point of coordinates) {
    const [lng, lat] = point;
    if (previous && Math.abs(lng - previous[0]) > 180) {
      const [prevLng, prevLat] = previous;
      // Going east over 180 (prev > 0, lng < 0) or west over -180 (prev < 0, lng > 0).
      const edge = prevLng > 0 ? 180 : -180;
      const unwrappedLng = lng + (prevLng > 0 ? 360 : -360);
      const t = (edge - prevLng) / (unwrappedLng - prevLng);
      const crossingLat = prevLat + t * (lat - prevLat);
      current.push([crossingLat, edge]);
      if (current.length > 1) parts.push(current);
      current = [[crossingLat, -edge]];
    }
    current.push([lat, lng]);
    previous = point;
  }
  if (current.length > 1) parts.push(current);
  return parts;
}
