/**
 * Shipment-level and container-level facts derived from raw events: the dates and vessels the
 * shipment and container resources show, and the port calls the route map draws.
 *
 * Selection rules:
 * - An actual time is the earliest actual event for that milestone and place (a later duplicate
 *   report does not move it).
 * - An estimate is chosen among planned/estimated events for that milestone and place: EST beats
 *   PLN, then the most recently reported (eventCreatedDateTime), then the later one in the feed.
 *   The original ETA (pod_original_eta_at) is the first reported one.
 */
import type { RawEvent } from './raw-events';
import { deriveRoute, isVesselLeg, type DerivedRoute } from './route';

export interface VesselRef {
  imo: string | null;
  name: string | null;
  voyage_number: string | null;
}

export interface PortCall {
  /** 1 is the POL, the last is the POD. */
  sequence: number;
  label: string;
  locode: string;
  inbound_eta_at: string | null;
  inbound_ata_at: string | null;
  outbound_etd_at: string | null;
  outbound_atd_at: string | null;
  /** The vessel of the leg arriving here (null at the POL). */
  inbound_vessel: VesselRef | null;
  /** The vessel of the leg leaving here (null at the POD). */
  outbound_vessel: VesselRef | null;
  /** Latest report about this call, UTC ISO 8601. */
  updated_at: string | null;
}

export interface ShipmentFacts {
  route: DerivedRoute;
  port_of_lading_locode: string | null;
  port_of_discharge_locode: string | null;
  destination_locode: string | null;
  pol_etd_at: string | null;
  pol_atd_at: string | null;
  pod_eta_at: string | null;
  pod_original_eta_at: string | null;
  /** The first departure estimate reported for the POL. */
  pol_original_etd_at: string | null;
  pod_ata_at: string | null;
  destination_eta_at: string | null;
  /** The first arrival estimate reported for the inland destination. */
  destination_original_eta_at: string | null;
  destination_ata_at: string | null;
  pod_vessel_name: string | null;
  pod_vessel_imo: string | null;
  pod_voyage_number: string | null;
  port_calls: PortCall[];
}

export interface ContainerMilestones {
  /** The empty picked up for stuffing (before the box's first laden event). */
  empty_out_at: string | null;
  pol_full_in_at: string | null;
  pol_vessel_loaded_at: string | null;
  pol_vessel_departed_at: string | null;
  pod_arrived_at: string | null;
  pod_discharged_at: string | null;
  pod_full_out_at: string | null;
  pod_rail_loaded_at: string | null;
  pod_rail_departed_at: string | null;
  ind_eta_at: string | null;
  ind_ata_at: string | null;
  ind_rail_unloaded_at: string | null;
  final_destination_full_out_at: string | null;
  empty_terminated_at: string | null;
}

type Filter = (e: RawEvent) => boolean;

const at =
  (locode: string | null): Filter =>
  (e) =>
    locode !== null && e.location_locode === locode;
const code =
  (type: RawEvent['event_type'], c: string): Filter =>
  (e) =>
    e.event_type === type && e.event_code === c;
const and =
  (...fs: Filter[]): Filter =>
  (e) =>
    fs.every((f) => f(e));
const byRail: Filter = (e) => e.mode_of_transport === 'RAIL';
const inland: Filter = (e) => e.mode_of_transport === 'RAIL' || e.mode_of_transport === 'TRUCK';
const notBerth: Filter = (e) => e.facility_type_code !== 'BRTH';

function actual(events: readonly RawEvent[], f: Filter): RawEvent | null {
  let best: RawEvent | null = null;
  for (const e of events) {
    if (e.estimated || !f(e)) continue;
    if (!best || e.timestamp < best.timestamp) best = e;
  }
  return best;
}

function estimate(events: readonly RawEvent[], f: Filter): RawEvent | null {
  let best: RawEvent | null = null;
  for (const e of events) {
    if (!e.estimated || !f(e)) continue;
    if (!best || rankEstimate(e, best) > 0) best = e;
  }
  return best;
}

