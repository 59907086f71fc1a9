/**
 * Complete TypeBox schemas of the route map features (`GET /containers/{id}/map_geojson`), one
 * per `feature_type`, following the spec's tables (Route map objects) and the reference's
 * *FeatureProperties component schemas: every property is pinned, and coordinates are WGS84
 * [longitude, latitude] within [-180, 180] x [-90, 90].
 */
import { Type, type Static } from 'typebox';
import { DateTime, NullableDateTime, NullableNumber, NullableString } from './common';

/** A WGS84 [longitude, latitude] pair. */
const LonLat = Type.Tuple([
  Type.Number({ minimum: -180, maximum: 180 }),
  Type.Number({ minimum: -90, maximum: 90 }),
]);
const Point = Type.Object({ type: Type.Literal('Point'), coordinates: LonLat });
const LineString = Type.Object({
  type: Type.Literal('LineString'),
  coordinates: Type.Array(LonLat, { minItems: 2 }),
});
const Sequence = Type.Integer({ minimum: 1 });
const Count = Type.Integer({ minimum: 2 });

export const PortFeatureProperties = Type.Object({
  feature_type: Type.Literal('port'),
  ports_sequence: Sequence,
  ports_total: Sequence,
  location_id: Type.String(),
  location_type: Type.Literal('Port'),
  name: Type.String(),
  state_abbr: NullableString,
  state: NullableString,
  country_code: Type.String(),
  country: Type.String(),
  time_zone: Type.String(),
  label: Type.String({ pattern: '^(POL|POD|TS[1-9][0-9]*)$' }),
  inbound_eta_at: NullableDateTime,
  inbound_ata_at: NullableDateTime,
  outbound_etd_at: NullableDateTime,
  outbound_atd_at: NullableDateTime,
  updated_at: NullableDateTime,
});
export type PortFeatureProperties = Static<typeof PortFeatureProperties>;

export const CurrentVesselFeatureProperties = Type.Object({
  feature_type: Type.Literal('current_vessel'),
  ports_sequence: Sequence,
  vessel_id: Type.String(),
  vessel_name: Type.String(),
  vessel_imo: Type.String(),
  voyage_number: NullableString,
  vessel_location_timestamp: DateTime,
  vessel_location_heading: NullableNumber,
  vessel_location_speed: NullableNumber,
  departure_port_id: Type.String(),
  departure_port_name: Type.String(),
  departure_port_state_abbr: NullableString,
  departure_port_state: NullableString,
  departure_port_country_code: Type.String(),
  departure_port_country: Type.String(),
  departure_port_label: Type.String(),
  departure_port_atd: NullableDateTime,
  departure_port_time_zone: Type.String(),
  arrival_port_id: NullableString,
  arrival_port_name: NullableString,
  arrival_port_state_abbr: NullableString,
  arrival_port_state: NullableString,
  arrival_port_country_code: NullableString,
  arrival_port_country: NullableString,
  arrival_port_label: NullableString,
  arrival_port_eta: NullableDateTime,
  arrival_port_time_zone: NullableString,
});
export type CurrentVesselFeatureProperties = Static<typeof CurrentVesselFeatureProperties>;

export const PastVesselLocationsFeatureProperties = Type.Object({
  feature_type: Type.Literal('past_vessel_locations'),
  ports_sequence: Sequence,
  vessel_id: Type.String(),
  start_time: DateTime,
  end_time: DateTime,
  point_count: Count,
  outbound_atd_at: NullableDateTime,
  inbound_ata_at: NullableDateTime,
  inbound_eta_at: NullableDateTime,
  /**
   * Quayside extension: true for a stretch drawn along the sea lane where no position was
   * recorded (before the first stored position, or after the last one of an arrived leg); false
   * for recorded AIS positions.
   */
  estimated: Type.Optional(Type.Boolean()),
});
export type PastVesselLocationsFeatureProperties = Static<
  typeof PastVesselLocationsFeatureProperties
>;

export const EstimatedFullLegFeatureProperties = Type.Object({
  feature_type: Type.Literal('estimated_full_legs'),
  ports_sequence: Sequence,
  previous_port_id: Type.String(),
  next_port_id: Type.String(),
  point_count: Count,
});
export type EstimatedFullLegFeatureProperties = Static<typeof EstimatedFullLegFeatureProperties>;

export const EstimatedPartialLegFeatureProperties = Type.Object({
  feature_type: Type.Literal('estimated_partial_leg'),
  ports_sequence: Sequence,
  current_port_id: Type.String(),
  next_port_id: Type.String(),
  point_count: Count,
});
export type EstimatedPartialLegFeatureProperties = Static<
  typeof EstimatedPartialLegFeatureProperties
