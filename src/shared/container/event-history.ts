/**
 * A container's event history: names in words, in the order things happened, each with its place.
 */
import { spellOut } from './statuses';

/** Every event name the /v2 API sends, in words (the `.estimated.` variants share them). */
const EVENT_LABELS: Readonly<Record<string, string>> = {
  'container.created': 'Tracking started',
  'container.updated': 'Details updated',
  'container.pickup_appointment.changed': 'Pickup appointment changed',
  'container.pickup_lfd.changed': 'Last free day changed',
  'container.pickup_lfd_line.changed': 'Line last free day changed',
  'container.pickup_lfd_rail.changed': 'Rail last free day changed',
  'container.pickup_lfd_terminal.changed': 'Terminal last free day changed',
  'container.pod_terminal_changed': 'Discharge terminal changed',
  'container.transport.arrived_at_inland_destination': 'Arrived at inland destination',
  'container.transport.available': 'Available for pickup',
  'container.transport.not_available': 'Not available for pickup',
  'container.transport.delivered': 'Delivered',
  'container.transport.empty_in': 'Empty returned',
  'container.transport.empty_out': 'Empty picked up',
  'container.transport.full_in': 'Full gated in',
  'container.transport.full_out': 'Full gated out (picked up)',
  'container.transport.feeder_arrived': 'Feeder arrived',
  'container.transport.feeder_departed': 'Feeder departed',
  'container.transport.feeder_discharged': 'Discharged from feeder',
  'container.transport.feeder_loaded': 'Loaded on feeder',
  'container.transport.rail_arrived': 'Rail arrived',
  'container.transport.rail_departed': 'Rail departed',
  'container.transport.rail_loaded': 'Loaded on rail',
  'container.transport.rail_unloaded': 'Unloaded from rail',
  'container.transport.transshipment_arrived': 'Arrived at transshipment port',
  'container.transport.transshipment_departed': 'Departed transshipment port',
  'container.transport.transshipment_discharged': 'Discharged at transshipment port',
  'container.transport.transshipment_loaded': 'Loaded at transshipment port',
  'container.transport.vessel_arrived': 'Vessel arrived',
  'container.transport.vessel_berthed': 'Vessel berthed',
  'container.transport.vessel_departed': 'Vessel departed',
  'container.transport.vessel_discharged': 'Discharged from vessel',
  'container.transport.vessel_loaded': 'Loaded on vessel',
  'shipment.estimated.arrival': 'Estimated arrival',
};

/**
 * An event name in words, and whether it is an estimate: "container.transport.rail_loaded" ->
 * "Loaded on rail". A name the table does not know is spelled out from its last parts
 * ("container.customs.released" -> "Customs released"); a missing one is a dash.
 */
export function eventLabel(name: string | null | undefined): { text: string; estimated: boolean } {
  if (!name) return { text: '—', estimated: false };
  const estimated = name.includes('.estimated.');
  const plain = name.replace('.estimated.', '.');
  const known = EVENT_LABELS[plain] ?? EVENT_LABELS[name];
  if (known) return { text: known, estimated };
  return { text: spellOut(plain.replace(/^(container|shipment)\.(transport\.)?/, '')), estimated };
}

/** The facts of one event the history reads. */
export interface HistoryEventFacts {
  event: string | null | undefined;
  timestamp: string | null | undefined;
  timezone: string | null | undefined;
  location_locode?: string | null | undefined;
  /** The source's own name of a place outside the reference data (a depot, a rail ramp). */
  location_name?: string | null | undefined;
}

/** Where the box was, for events that name no place of their own. */
export interface HistoryPlaces {
  /** The port terminal (or the port) with its zone. */
  port: { name: string | null; zone: string | null };
  /** The inland ramp, for rail arrivals and unloading, with its zone. */
  ramp: { name: string | null; zone: string | null };
}

export interface HistoryEntry<E> {
  event: E;
  label: string;
  estimated: boolean;
  /** Never blank: the event's location, else the place it happened (ramp or port), else "—". */
  place: string;
  /** The zone its time is shown in: one per instant, whichever events share it. */
  zone: string | null;
}

const AT_RAMP = /\.(rail_arrived|rail_unloaded|arrived_at_inland_destination)$/;

/** An event's own place: "Name (CODE)" when the source named it, else the code. */
function placeOf(e: HistoryEventFacts): string {
  const code = e.location_locode ?? '';
  const name = e.location_name?.trim() ?? '';
  if (name && code) return `${name} (${code})`;
  return name || code;
}

/**
 * The event history as a dispatcher reads it: in the order things happened (by the instant, not
 * the local wall-clock text, so a 12:21 in one zone and a 15:40 in another sort right; events
 * without a time last), each named in words and placed, and events at one instant written in
 * one zone (that of one naming its location, else the first's) so the same moment never reads as two different times.
 */
export function eventHistory<E extends HistoryEventFacts>(
  events: readonly E[],
  places: HistoryPlaces,
): HistoryEntry<E>[] {
  const instantOf = (e: E) => {
    const t = e.timestamp ? Date.parse(e.timestamp) : NaN;
    return Number.isFinite(t) ? t : Infinity;
  };
  const ordered = events
    .map((event, index) => ({ event, index, at: instantOf(event) }))
    .sort((a, b) => a.at - b.at || a.index - b.index);
  const homeOf = (e: E) =>
    e.event && AT_RAMP.test(e.event) && places.ramp.name ? places.ramp : places.port;
  // One zone per instant: that of an event at it which names its location, else the first's.
  const zoneAt = new Map<number, string | null>();
  for (const { event, at } of ordered) {
    if (!Number.isFinite(at)) continue;
    const zone = event.timezone ?? homeOf(event).zone;
    if (!zoneAt.has(at)) zoneAt.set(at, zone);
  }
  const located = new Set<number>();
  for (const { event, at } of ordered) {
    if (event.location_locode && event.timezone && !located.has(at)) {
      located.add(at);
      zoneAt.set(at, event.timezone);
    }
  }
  return ordered.map(({ event, at }) => {
    const home = homeOf(event);
    const { text, estimated } = eventLabel(event.event);
    return {
      event,
      label: text,
      estimated,
      place: placeOf(event) || home.name || '—',
      zone: zoneAt.get(at) ?? event.timezone ?? home.zone,
    };
  });
}
