/**
 * Raw events -> normalized event names and transport events.
 *
 * Naming (with the route from ./route):
 * - TRANSPORT by VESSEL/BARGE: DEPA at POL = vessel_departed; ARRI at POD = vessel_arrived
 *   (vessel_berthed when the call's facility type is BRTH); ARRI/DEPA at a transshipment port =
 *   transshipment_arrived/departed, or feeder_* when the leg is a BARGE. Other vessel calls
 *   (arrival at POL, departure from POD) are not container milestones.
 * - EQUIPMENT LOAD/DISC on a vessel leg: LOAD at POL = vessel_loaded, DISC at POD =
 *   vessel_discharged, at a transshipment port transshipment_/feeder_loaded/discharged.
 * - RAIL: LOAD = rail_loaded, DEPA = rail_departed, ARRI = rail_arrived, DISC = rail_unloaded.
 *   A RAIL or TRUCK arrival at the destination also yields arrived_at_inland_destination.
 * - Gate moves: GTOT EMPTY = empty_out, GTIN LADEN = full_in, GTOT LADEN = full_out,
 *   GTIN EMPTY = empty_in.
 * - STUF, STRP, PICK, DROP, INSP, RSEA, RMVD and all SHIPMENT events stay raw only, as does
 *   any event whose type code, classifier or empty/laden indicator is outside the DCSA lists
 *   (kept as sent; it names no milestone it might not be).
 * - Planned/estimated events get a name only for the estimated.* events: vessel arrival at a
 *   transshipment port or the POD, vessel departure from the POL or a transshipment port, and
 *   arrival at the inland destination. They never become transport events.
 *
 * Transport events are actual milestones only, one per (event name, location): the same milestone
 * reported twice, or by two sources, yields one event (see mergeTransportEvents).
 */
import type { ModeOfTransport } from '../../../shared/feeds/dcsa';
import type { DataSource, NormalizedEventName, TransportEventName } from './event-names';
import type { RawEvent } from './raw-events';
import { deriveRoute, isVesselLeg, type DerivedRoute } from './route';

export interface NamedRawEvent extends RawEvent {
  /** The normalized name of the event, or null when it has none (raw only). */
  event: NormalizedEventName | null;
}

export interface TransportEventDraft {
  event: TransportEventName;
  /** UTC ISO 8601. */
  timestamp: string;
  location_locode: string | null;
  /** The source's own name of the place, when it sent one. */
  location_name: string | null;
  facility_smdg_code: string | null;
  vessel_imo: string | null;
  vessel_name: string | null;
  voyage_number: string | null;
  mode_of_transport: ModeOfTransport | null;
  equipment_reference: string | null;
  data_source: DataSource;
  /** The original events (e.g. `EQUIPMENT/LOAD`) merged into this one, first one first. */
  original_events: string[];
  /** Every source that reported this milestone. */
  reported_by: DataSource[];
}

export interface NormalizedEvents {
  route: DerivedRoute;
  raw: NamedRawEvent[];
  transport: TransportEventDraft[];
}

type PortRole = 'pol' | 'pod' | 'ts' | 'other';

function roleOf(locode: string | null, route: DerivedRoute): PortRole {
  if (locode === null) return 'other';
  if (locode === route.pol) return 'pol';
  if (locode === route.pod) return 'pod';
  if (route.transshipments.includes(locode)) return 'ts';
  return 'other';
}

const T = (name: string) => `container.transport.${name}` as TransportEventName;