>;

const feature = <
  G extends typeof Point | typeof LineString,
  P extends ReturnType<typeof Type.Object>,
>(
  geometry: G,
  properties: P,
) => Type.Object({ type: Type.Literal('Feature'), geometry, properties });

export const PortFeature = feature(Point, PortFeatureProperties);
export const CurrentVesselFeature = feature(Point, CurrentVesselFeatureProperties);
export const PastVesselLocationsFeature = feature(LineString, PastVesselLocationsFeatureProperties);
export const EstimatedFullLegFeature = feature(LineString, EstimatedFullLegFeatureProperties);
export const EstimatedPartialLegFeature = feature(LineString, EstimatedPartialLegFeatureProperties);

export type PortFeature = Static<typeof PortFeature>;
export type CurrentVesselFeature = Static<typeof CurrentVesselFeature>;
export type PastVesselLocationsFeature = Static<typeof PastVesselLocationsFeature>;
export type EstimatedFullLegFeature = Static<typeof EstimatedFullLegFeature>;
export type EstimatedPartialLegFeature = Static<typeof EstimatedPartialLegFeature>;

export const CompleteRouteFeature = Type.Union([
  PortFeature,
  CurrentVesselFeature,
  PastVesselLocationsFeature,
  EstimatedFullLegFeature,
  EstimatedPartialLegFeature,
]);
export type CompleteRouteFeature = Static<typeof CompleteRouteFeature>;

/**
 * Quayside extension: the journey past the port of discharge, for a box moving on by rail. It
 * rides beside `features` in a foreign member of the FeatureCollection (`inland`, RFC 7946 §6.1)
 * so that clients of the reference, whose `feature_type` lists only the five kinds above, read
 * the same `features` as before and can ignore it.
 */
export const RailLegFeatureProperties = Type.Object({
  feature_type: Type.Literal('rail_leg'),
  /** The port call the rail leg starts from (the port of discharge). */
  ports_sequence: Sequence,
  from_location_id: Type.String(),
  from_name: Type.String(),
  to_location_id: Type.String(),
  to_name: Type.String(),
  /** planned: not yet loaded on rail; under_way: on rail; arrived: at the ramp. */
  status: Type.Union([Type.Literal('planned'), Type.Literal('under_way'), Type.Literal('arrived')]),
  rail_loaded_at: NullableDateTime,
  departed_at: NullableDateTime,
  arrival_eta_at: NullableDateTime,
  arrived_at: NullableDateTime,
  /**
   * Always true: rail positions are not recorded, so the line joins the places the rail events
   * name (in the order they happened) and the ramp, not the track the train took.
   */
  estimated: Type.Literal(true),
  point_count: Count,
});
export type RailLegFeatureProperties = Static<typeof RailLegFeatureProperties>;

export const RampFeatureProperties = Type.Object({
  feature_type: Type.Literal('ramp'),
  location_id: Type.String(),
  /** The ramp itself when the shipment names it, else the inland destination (a metro area). */
  location_type: Type.Union([Type.Literal('RailTerminal'), Type.Literal('MetroArea')]),
  name: Type.String(),
  firms_code: NullableString,
  /** The metro area the ramp serves. */
  city: Type.String(),
  state_abbr: NullableString,
  country_code: Type.String(),
  time_zone: Type.String(),
  label: Type.Literal('Ramp'),
  /** The last stop of the route. */
  last_stop: Type.Literal(true),
  inbound_eta_at: NullableDateTime,
  inbound_ata_at: NullableDateTime,
  rail_unloaded_at: NullableDateTime,
  /** True when the point is the metro area's centre rather than the ramp's own place. */
  position_estimated: Type.Boolean(),
});
export type RampFeatureProperties = Static<typeof RampFeatureProperties>;

export const RailLegFeature = feature(LineString, RailLegFeatureProperties);
export const RampFeature = feature(Point, RampFeatureProperties);
export type RailLegFeature = Static<typeof RailLegFeature>;
export type RampFeature = Static<typeof RampFeature>;

export const InlandFeatureCollection = Type.Object(
  {
    type: Type.Literal('FeatureCollection'),
    features: Type.Array(Type.Union([RailLegFeature, RampFeature])),
  },
  {
    description:
      'Quayside extension: the rail leg from the port of discharge and the ramp, the last stop',
    'x-quayside-extension': true,
  },
);
export type InlandFeatureCollection = Static<typeof InlandFeatureCollection>;
