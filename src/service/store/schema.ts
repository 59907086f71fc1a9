/**
 * Row types of the service tables, as both engines return them: timestamps are UTC ISO 8601
 * text, JSON values are text and booleans are 0/1 (PostgreSQL stores `timestamptz` and `boolean`
 * for some of them; dialect.ts reads those back in these shapes), so the same queries run on both.
 */
import type { RouteMapCopiesTable } from './route-map-copies';

type Json = string;
type Bool = number;

export interface AccountsTable {
  id: string;
  name: string;
  routing_enabled: Bool;
  created_at: string;
}

export interface ApiKeysTable {
  id: string;
  account_id: string;
  key_hash: string;
  created_at: string;
}

export interface PortsTable {
  id: string;
  locode: string;
  name: string;
  city: string | null;
  state_abbr: string | null;
  state: string | null;
  country_code: string;
  country: string;
  time_zone: string;
  latitude: number | null;
  longitude: number | null;
}

export interface MetroAreasTable {
  id: string;
  locode: string;
  name: string;
  state_abbr: string | null;
  country_code: string;
  time_zone: string;
  latitude: number | null;
  longitude: number | null;
}

export interface TerminalsTable {
  id: string;
  firms_code: string;
  smdg_code: string | null;
  bic_facility_code: string | null;
  name: string;
  nickname: string | null;
  street: string | null;
  city: string | null;
  state: string | null;
  state_abbr: string | null;
  zip: string | null;
  country: string;
  port_id: string | null;
  port_locode: string;
}

export interface RailTerminalsTable {
  id: string;
  firms_code: string;
  name: string;
  nickname: string | null;
  metro_area_id: string | null;
  port_id: string | null;
  rail_carrier_scac: string;
}

export interface ShippingLinesTable {
  id: string;
  scac: string;
  name: string;
  short_name: string;
  alternative_scacs: Json;
  container_prefixes: Json;
  bill_of_lading_prefixes: Json;
  booking_prefixes: Json;
  /** JSON list of TrackingNumberKind: the request types the line is tracked by. */
  tracks_by: Json;
}

export interface VesselsTable {
  id: string;
  imo: string;
  mmsi: string | null;
  name: string;
  operator_scac: string | null;
  latitude: number | null;
  longitude: number | null;
  nautical_speed_knots: number | null;
  navigational_heading_degrees: number | null;
  position_timestamp: string | null;
}

export interface TrackingRequestsTable {
  id: string;
  account_id: string;
  request_number: string;
  request_type: string;
  scac: string;
  status: string;
  failed_reason: string | null;
  ref_numbers: Json;
  tags: Json;
  shipment_tags: Json;
  is_retrying: Bool;
  retry_count: number | null;
  shipment_id: string | null;
  created_at: string;
  updated_at: string;
  /** When the tracking engine next asks the line about a pending or awaiting request. */
  next_attempt_at?: string | null;
  /** The party the request is tracked for. */
  customer_id?: string | null;
  /** Checked custom field values to set once the shipment exists (StagedCustomFieldValue[]). */
  initial_custom_fields?: Json | null;
}

export interface ShipmentsTable {
  id: string;
  account_id: string;
  bill_of_lading_number: string;
  normalized_number: string;
  scac: string;
  ref_numbers: Json;
  tags: Json;
  customer_name: string | null;
  /** The party the shipment is for; `customer_name` shows its company name. */
  customer_id?: string | null;
  port_of_lading_id: string | null;
  port_of_discharge_id: string | null;
  destination_id: string | null;
  /** `port` or `metro_area` */
  destination_type: string | null;
  pod_terminal_id: string | null;
  destination_terminal_id: string | null;
  /** `terminal` or `rail_terminal` */
  destination_terminal_type: string | null;
  pod_vessel_id: string | null;
  pod_vessel_name: string | null;
  pod_vessel_imo: string | null;
  pod_voyage_number: string | null;
  pol_etd_at: string | null;
  pol_atd_at: string | null;
  pod_eta_at: string | null;
  pod_original_eta_at: string | null;
  /** The first departure estimate the line gave for the port of loading. */
  pol_original_etd_at: string | null;
  /** The first arrival estimate the line gave for the inland destination. */
  destination_original_eta_at: string | null;
  pod_ata_at: string | null;
  destination_eta_at: string | null;
  destination_ata_at: string | null;
  line_tracking_last_attempted_at: string | null;
  line_tracking_last_succeeded_at: string | null;
  line_tracking_stopped_at: string | null;
  line_tracking_stopped_reason: string | null;
  created_at: string;
  updated_at: string;
  /** Tracking engine schedule: next line and terminal checks. */
  next_line_check_at?: string | null;
  next_terminal_check_at?: string | null;
  /** When the line's answer last changed (for `no_updates_at_line`). */
  line_changed_at?: string | null;
  /** When the line reported the booking cancelled. */
  cancelled_at?: string | null;
  /** The route's port calls (PortCall[] from deriveShipmentFacts) as JSON, for the route map. */
  port_calls?: Json | null;
}