/** All normalized names of one raw event: the first is its own name, the rest are implied. */
export function namesFor(e: RawEvent, route: DerivedRoute): NormalizedEventName[] {
  if (e.event_type === 'SHIPMENT') return [];
  if (e.classifier !== 'ACT' && e.classifier !== 'PLN' && e.classifier !== 'EST') return [];
  const role = roleOf(e.location_locode, route);
  const atDestination = e.location_locode !== null && e.location_locode === route.destination;

  if (e.estimated) {
    if (e.event_type !== 'TRANSPORT') return [];
    if (isVesselLeg(e)) {
      if (e.event_code === 'ARRI' && (role === 'pod' || role === 'ts'))
        return ['container.transport.estimated.vessel_arrived'];
      if (e.event_code === 'DEPA' && (role === 'pol' || role === 'ts'))
        return ['container.transport.estimated.vessel_departed'];
      return [];
    }
    if (e.event_code === 'ARRI' && atDestination)
      return ['container.transport.estimated.arrived_at_inland_destination'];
    return [];
  }

  const feeder = e.mode_of_transport === 'BARGE';
  const ts = (what: string) => T(`${feeder ? 'feeder' : 'transshipment'}_${what}`);

  if (e.event_type === 'TRANSPORT') {
    if (isVesselLeg(e)) {
      if (e.event_code === 'DEPA') {
        if (role === 'pol') return [T('vessel_departed')];
        if (role === 'ts') return [ts('departed')];
        return [];
      }
      if (e.event_code !== 'ARRI') return [];
      if (role === 'pod')
        return [e.facility_type_code === 'BRTH' ? T('vessel_berthed') : T('vessel_arrived')];
      if (role === 'ts') return [ts('arrived')];
      return [];
    }
    if (e.mode_of_transport === 'RAIL') {
      if (e.event_code === 'DEPA') return [T('rail_departed')];
      if (e.event_code !== 'ARRI') return [];
      return atDestination
        ? [T('rail_arrived'), T('arrived_at_inland_destination')]
        : [T('rail_arrived')];
    }
    if (e.event_code === 'ARRI' && atDestination) return [T('arrived_at_inland_destination')];
    return [];
  }

  // Equipment events.
  switch (e.event_code) {
    case 'LOAD':
      if (e.mode_of_transport === 'RAIL') return [T('rail_loaded')];
      if (role === 'pol') return [T('vessel_loaded')];
      if (role === 'ts') return [ts('loaded')];
      return [];
    case 'DISC':
      if (e.mode_of_transport === 'RAIL') return [T('rail_unloaded')];
      if (role === 'pod') return [T('vessel_discharged')];
      if (role === 'ts') return [ts('discharged')];
      return [];
    case 'GTOT':
      return gateName('out', e.empty_indicator);
    case 'GTIN':
      return gateName('in', e.empty_indicator);
    default:
      return [];
  }
}

/** A gate move names a milestone only when the box is said to be empty or laden. */
function gateName(direction: 'in' | 'out', load: string | null): TransportEventName[] {
  if (load !== 'EMPTY' && load !== 'LADEN') return [];
  if (direction === 'out') return [load === 'EMPTY' ? T('empty_out') : T('full_out')];
  return [load === 'EMPTY' ? T('empty_in') : T('full_in')];
}

/**
 * Names every raw event and builds the actual transport events. Pass the raw events of one
 * container (see rawEventsForContainer); the route is derived from them unless given.
 */
export function normalizeEvents(
  events: readonly RawEvent[],
  route: DerivedRoute = deriveRoute(events),
): NormalizedEvents {
  const sorted = [...events].sort(
    (a, b) => a.timestamp.localeCompare(b.timestamp) || a.sequence - b.sequence,
  );
  const raw: NamedRawEvent[] = [];
  const drafts: TransportEventDraft[] = [];
  for (const e of sorted) {
    const names = namesFor(e, route);
    raw.push({ ...e, event: names[0] ?? null });
    if (e.estimated) continue;
    for (const name of names) {
      drafts.push({
        event: name as TransportEventName,
        timestamp: e.timestamp,
        location_locode: e.location_locode,
        location_name: e.location_name,
        facility_smdg_code: e.facility_smdg_code,
        vessel_imo: e.vessel_imo,
        vessel_name: e.vessel_name,
        voyage_number: e.voyage_number,
        mode_of_transport: e.mode_of_transport,
        equipment_reference: e.equipment_reference,
        data_source: e.data_source,
        original_events: [e.original_event],
        reported_by: [e.data_source],
      });
    }
  }
  return { route, raw, transport: mergeTransportEvents(drafts) };
}

/** Identity of a milestone: what happened where. */
export const milestoneKey = (e: Pick<TransportEventDraft, 'event' | 'location_locode'>): string =>
  `${e.event}|${e.location_locode ?? ''}`;

/**
 * One event per milestone. Pass the preferred source's events first: the first report of a
 * milestone wins (its time and source), later reports only fill in what it lacks (vessel,
 * voyage, facility) and are listed in `reported_by` / `original_events`. Result is chronological.
 */
export function mergeTransportEvents(
  ...lists: readonly (readonly TransportEventDraft[])[]
): TransportEventDraft[] {
  const merged = new Map<string, TransportEventDraft>();
  for (const list of lists) {
    for (const e of list) {
      const key = milestoneKey(e);
      const kept = merged.get(key);
      if (!kept) {
        merged.set(key, {
          ...e,
          original_events: [...e.original_events],
          reported_by: [...e.reported_by],
        });
        continue;
      }
      kept.location_name ??= e.location_name;
      kept.facility_smdg_code ??= e.facility_smdg_code;
      kept.vessel_imo ??= e.vessel_imo;
      kept.vessel_name ??= e.vessel_name;
      kept.voyage_number ??= e.voyage_number;
      kept.mode_of_transport ??= e.mode_of_transport;
      kept.equipment_reference ??= e.equipment_reference;
      for (const o of e.original_events)
        if (!kept.original_events.includes(o)) kept.original_events.push(o);
      for (const s of e.reported_by) if (!kept.reported_by.includes(s)) kept.reported_by.push(s);
    }
  }
  return [...merged.values()].sort((a, b) => a.timestamp.localeCompare(b.timestamp));
}
