/**
 * TypeBox schemas of every /v2 resource, mirroring the reference API's component schemas
 * (field names, nullability, enums) with the spec's corrections (a container's type is
 * `container`). Quayside extensions are marked `x-quayside-extension`.
 */
import { Type, type Static } from 'typebox';
import { CONTAINER_STATUSES } from '../container';
import {
  DateTime,
  Nullable,
  NullableDateTime,
  NullableNumber,
  NullableString,
  ResourceIdentifier,
  SelfLink,
  ToMany,
  ToOne,
  Uuid,
} from './common';
import { CompleteRouteFeature, InlandFeatureCollection } from './route-features';

const literals = <const T extends readonly string[]>(values: T) => Type.Enum(values);

/** Quayside-only attribute or parameter (documented as an extension in the served OpenAPI). */
export const extension = { 'x-quayside-extension': true } as const;

/**
 * An attribute the real service's records carry that its published OpenAPI file does not list
 * (seen in recorded responses; described in its public docs and SDK).
 */
const unlisted = (description: string) => ({ description, 'x-real-api-attribute': true }) as const;

export const TRANSPORT_EVENT_NAMES = [
  'container.transport.vessel_arrived',
  'container.transport.estimated.vessel_arrived',
  'container.transport.vessel_discharged',
  'container.transport.vessel_loaded',
  'container.transport.vessel_departed',
  'container.transport.estimated.vessel_departed',
  'container.transport.rail_departed',
  'container.transport.rail_arrived',
  'container.transport.rail_loaded',
  'container.transport.rail_unloaded',
  'container.transport.transshipment_arrived',
  'container.transport.transshipment_discharged',
  'container.transport.transshipment_loaded',
  'container.transport.transshipment_departed',
  'container.transport.feeder_arrived',
  'container.transport.feeder_discharged',
  'container.transport.feeder_loaded',
  'container.transport.feeder_departed',
  'container.transport.empty_out',
  'container.transport.full_in',
  'container.transport.full_out',
  'container.transport.empty_in',
  'container.transport.vessel_berthed',
  'container.transport.arrived_at_inland_destination',
  'container.transport.estimated.arrived_at_inland_destination',
  'container.pickup_lfd.changed',
  'container.pickup_lfd_line.changed',
  'container.pickup_lfd_terminal.changed',
  'container.pickup_lfd_rail.changed',
  'container.pickup_appointment.changed',
  'container.transport.available',
  'container.transport.not_available',
  'container.transport.delivered',
  'document.extracted',
  'document.extraction_failed',
] as const;
export type TransportEventName = (typeof TRANSPORT_EVENT_NAMES)[number];

export const RAW_EVENT_NAMES = [
  'empty_out',
  'full_in',
  'positioned_in',
  'positioned_out',
  'vessel_loaded',
  'vessel_departed',
  'transshipment_arrived',
  'transshipment_discharged',
  'transshipment_loaded',
  'transshipment_departed',
  'feeder_arrived',
  'feeder_discharged',
  'feeder_loaded',
  'feeder_departed',
  'rail_loaded',
  'rail_departed',
  'rail_arrived',
  'rail_unloaded',
  'vessel_arrived',
  'vessel_discharged',
  'arrived_at_destination',
  'delivered',
  'full_out',
  'empty_in',
  'vgm_received',
  'carrier_release',
  'customs_release',
  'available',
] as const;
export type RawEventName = (typeof RAW_EVENT_NAMES)[number];

// The status values are container rules; they live with the others.
export { CONTAINER_STATUSES, type ContainerStatus } from '../container';

export const LINE_TRACKING_STOPPED_REASONS = [
  'all_containers_terminated',
  'past_arrival_window',
  'past_full_out_window',
  'no_updates_at_line',
  'cancelled_by_user',
  'booking_cancelled',
] as const;
export type LineTrackingStoppedReason = (typeof LINE_TRACKING_STOPPED_REASONS)[number];

export const TRACKING_REQUEST_STATUSES = [
  'pending',
  'awaiting_manifest',
  'created',
  'failed',
  'tracking_stopped',
] as const;
export type TrackingRequestStatus = (typeof TRACKING_REQUEST_STATUSES)[number];

