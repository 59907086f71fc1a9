/**
 * The journey past the port of discharge for a box moving on by rail: a `rail_leg` line from the
 * port of discharge to the ramp and the `ramp` point, the route's last stop. They ride in the
 * map's `inland` member (see route-features.ts), beside the ocean legs.
 *
 * `buildInlandLeg` is pure: it takes what `loadInlandLeg` read (the ramp and its place, the rail
 * facts of the container, the places its rail events name) and the port of discharge.
 *
 * Rules:
 * - Rail positions are never recorded, so the line joins the port of discharge, the places the
 *   rail events name in the order they happened (those with a known position, each once) and the
 *   ramp; it is always `estimated: true`.
 * - The leg is `arrived` once the rail carrier reports the arrival (or the unloading) at the ramp,
 *   `under_way` once the box was loaded on or left by rail, `planned` before.
 * - Without a known position for the port of discharge or the ramp there is no line; the ramp is
 *   still the last stop when its own position is known.
 */
import type { Position } from 'geojson';
import type {
  InlandFeatureCollection,
  RailLegFeature,
  RampFeature,
} from '../../shared/api/route-features';
import { isValidLonLat, normalizePosition } from '../../shared/geo/antimeridian';
import type { PortCall } from '../feeds/normalize/shipment-facts';
import type { RoutePort } from './route-map';

/** Where the box goes by rail: the ramp, or the inland destination when the ramp is not named. */
export interface InlandPlace {
  id: string;
  kind: 'rail_terminal' | 'metro_area';
  name: string;
  firms_code: string | null;
  /** The metro area's name. */
  city: string;
  state_abbr: string | null;
  country_code: string;
  time_zone: string;
  longitude: number | null;
  latitude: number | null;
  /** True when the position is the metro area's rather than the ramp's own. */
  position_estimated: boolean;
}

/** A place a rail event names, with its position when the reference data knows it. */
export interface RailEventPlace {
  /** Epoch ms of the event, for ordering. */
  at: number;
  position: Position | null;
}

export interface InlandLegData {
  ramp: InlandPlace;
  rail_loaded_at: string | null;
  rail_departed_at: string | null;
  eta_at: string | null;
  arrived_at: string | null;
  unloaded_at: string | null;
  /** The rail events' places, any order (sorted by `at` here). */
  places: readonly RailEventPlace[];
}

const known = (p: { longitude: number | null; latitude: number | null }): Position | null =>
  p.longitude !== null && p.latitude !== null && isValidLonLat(p.longitude, p.latitude)
    ? [p.longitude, p.latitude]
    : null;

const samePlace = (a: Position, b: Position): boolean => a[0] === b[0] && a[1] === b[1];

export function buildInlandLeg(
  calls: readonly PortCall[],
  pod: RoutePort | undefined,
  data: InlandLegData | null,
): InlandFeatureCollection | null {
  const podCall = calls[calls.length - 1];
  if (!data || !podCall) return null;
  const { ramp } = data;
  const rampAt = known(ramp);
  if (!rampAt) return null;
  const features: (RailLegFeature | RampFeature)[] = [];
  const arrivedAt = data.arrived_at ?? data.unloaded_at;
  const status =
    arrivedAt !== null
      ? 'arrived'
      : data.rail_loaded_at !== null || data.rail_departed_at !== null
        ? 'under_way'
        : 'planned';

  const podAt = pod ? known(pod) : null;
  if (pod && podAt && !samePlace(podAt, rampAt)) {
    const path: Position[] = [podAt];
    const places = [...data.places].sort((a, b) => a.at - b.at);
    for (const { position } of places) {
      if (!position || !isValidLonLat(position[0]!, position[1]!)) continue;
      if (samePlace(position, rampAt) || samePlace(position, path[path.length - 1]!)) continue;
      path.push(position);
    }
    path.push(rampAt);
    const coordinates = path.map((p) => normalizePosition(p));
    features.push({
      type: 'Feature',
      geometry: { type: 'LineString', coordinates },
      properties: {
        feature_type: 'rail_leg',
        ports_sequence: podCall.sequence,
        from_location_id: pod.id,
        from_name: pod.name,
        to_location_id: ramp.id,
        to_name: ramp.name,
        status,
        rail_loaded_at: data.rail_loaded_at,
        departed_at: data.rail_departed_at,
        arrival_eta_at: data.eta_at,
        arrived_at: arrivedAt,
        estimated: true,
        point_count: coordinates.length,
      },
    });
  }
  features.push({
    type: 'Feature',
    geometry: { type: 'Point', coordinates: normalizePosition(rampAt) },
    properties: {
      feature_type: 'ramp',
      location_id: ramp.id,
      location_type: ramp.kind === 'rail_terminal' ? 'RailTerminal' : 'MetroArea',
      name: ramp.name,
      firms_code: ramp.firms_code,
      city: ramp.city,
      state_abbr: ramp.state_abbr,
      country_code: ramp.country_code,
      time_zone: ramp.time_zone,
      label: 'Ramp',
      last_stop: true,
      inbound_eta_at: data.eta_at,
      inbound_ata_at: data.arrived_at,
      rail_unloaded_at: data.unloaded_at,
      position_estimated: ramp.position_estimated,
    },
  });
  return { type: 'FeatureCollection', features };
}