export interface ContainersTable {
  id: string;
  account_id: string;
  shipment_id: string;
  number: string;
  ref_numbers: Json;
  equipment_type: string | null;
  equipment_length: number | null;
  equipment_height: string | null;
  weight_in_lbs: number | null;
  seal_number: string | null;
  pickup_appointment_at: string | null;
  availability_known: Bool;
  available_for_pickup: Bool | null;
  pod_arrived_at: string | null;
  /** Milestones at origin: empty picked up, full in at the POL terminal, loaded, departed. */
  empty_out_at: string | null;
  pol_full_in_at: string | null;
  pol_vessel_loaded_at: string | null;
  pol_vessel_departed_at: string | null;
  pod_discharged_at: string | null;
  pod_full_out_at: string | null;
  terminal_checked_at: string | null;
  pod_full_out_chassis_number: string | null;
  location_at_pod_terminal: string | null;
  /** The terminal feed's pickup number for the box (migration 0019); null where none is given. */
  pickup_number: string | null;
  final_destination_full_out_at: string | null;
  empty_terminated_at: string | null;
  holds_at_pod_terminal: Json;
  fees_at_pod_terminal: Json;
  pod_timezone: string | null;
  final_destination_timezone: string | null;
  empty_terminated_timezone: string | null;
  pod_rail_carrier_scac: string | null;
  ind_rail_carrier_scac: string | null;
  pod_last_tracking_request_at: string | null;
  shipment_last_tracking_request_at: string | null;
  pod_rail_loaded_at: string | null;
  pod_rail_departed_at: string | null;
  ind_eta_at: string | null;
  ind_ata_at: string | null;
  ind_rail_unloaded_at: string | null;
  pickup_lfd_terminal: string | null;
  pickup_lfd_rail: string | null;
  pickup_lfd_line: string | null;
  current_status: string;
  pod_terminal_id: string | null;
  pickup_facility_id: string | null;
  /** The trucker party the box is assigned to (a Quayside extension, migration 0017). */
  trucker_id: string | null;
  created_at: string;
  updated_at: string;
}

export interface TransportEventsTable {
  id: string;
  account_id: string;
  container_id: string;
  shipment_id: string;
  event: string;
  voyage_number: string | null;
  timestamp: string | null;
  timezone: string | null;
  location_locode: string | null;
  /** The source's own name of a place outside the reference data (null for a known place). */
  location_name: string | null;
  location_id: string | null;
  location_type: string | null;
  vessel_id: string | null;
  terminal_id: string | null;
  terminal_type: string | null;
  data_source: string;
  created_at: string;
}

export interface RawEventsTable {
  id: string;
  account_id: string;
  container_id: string;
  event: string | null;
  original_event: string;
  timestamp: string;
  estimated: Bool;
  timezone: string | null;
  location_name: string | null;
  location_locode: string | null;
  location_id: string | null;
  location_type: string | null;
  vessel_name: string | null;
  vessel_imo: string | null;
  vessel_id: string | null;
  event_index: number;
  voyage_number: string | null;
  created_at: string;
}