export const TRACKING_REQUEST_FAILED_REASONS = [
  'booking_cancelled',
  'duplicate',
  'expired',
  'internal_processing_error',
  'invalid_number',
  'not_found',
  'retries_exhausted',
  'shipping_line_unreachable',
  'unrecognized_response',
  'data_unavailable',
  'scac_auto_detect_failed',
] as const;
export type TrackingRequestFailedReason = (typeof TRACKING_REQUEST_FAILED_REASONS)[number];

export const REQUEST_TYPES = ['bill_of_lading', 'booking_number', 'container'] as const;
export type RequestType = (typeof REQUEST_TYPES)[number];

export const DATA_SOURCES = ['shipping_line', 'terminal', 'ais'] as const;

// ---------------------------------------------------------------------------------------------
// Reference resources

export const PortResource = Type.Object({
  id: Uuid,
  type: Type.Literal('port'),
  attributes: Type.Object({
    name: Type.String(),
    code: Type.String(),
    state_abbr: NullableString,
    city: NullableString,
    country_code: Type.String(),
    time_zone: Type.String(),
    latitude: NullableNumber,
    longitude: NullableNumber,
  }),
  relationships: Type.Optional(
    Type.Object(
      { terminals: Type.Optional(ToMany('terminal')) },
      unlisted("The port's container terminals"),
    ),
  ),
});
export type PortResource = Static<typeof PortResource>;

export const MetroAreaResource = Type.Object({
  id: Uuid,
  type: Type.Literal('metro_area'),
  attributes: Type.Object({
    name: Type.String(),
    code: Type.String(),
    state_abbr: NullableString,
    country_code: Type.String(),
    time_zone: Type.String(),
    latitude: NullableNumber,
    longitude: NullableNumber,
  }),
});
export type MetroAreaResource = Static<typeof MetroAreaResource>;

/** Terminal attributes other than `name` are plain strings in the reference: absent when unknown. */
export const TerminalResource = Type.Object({
  id: Uuid,
  type: Type.Literal('terminal'),
  attributes: Type.Object({
    name: Type.String(),
    nickname: Type.Optional(Type.String()),
    firms_code: Type.Optional(Type.String()),
    smdg_code: Type.Optional(Type.String()),
    bic_facility_code: Type.Optional(Type.String()),
    street: Type.Optional(Type.String()),
    city: Type.Optional(Type.String()),
    state: Type.Optional(Type.String()),
    state_abbr: Type.Optional(Type.String()),
    zip: Type.Optional(Type.String()),
    country: Type.Optional(Type.String()),
    facility_type: Type.Optional(
      Type.String(unlisted('Kind of facility, e.g. `ocean_terminal`; absent when unknown')),
    ),
  }),
  relationships: Type.Object({ port: ToOne('port') }),
});
export type TerminalResource = Static<typeof TerminalResource>;

export const RailTerminalResource = Type.Object({
  id: Uuid,
  type: Type.Literal('rail_terminal'),
  attributes: Type.Object({
    name: Type.String(),
    nickname: Type.Optional(Type.String()),
    firms_code: Type.Optional(Type.String()),
  }),
  relationships: Type.Object({ port: ToOne('port'), metro_area: ToOne('metro_area') }),
});
export type RailTerminalResource = Static<typeof RailTerminalResource>;

export const VesselPosition = Type.Object({
  latitude: Type.Number(),
  longitude: Type.Number(),
  heading: NullableNumber,
  timestamp: DateTime,
  estimated: Type.Boolean(),
});

export const VesselResource = Type.Object({
  id: Uuid,
  type: Type.Literal('vessel'),
  attributes: Type.Object({
    name: Type.String(),
    imo: NullableString,
    mmsi: NullableString,
    latitude: NullableNumber,
    longitude: NullableNumber,
    nautical_speed_knots: NullableNumber,
    navigational_heading_degrees: NullableNumber,
    position_timestamp: NullableDateTime,
    positions: Type.Optional(Nullable(Type.Array(VesselPosition))),
  }),
});
export type VesselResource = Static<typeof VesselResource>;

