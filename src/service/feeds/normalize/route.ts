/**
 * The shipment's route, derived from the carrier's events alone (no booking data is needed):
 *
 * - Vessel legs are events whose mode of transport is VESSEL or BARGE. Equipment LOAD/DISC events
 *   without a transport call count as vessel legs too (carriers omit the call on some of them).
 * - Events of every classifier count (actual, planned, estimated), so the route is known from the
 *   first planned events, before anything has happened.
 * - POL (port of lading) is the location of the earliest vessel LOAD or DEPA event.
 * - POD (port of discharge) is the location of the latest vessel DISC or ARRI event.
 * - Transshipment ports are the other locations of vessel moves that fall between POL and POD
 *   in time, in the order the shipment first reaches them. A port called only before POL or only
 *   after POD is ignored.
 * - The destination is the location of the latest RAIL or TRUCK arrival (TRANSPORT/ARRI) or rail
 *   discharge (EQUIPMENT/DISC by RAIL) at a place other than the POD, after the shipment reached
 *   the POD. With no inland leg there is no separate destination (null).
 */
import type { RawEvent } from './raw-events';

export interface DerivedRoute {
  pol: string | null;
  pod: string | null;
  /** Transshipment ports in call order (TS1, TS2, ...). */
  transshipments: string[];
  destination: string | null;
  /** POL, TS1..n, POD: the ports of the route in order, without gaps or repeats. */
  ports: string[];
}

export function isVesselLeg(e: RawEvent): boolean {
  if (e.mode_of_transport === 'VESSEL' || e.mode_of_transport === 'BARGE') return true;
  // A mode outside the DCSA list is not taken for a vessel.
  return (
    e.mode_of_transport === null &&
    e.unlisted.modeOfTransport === undefined &&
    e.event_type === 'EQUIPMENT' &&
    (e.event_code === 'LOAD' || e.event_code === 'DISC')
  );
}

function isInlandArrival(e: RawEvent): boolean {
  if (e.event_type === 'TRANSPORT' && e.event_code === 'ARRI') {
    return e.mode_of_transport === 'RAIL' || e.mode_of_transport === 'TRUCK';
  }
  return e.event_type === 'EQUIPMENT' && e.event_code === 'DISC' && e.mode_of_transport === 'RAIL';
}

const time = (e: RawEvent) => Date.parse(e.timestamp);

/** The moves a route is made of; an event of another (or an unlisted) code places no port. */
const MOVES = new Set(['LOAD', 'DISC', 'ARRI', 'DEPA']);

export function deriveRoute(events: readonly RawEvent[]): DerivedRoute {
  const vessel = events.filter(
    (e) => e.location_locode !== null && isVesselLeg(e) && MOVES.has(e.event_code),
  );
  const byTime = [...vessel].sort((a, b) => time(a) - time(b) || a.sequence - b.sequence);

  const outbound = byTime.filter((e) => e.event_code === 'LOAD' || e.event_code === 'DEPA');
  const inbound = byTime.filter((e) => e.event_code === 'DISC' || e.event_code === 'ARRI');
  const pol = outbound[0]?.location_locode ?? null;
  const pod = inbound[inbound.length - 1]?.location_locode ?? null;

  // The first time the shipment is at each port.
  const firstCall = new Map<string, number>();
  for (const e of byTime) {
    const locode = e.location_locode as string;
    if (!firstCall.has(locode)) firstCall.set(locode, time(e));
  }
  const polTime = pol !== null ? (firstCall.get(pol) ?? -Infinity) : -Infinity;
  const podTime = pod !== null ? (firstCall.get(pod) ?? Infinity) : Infinity;
  const transshipments = [...firstCall.entries()]
    .filter(([locode, t]) => locode !== pol && locode !== pod && t >= polTime && t <= podTime)
    .sort((a, b) => a[1] - b[1])
    .map(([locode]) => locode);

  let destination: string | null = null;
  if (pod !== null) {
    const reachedPod = podTime;
    const inland = events
      .filter(
        (e) =>
          e.location_locode !== null &&
          e.location_locode !== pod &&
          isInlandArrival(e) &&
          time(e) >= reachedPod,
      )
      .sort((a, b) => time(a) - time(b) || a.sequence - b.sequence);
    destination = inland[inland.length - 1]?.location_locode ?? null;
  }

  const ports: string[] = [];
  for (const p of [pol, ...transshipments, pod])
    if (p !== null && !ports.includes(p)) ports.push(p);
  return { pol, pod, transshipments, destination, ports };
}