export interface WebhooksTable {
  id: string;
  account_id: string;
  url: string;
  active: Bool;
  events: Json;
  secret: string;
  headers: Json | null;
  created_at: string;
  updated_at: string;
}

export interface WebhookNotificationsTable {
  id: string;
  account_id: string;
  webhook_id: string;
  event: string;
  delivery_status: string;
  reference_object_id: string | null;
  reference_object_type: string | null;
  payload: Json;
  created_at: string;
  /** Delivery attempts made so far. */
  attempt_count: number;
  /** When the next attempt is due (pending only). */
  next_attempt_at: string | null;
  last_attempt_at: string | null;
}

/** One HTTP attempt to deliver a notification. */
export interface WebhookDeliveryAttemptsTable {
  id: string;
  notification_id: string;
  attempt_number: number;
  url: string;
  status_code: number | null;
  latency_ms: number;
  error: string | null;
  succeeded: Bool;
  attempted_at: string;
}

/** Vessel positions received from AIS, kept for the route map's past path. */
export interface VesselPositionsTable {
  id: string;
  vessel_imo: string;
  mmsi: string | null;
  latitude: number;
  longitude: number;
  speed_knots: number | null;
  heading_degrees: number | null;
  timestamp: string;
}

/** One row (id 1): the account the service created for itself. */
export interface ServiceIdentityTable {
  id: number;
  account_id: string;
}

export interface Database {
  accounts: AccountsTable;
  service_identity: ServiceIdentityTable;
  api_keys: ApiKeysTable;
  ports: PortsTable;
  metro_areas: MetroAreasTable;
  terminals: TerminalsTable;
  rail_terminals: RailTerminalsTable;
  shipping_lines: ShippingLinesTable;
  vessels: VesselsTable;
  tracking_requests: TrackingRequestsTable;
  shipments: ShipmentsTable;
  containers: ContainersTable;
  transport_events: TransportEventsTable;
  raw_events: RawEventsTable;
  webhooks: WebhooksTable;
  webhook_notifications: WebhookNotificationsTable;
  webhook_delivery_attempts: WebhookDeliveryAttemptsTable;
  vessel_positions: VesselPositionsTable;
  route_map_copies: RouteMapCopiesTable;
  documents: DocumentsTable;
  email_submissions: EmailSubmissionsTable;
  document_settings: DocumentSettingsTable;
  line_subscriptions: LineSubscriptionsTable;
  line_event_snapshots: LineEventSnapshotsTable;
  custom_field_definitions: CustomFieldDefinitionsTable;
  custom_field_options: CustomFieldOptionsTable;
  custom_field_values: CustomFieldValuesTable;
  parties: PartiesTable;
  work_leases: WorkLeasesTable;
  callback_receipts: CallbackReceiptsTable;
  rate_limit_budgets: RateLimitBudgetsTable;
  account_record_counts: AccountRecordCountsTable;
}

/** Kept by triggers (migration 0012): never written by store code. */
export interface AccountRecordCountsTable {
  account_id: string;
  containers: number;
  shipments: number;
}

/** An account's custom field: what it applies to (`Shipment`, `Container`, `TrackingRequest`) and its type. */
export interface CustomFieldDefinitionsTable {
  id: string;
  account_id: string;
  entity_type: string;
  api_slug: string;
  display_name: string;
  description: string | null;
  data_type: string;
  reference_type: string | null;
  validation: Json | null;
  default_format: string | null;
  default_value: Json | null;
  created_at: string;
  updated_at: string;
}

/** A choice of an `enum` / `enum_multi` definition; values store the option's `value`. */
export interface CustomFieldOptionsTable {
  id: string;
  account_id: string;
  definition_id: string;
  label: string;
  value: string;
  position: number | null;
  created_at: string;
  updated_at: string;
}

/** One custom field value on one record (`shipment`, `container` or `tracking_request`). */
export interface CustomFieldValuesTable {
  id: string;
  account_id: string;
  definition_id: string;
  entity_type: string;
  entity_id: string;
  /** The value as JSON. */
  value: Json;
  /** Lower-cased text the list filters compare with: the value, or `\u001f`-framed choices. */
  match_text: string;
  created_at: string;
  updated_at: string;
}