export const ShippingLineResource = Type.Object({
  id: Uuid,
  type: Type.Literal('shipping_line'),
  attributes: Type.Object({
    scac: Type.String({ minLength: 4, maxLength: 4 }),
    name: Type.String(),
    alternative_scacs: Type.Array(Type.String({ minLength: 4, maxLength: 4 })),
    short_name: Type.String(),
    bill_of_lading_tracking_support: Type.Boolean(),
    booking_number_tracking_support: Type.Boolean(),
    container_number_tracking_support: Type.Boolean(),
  }),
});
export type ShippingLineResource = Static<typeof ShippingLineResource>;

// ---------------------------------------------------------------------------------------------
// Tracking resources

export const TrackingRequestResource = Type.Object({
  id: Uuid,
  type: Type.Literal('tracking_request'),
  attributes: Type.Object({
    request_number: Type.String(),
    request_type: literals(REQUEST_TYPES),
    scac: Nullable(Type.String({ minLength: 4, maxLength: 4 })),
    ref_numbers: Nullable(Type.Array(Type.String())),
    tags: Type.Array(Type.String()),
    status: literals(TRACKING_REQUEST_STATUSES),
    failed_reason: Nullable(literals(TRACKING_REQUEST_FAILED_REASONS)),
    is_retrying: Type.Boolean(),
    retry_count: Nullable(Type.Integer()),
    created_at: DateTime,
    updated_at: DateTime,
  }),
  relationships: Type.Object({
    tracked_object: ToOne('shipment'),
    customer: Type.Optional(ToOne('party')),
  }),
  links: SelfLink,
});
export type TrackingRequestResource = Static<typeof TrackingRequestResource>;

export const ShipmentResource = Type.Object({
  id: Uuid,
  type: Type.Literal('shipment'),
  attributes: Type.Object({
    bill_of_lading_number: Type.String(),
    normalized_number: Type.String(),
    ref_numbers: Nullable(Type.Array(Type.String())),
    created_at: DateTime,
    updated_at: Type.String({ format: 'date-time', ...extension }),
    tags: Type.Array(Type.String()),
    port_of_lading_locode: NullableString,
    port_of_lading_name: NullableString,
    port_of_discharge_locode: NullableString,
    port_of_discharge_name: NullableString,
    destination_locode: NullableString,
    destination_name: NullableString,
    shipping_line_scac: Type.String(),
    shipping_line_name: Type.String(),
    shipping_line_short_name: Type.String(),
    customer_name: NullableString,
    pod_vessel_name: NullableString,
    pod_vessel_imo: NullableString,
    pod_voyage_number: NullableString,
    pol_etd_at: NullableDateTime,
    pol_atd_at: NullableDateTime,
    pod_eta_at: NullableDateTime,
    pod_original_eta_at: NullableDateTime,
    pol_original_etd_at: Nullable(
      Type.String({
        format: 'date-time',
        ...unlisted('The first departure estimate the line gave for the port of loading'),
      }),
    ),
    pod_ata_at: NullableDateTime,
    destination_eta_at: NullableDateTime,
    destination_ata_at: NullableDateTime,
    destination_original_eta_at: Nullable(
      Type.String({
        format: 'date-time',
        ...unlisted('The first arrival estimate the line gave for the inland destination'),
      }),
    ),
    pol_timezone: NullableString,
    pod_timezone: NullableString,
    destination_timezone: NullableString,
    line_tracking_last_attempted_at: NullableDateTime,
    line_tracking_last_succeeded_at: NullableDateTime,
    line_tracking_stopped_at: NullableDateTime,
    line_tracking_stopped_reason: Nullable(literals(LINE_TRACKING_STOPPED_REASONS)),
  }),
  relationships: Type.Object({
    destination: ToOne('port', 'metro_area'),
    port_of_lading: ToOne('port'),
    port_of_discharge: ToOne('port'),
    containers: ToMany('container'),
    pod_terminal: ToOne('terminal'),
    destination_terminal: ToOne('terminal', 'rail_terminal'),
    line_tracking_stopped_by_user: ToOne('user'),
  }),
  links: SelfLink,
});
export type ShipmentResource = Static<typeof ShipmentResource>;

