/**
 * Normalized transport event names (the Events part of the service spec) that the feed
 * normalization can produce. Deadline, availability and document events come from elsewhere.
 */
export const TRANSPORT_EVENT_NAMES = [
  'container.transport.vessel_loaded',
  'container.transport.vessel_departed',
  'container.transport.vessel_arrived',
  'container.transport.vessel_berthed',
  'container.transport.vessel_discharged',
  'container.transport.transshipment_arrived',
  'container.transport.transshipment_discharged',
  'container.transport.transshipment_loaded',
  'container.transport.transshipment_departed',
  'container.transport.feeder_arrived',
  'container.transport.feeder_discharged',
  'container.transport.feeder_loaded',
  'container.transport.feeder_departed',
  'container.transport.rail_loaded',
  'container.transport.rail_departed',
  'container.transport.rail_arrived',
  'container.transport.rail_unloaded',
  'container.transport.empty_out',
  'container.transport.full_in',
  'container.transport.full_out',
  'container.transport.empty_in',
  'container.transport.arrived_at_inland_destination',
] as const;

/** Names given to raw estimated events; never emitted as transport events by the feeds. */
export const ESTIMATED_EVENT_NAMES = [
  'container.transport.estimated.vessel_arrived',
  'container.transport.estimated.vessel_departed',
  'container.transport.estimated.arrived_at_inland_destination',
] as const;

export type TransportEventName = (typeof TRANSPORT_EVENT_NAMES)[number];
export type EstimatedEventName = (typeof ESTIMATED_EVENT_NAMES)[number];
export type NormalizedEventName = TransportEventName | EstimatedEventName;

/** Where an event's data came from (transport_event.attributes.data_source). */
export type DataSource = 'shipping_line' | 'terminal' | 'ais';