/** A company an account tracks shipments for (the reference's `party`). */
export interface PartiesTable {
  id: string;
  account_id: string;
  company_name: string;
  /** JSON list of roles (`trucker`); migration 0017. */
  roles: Json;
  scac: string | null;
  /** JSON list of { name, email, phone }. */
  contacts: Json;
  created_at: string;
  updated_at: string;
}

/** Who runs a unit of work until when (several instances on PostgreSQL; see work-leases.ts). */
export interface WorkLeasesTable {
  /** e.g. `request:<id>`, `line:<shipment id>`, `webhook:<notification id>`, `ais:<source>`. */
  key: string;
  owner: string;
  /** On the database's clock. */
  expires_at_ms: number;
}

/**
 * One budget's allowed hits in the current window, on PostgreSQL only (see
 * rate-limit-windows.ts; written by the `rate_limit_give_back_and_take` function of migration
 * 0023). The `rate_limit_windows` table it replaced is no longer read.
 */
export interface RateLimitBudgetsTable {
  /** `<budget>:<account id>` */
  key: string;
  /** Epoch seconds with hits inside the window, and the hits of each (same positions). */
  seconds: number[];
  counts: number[];
  last_at_ms: number;
}

/** A signed DCSA callback body accepted once (see callback-receipts.ts); replays are refused. */
export interface CallbackReceiptsTable {
  subscription_id: string;
  /** Hex HMAC-SHA256 of the body under the subscription's secret (its signature). */
  digest: string;
  /** On the service's clock, in ms since the epoch. */
  received_at_ms: number;
}

/** A DCSA event subscription held with a carrier for one shipment; `id` is in the callback URL. */
export interface LineSubscriptionsTable {
  id: string;
  shipment_id: string;
  scac: string;
  carrier_subscription_id: string;
  /** Sealed at rest (sealed-columns.ts); the carrier signs callbacks with it. */
  secret: string;
  created_at: string;
  last_callback_at: string | null;
}

/** The DCSA events of a shipment's last line lookup (JSON array), merged with pushed ones. */
export interface LineEventSnapshotsTable {
  shipment_id: string;
  events: string;
  updated_at: string;
}

export interface EmailSubmissionsTable {
  id: string;
  account_id: string;
  subject: string | null;
  body: string | null;
  /** JSON string arrays. */
  from_addresses: Json;
  to_addresses: Json;
  cc_addresses: Json;
  sent_at: string | null;
  message_id: string | null;
  in_reply_to: string | null;
  reference_ids: Json;
  content_type: string | null;
  created_at: string;
  updated_at: string;
}

export interface DocumentsTable {
  id: string;
  account_id: string;
  email_submission_id: string | null;
  name: string;
  /** upload | api | email */
  source: string;
  file_name: string;
  content_type: string;
  size_bytes: number;
  /** Hex SHA-256 of the file: its name in the service's document folder. */
  sha256: string;
  /** Clockwise degrees: 0, 90, 180 or 270. */
  rotation: number;
  document_type: string;
  document_type_manual: string | null;
  classification_notes: string | null;
  /** pending | extracted | failed */
  extraction_status: string;
  extraction_error: string | null;
  /** Id of the latest extraction (the document_representation). */
  extraction_id: string | null;
  /** JSON of the latest extraction's payload. */
  extracted: Json | null;
  extracted_at: string | null;
  extracted_manual: Json | null;
  /** JSON id arrays of what the document is linked to. */
  shipment_ids: Json;
  container_ids: Json;
  tracking_request_ids: Json;
  /** JSON of what a delivery order stated (`DeliveryOrderAttribute`); null for other documents. */
  delivery_order: Json | null;
  /** JSON `{to, sent_at}` of the last time the document was emailed; null when never. */
  emailed: Json | null;
  discarded_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface DocumentSettingsTable {
  account_id: string;
  /** off | ask | automatic: whether extraction creates tracking requests. */
  tracking_mode: string;
  /** The secret part of the account's inbox address, track+<token>@host. */
  inbox_token: string;
}