export const TerminalHold = Type.Object({
  name: Type.String(),
  status: literals(['pending', 'hold'] as const),
  description: NullableString,
});
export type TerminalHold = Static<typeof TerminalHold>;

export const TerminalFee = Type.Object({
  type: literals(['demurrage', 'exam', 'extended_dwell_time', 'other', 'total'] as const),
  amount: Type.Number(),
  currency_code: Type.String(),
});
export type TerminalFee = Static<typeof TerminalFee>;

const unlistedTime = (description: string) =>
  Nullable(Type.String({ format: 'date-time', ...unlisted(description) }));

/** A hold at the inland facility, as at the POD terminal; members may be absent. */
export const InlandHold = Type.Object({
  name: Type.String(),
  status: Type.Optional(Type.String()),
  description: Type.Optional(NullableString),
});
export type InlandHold = Static<typeof InlandHold>;

/** A fee at the inland facility: an amount with what it is for. */
export const InlandFee = Type.Object({
  amount: Type.Number(),
  type: Type.Optional(Type.String()),
  description: Type.Optional(NullableString),
  currency_code: Type.Optional(Type.String()),
});
export type InlandFee = Static<typeof InlandFee>;

export const ImportDeadlines = Type.Object({
  pickup_lfd_terminal: NullableDateTime,
  pickup_lfd_rail: NullableDateTime,
  pickup_lfd_line: NullableDateTime,
});
export type ImportDeadlines = Static<typeof ImportDeadlines>;

export const EQUIPMENT_TYPES = ['dry', 'reefer', 'open top', 'flat rack', 'bulk', 'tank'] as const;
export const EQUIPMENT_HEIGHTS = ['standard', 'high_cube'] as const;
export const EQUIPMENT_LENGTHS = [10, 20, 40, 45] as const;

export const ContainerResource = Type.Object({
  id: Uuid,
  type: Type.Literal('container'),
  attributes: Type.Object({
    number: Type.String(),
    ref_numbers: Type.Array(Type.String()),
    equipment_type: Nullable(literals(EQUIPMENT_TYPES)),
    equipment_length: Nullable(Type.Enum(EQUIPMENT_LENGTHS)),
    equipment_height: Nullable(literals(EQUIPMENT_HEIGHTS)),
    weight_in_lbs: NullableNumber,
    created_at: DateTime,
    updated_at: Type.String({ format: 'date-time', ...extension }),
    seal_number: NullableString,
    pickup_lfd: NullableDateTime,
    pickup_appointment_at: NullableDateTime,
    availability_known: Type.Boolean(),
    available_for_pickup: Nullable(Type.Boolean()),
    pod_arrived_at: NullableDateTime,
    pod_discharged_at: NullableDateTime,
    pod_full_out_at: NullableDateTime,
    delivered_at: unlistedTime('When the box was delivered to the consignee'),
    empty_out_at: unlistedTime('When the empty was picked up for stuffing, at origin'),
    pol_full_in_at: unlistedTime('When the full box went in at the port of loading'),
    pol_vessel_loaded_at: unlistedTime(
      'When the box was loaded on the vessel at the port of loading',
    ),
    pol_vessel_departed_at: unlistedTime('When its vessel left the port of loading'),
    rail_last_tracking_request_at: unlistedTime('When the rail carrier was last asked'),
    ind_facility_holds: Nullable(
      Type.Array(InlandHold, unlisted('Holds at the inland (rail) facility')),
    ),
    ind_facility_fees: Nullable(
      Type.Array(InlandFee, unlisted('Fees at the inland (rail) facility')),
    ),
    ssl_lfd: unlistedTime("The steamship line's last free day"),
    terminal_checked_at: NullableDateTime,
    pod_full_out_chassis_number: NullableString,
    location_at_pod_terminal: NullableString,
    pickup_number: Nullable(
      Type.String({
        ...extension,
        description:
          'The pickup (release) number the terminal gives for the box, where its feed carries one; null where none is known.',
      }),
    ),
    final_destination_full_out_at: NullableDateTime,
    empty_terminated_at: NullableDateTime,
    holds_at_pod_terminal: Type.Array(TerminalHold),
    fees_at_pod_terminal: Type.Array(TerminalFee),
    pod_timezone: NullableString,
    final_destination_timezone: NullableString,
    empty_terminated_timezone: NullableString,
    pod_rail_carrier_scac: NullableString,
    ind_rail_carrier_scac: NullableString,
    pod_last_tracking_request_at: NullableDateTime,
    shipment_last_tracking_request_at: NullableDateTime,
    pod_rail_loaded_at: NullableDateTime,
    pod_rail_departed_at: NullableDateTime,
    ind_eta_at: NullableDateTime,
    ind_ata_at: NullableDateTime,
    ind_rail_unloaded_at: NullableDateTime,
    ind_facility_lfd_on: NullableDateTime,
    import_deadlines: Nullable(ImportDeadlines),
    current_status: literals(CONTAINER_STATUSES),
  }),
  relationships: Type.Object({
    shipment: ToOne('shipment'),
    pickup_facility: ToOne('terminal'),
    pod_terminal: ToOne('terminal'),
    transport_events: ToMany('transport_event'),
    raw_events: ToMany('raw_event'),
    trucker: Type.Optional(
      Type.Object(
        { data: Nullable(ResourceIdentifier('party')) },
        { ...extension, description: 'The trucker (a party) the box is assigned to.' },
      ),
    ),
  }),
  links: Type.Optional(SelfLink),
});
export type ContainerResource = Static<typeof ContainerResource>;