function rankEstimate(a: RawEvent, b: RawEvent): number {
  const weight = (e: RawEvent) => (e.classifier === 'EST' ? 1 : 0);
  return (
    weight(a) - weight(b) || a.reported_at.localeCompare(b.reported_at) || a.sequence - b.sequence
  );
}

function firstReported(events: readonly RawEvent[], f: Filter): RawEvent | null {
  let best: RawEvent | null = null;
  for (const e of events) {
    if (!e.estimated || !f(e)) continue;
    if (
      !best ||
      e.reported_at < best.reported_at ||
      (e.reported_at === best.reported_at && e.sequence < best.sequence)
    )
      best = e;
  }
  return best;
}

/** An arrival: prefer the plain arrival, fall back to the berth arrival. */
function actualArrival(events: readonly RawEvent[], f: Filter): RawEvent | null {
  return actual(events, and(f, notBerth)) ?? actual(events, f);
}

const ts = (e: RawEvent | null) => e?.timestamp ?? null;

function vesselOf(e: RawEvent | null): VesselRef | null {
  if (!e || (e.vessel_imo === null && e.vessel_name === null)) return null;
  return { imo: e.vessel_imo, name: e.vessel_name, voyage_number: e.voyage_number };
}

/** The vessel of a leg at a port: actual reports first, then the latest plan. */
function legVessel(events: readonly RawEvent[], f: Filter): VesselRef | null {
  const withVessel = and(f, (e) => e.vessel_imo !== null || e.vessel_name !== null);
  return vesselOf(actual(events, withVessel) ?? estimate(events, withVessel));
}

export function deriveShipmentFacts(
  events: readonly RawEvent[],
  route: DerivedRoute = deriveRoute(events),
): ShipmentFacts {
  const vesselLeg: Filter = isVesselLeg;
  const departs = and(vesselLeg, (e) => e.event_code === 'DEPA' || e.event_code === 'LOAD');
  const arrives = and(vesselLeg, (e) => e.event_code === 'ARRI' || e.event_code === 'DISC');
  const vesselDepa = and(vesselLeg, code('TRANSPORT', 'DEPA'));
  const vesselArri = and(vesselLeg, code('TRANSPORT', 'ARRI'));
  const inlandArri = and(inland, code('TRANSPORT', 'ARRI'), at(route.destination));

  const port_calls: PortCall[] = route.ports.map((locode, i) => {
    const last = i === route.ports.length - 1;
    const first = i === 0;
    const label = first ? 'POL' : last ? 'POD' : `TS${i}`;
    const here = at(locode);
    const updated = events
      .filter(here)
      .reduce<string | null>((m, e) => (m === null || e.reported_at > m ? e.reported_at : m), null);
    return {
      sequence: i + 1,
      label,
      locode,
      inbound_eta_at: first
        ? null
        : ts(
            estimate(events, and(vesselArri, here, notBerth)) ??
              estimate(events, and(vesselArri, here)),
          ),
      inbound_ata_at: first ? null : ts(actualArrival(events, and(vesselArri, here))),
      outbound_etd_at: last ? null : ts(estimate(events, and(vesselDepa, here))),
      outbound_atd_at: last ? null : ts(actual(events, and(vesselDepa, here))),
      inbound_vessel: first ? null : legVessel(events, and(arrives, here)),
      outbound_vessel: last ? null : legVessel(events, and(departs, here)),
      updated_at: updated,
    };
  });

  const pol = at(route.pol);
  const pod = at(route.pod);
  const podVessel = legVessel(events, and(arrives, pod));
  return {
    route,
    port_of_lading_locode: route.pol,
    port_of_discharge_locode: route.pod,
    destination_locode: route.destination,
    pol_etd_at: ts(estimate(events, and(vesselDepa, pol))),
    pol_atd_at: ts(actual(events, and(vesselDepa, pol))),
    pod_eta_at: ts(
      estimate(events, and(vesselArri, pod, notBerth)) ?? estimate(events, and(vesselArri, pod)),
    ),
    pod_original_eta_at: ts(firstReported(events, and(vesselArri, pod))),
    pol_original_etd_at: ts(firstReported(events, and(vesselDepa, pol))),
    pod_ata_at: ts(actualArrival(events, and(vesselArri, pod))),
    destination_eta_at: ts(estimate(events, inlandArri)),
    destination_original_eta_at: ts(firstReported(events, inlandArri)),
    destination_ata_at: ts(actual(events, inlandArri)),
    pod_vessel_name: podVessel?.name ?? null,
    pod_vessel_imo: podVessel?.imo ?? null,
    pod_voyage_number: podVessel?.voyage_number ?? null,
    port_calls,
  };
}