export const TransportEventResource = Type.Object({
  id: Uuid,
  type: Type.Literal('transport_event'),
  attributes: Type.Object({
    event: literals(TRANSPORT_EVENT_NAMES),
    voyage_number: NullableString,
    timestamp: NullableDateTime,
    timezone: NullableString,
    location_locode: NullableString,
    created_at: DateTime,
    data_source: literals(DATA_SOURCES),
    invalidated_at: Type.Optional(
      Nullable(
        Type.String({
          format: 'date-time',
          ...unlisted('When a later report withdrew the event; null while it stands'),
        }),
      ),
    ),
    location_name: Type.Optional(
      Nullable(
        Type.String({
          ...extension,
          description:
            "The source's own name of a place outside the reference data (an inland depot, a rail ramp): the `location` relationship is then null; null for a known place",
        }),
      ),
    ),
  }),
  relationships: Type.Object({
    shipment: ToOne('shipment'),
    container: ToOne('container'),
    location: ToOne('port', 'metro_area'),
    vessel: ToOne('vessel'),
    terminal: ToOne('terminal', 'rail_terminal'),
  }),
});
export type TransportEventResource = Static<typeof TransportEventResource>;

/** Raw (carrier) milestones; `location_name` is a plain string in the reference: absent when unknown. */
export const RawEventResource = Type.Object({
  id: Uuid,
  type: Type.Literal('raw_event'),
  attributes: Type.Object({
    event: Nullable(literals(RAW_EVENT_NAMES)),
    original_event: Type.String(),
    timestamp: DateTime,
    estimated: Type.Boolean(),
    actual_on: NullableString,
    estimated_on: NullableString,
    actual_at: NullableDateTime,
    estimated_at: NullableDateTime,
    timezone: NullableString,
    created_at: DateTime,
    location_name: Type.Optional(Type.String()),
    location_locode: NullableString,
    vessel_name: NullableString,
    vessel_imo: NullableString,
    index: Type.Integer(),
    voyage_number: NullableString,
    data_source: Type.Optional(
      Type.String(unlisted('Who reported the milestone, e.g. `shipping_line`')),
    ),
  }),
  relationships: Type.Object({
    location: ToOne('port', 'metro_area'),
    vessel: ToOne('vessel'),
  }),
});
export type RawEventResource = Static<typeof RawEventResource>;

export const WEBHOOK_EVENT_NAMES = [
  ...TRANSPORT_EVENT_NAMES,
  'shipment.estimated.arrival',
  'tracking_request.succeeded',
  'tracking_request.failed',
  'tracking_request.awaiting_manifest',
  'tracking_request.tracking_stopped',
  'container.created',
  'container.updated',
  'container.pod_terminal_changed',
] as const;

export const WebhookResource = Type.Object({
  id: Uuid,
  type: Type.Literal('webhook'),
  attributes: Type.Object({
    url: Type.String(),
    active: Type.Boolean(),
    events: Type.Array(literals(WEBHOOK_EVENT_NAMES)),
    secret: Type.String(),
    headers: Nullable(Type.Array(Type.Object({ name: Type.String(), value: Type.String() }))),
  }),
});
export type WebhookResource = Static<typeof WebhookResource>;

export const WebhookNotificationResource = Type.Object({
  id: Uuid,
  type: Type.Literal('webhook_notification'),
  attributes: Type.Object({
    event: literals(WEBHOOK_EVENT_NAMES),
    delivery_status: literals(['pending', 'succeeded', 'failed'] as const),
    created_at: Type.String(),
  }),
  relationships: Type.Object({
    webhook: ToOne('webhook'),
    reference_object: Type.Optional(
      ToOne('tracking_request', 'estimated_event', 'transport_event', 'container_updated_event'),
    ),
  }),
});
export type WebhookNotificationResource = Static<typeof WebhookNotificationResource>;

// ---------------------------------------------------------------------------------------------
// Non-resource payloads

export const InferNumberResult = Type.Object({
  id: Type.String(),
  type: Type.Literal('infer_number_results'),
  attributes: Type.Object({
    number_type: literals(['container', 'bill_of_lading', 'booking'] as const),
    validation: Type.Object({
      is_valid: Nullable(Type.Boolean()),
      type: literals(['container', 'shipment'] as const),
      check_digit_passed: Nullable(Type.Boolean()),
      parsed_number: NullableString,
      reason: NullableString,
    }),
    shipping_line: Type.Object({
      decision: literals(['auto_select', 'needs_confirmation', 'no_prediction'] as const),
      selected: Nullable(
        Type.Object({ scac: Type.String(), name: Type.String(), confidence: Type.Number() }),
      ),
      candidates: Type.Array(
        Type.Object({ scac: Type.String(), name: Type.String(), confidence: Type.Number() }),
      ),
    }),
  }),
});
export type InferNumberResult = Static<typeof InferNumberResult>;

/** One hit of `GET /search`: the real service types every item `search_result`. */
export const SearchResult = Type.Object({
  id: Type.String(),
  type: Type.Literal('search_result'),
  attributes: Type.Object({
    entity_type: literals(['shipment', 'cargo', 'tracking_request'] as const),
    number: Type.String(),
    shipment_id: NullableString,
    scac: NullableString,
    port_of_lading_name: NullableString,
    port_of_discharge_name: NullableString,
    containers_count: Nullable(Type.Integer()),
    tracking_stopped: Nullable(Type.Boolean()),
    tracking_stopped_reason: NullableString,
    status: NullableString,
    failed_reason: NullableString,
    ref_numbers: Type.Array(Type.String()),
    created_at: DateTime,
    updated_at: DateTime,
  }),
});
export type SearchResult = Static<typeof SearchResult>;

/**
 * One route map feature: a port, the current vessel, a past path or a predicted leg, with every
 * property the spec's Route map objects list (see route-features.ts).
 */
export const RouteFeature = CompleteRouteFeature;
export type RouteFeature = Static<typeof RouteFeature>;
export const RouteFeatureCollection = Type.Object({
  type: Type.Literal('FeatureCollection'),
  features: Type.Array(RouteFeature),
  /** A box moving on by rail: its rail leg and ramp (see route-features.ts). */
  inland: Type.Optional(InlandFeatureCollection),
});
export type RouteFeatureCollection = Static<typeof RouteFeatureCollection>;