/**
 * Milestones of one container; pass its raw events (see rawEventsForContainer). The empty
 * return counts only after the container's last laden event, so an empty gate-in before
 * stuffing at origin is not mistaken for the end of the journey.
 */
export function deriveContainerMilestones(
  events: readonly RawEvent[],
  route: DerivedRoute = deriveRoute(events),
): ContainerMilestones {
  const pol = at(route.pol);
  const pod = at(route.pod);
  const dest = at(route.destination);
  const firstLaden = actual(
    events,
    (e) => e.event_type === 'EQUIPMENT' && e.empty_indicator === 'LADEN',
  )?.timestamp;
  const lastLaden = events
    .filter((e) => !e.estimated && e.event_type === 'EQUIPMENT' && e.empty_indicator === 'LADEN')
    .reduce<string>((m, e) => (e.timestamp > m ? e.timestamp : m), '');
  const emptyReturns = events.filter(
    (e) =>
      !e.estimated &&
      e.event_type === 'EQUIPMENT' &&
      e.event_code === 'GTIN' &&
      e.empty_indicator === 'EMPTY' &&
      e.timestamp >= lastLaden,
  );
  const inlandArri = and(inland, code('TRANSPORT', 'ARRI'), dest);
  const laden: Filter = (e) => e.empty_indicator === 'LADEN';
  return {
    empty_out_at: ts(
      actual(
        events,
        and(
          code('EQUIPMENT', 'GTOT'),
          (e) => e.empty_indicator === 'EMPTY',
          (e) => firstLaden === undefined || e.timestamp <= firstLaden,
        ),
      ),
    ),
    pol_full_in_at: ts(actual(events, and(code('EQUIPMENT', 'GTIN'), laden, pol))),
    pol_vessel_loaded_at: ts(actual(events, and(isVesselLeg, code('EQUIPMENT', 'LOAD'), pol))),
    pol_vessel_departed_at: ts(actual(events, and(isVesselLeg, code('TRANSPORT', 'DEPA'), pol))),
    pod_arrived_at: ts(actualArrival(events, and(isVesselLeg, code('TRANSPORT', 'ARRI'), pod))),
    pod_discharged_at: ts(actual(events, and(isVesselLeg, code('EQUIPMENT', 'DISC'), pod))),
    pod_full_out_at: ts(
      actual(
        events,
        and(code('EQUIPMENT', 'GTOT'), (e) => e.empty_indicator === 'LADEN', pod),
      ),
    ),
    pod_rail_loaded_at: ts(actual(events, and(byRail, code('EQUIPMENT', 'LOAD'), pod))),
    pod_rail_departed_at: ts(actual(events, and(byRail, code('TRANSPORT', 'DEPA'), pod))),
    ind_eta_at: ts(estimate(events, inlandArri)),
    ind_ata_at: ts(actual(events, inlandArri)),
    ind_rail_unloaded_at: ts(actual(events, and(byRail, code('EQUIPMENT', 'DISC'), dest))),
    final_destination_full_out_at: ts(
      actual(
        events,
        and(code('EQUIPMENT', 'GTOT'), (e) => e.empty_indicator === 'LADEN', dest),
      ),
    ),
    empty_terminated_at: ts(actual(emptyReturns, () => true)),
  };
}
