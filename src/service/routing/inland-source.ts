/**
 * What the map's rail leg reads (see inland-leg.ts): whether the box moves on by rail, its ramp
 * and the ramp's place from the reference data, its rail facts, and the places its rail events
 * name.
 */
import type { ReferenceData } from '../store/reference';
import type { ContainersTable, ShipmentsTable } from '../store/schema';
import type { TrackingStore } from '../store/tracking-store';
import type { InlandLegData, InlandPlace, RailEventPlace } from './inland-leg';

/** Events whose place is on the rail leg: where the box was loaded, left, arrived, unloaded. */
export const RAIL_EVENTS = [
  'container.transport.rail_loaded',
  'container.transport.rail_departed',
  'container.transport.rail_arrived',
  'container.transport.rail_unloaded',
  'container.transport.arrived_at_inland_destination',
] as const;

type RailContainer = Pick<
  ContainersTable,
  | 'current_status'
  | 'pod_rail_loaded_at'
  | 'pod_rail_departed_at'
  | 'ind_eta_at'
  | 'ind_ata_at'
  | 'ind_rail_unloaded_at'
>;
type RailShipment = Pick<
  ShipmentsTable,
  | 'port_of_discharge_id'
  | 'destination_id'
  | 'destination_type'
  | 'destination_terminal_id'
  | 'destination_terminal_type'
  | 'destination_eta_at'
>;

/**
 * The box's ramp, or null when it does not move on by rail: the shipment's destination terminal
 * when it is a rail terminal (placed at its metro area), else its inland destination when that is
 * a metro area and the box has rail facts or the destination lies past the port of discharge.
 */
export function inlandPlace(
  ref: ReferenceData,
  container: RailContainer,
  shipment: RailShipment,
): InlandPlace | null {
  const railFacts =
    container.current_status === 'on_rail' ||
    container.pod_rail_loaded_at !== null ||
    container.pod_rail_departed_at !== null ||
    container.ind_eta_at !== null ||
    container.ind_ata_at !== null ||
    container.ind_rail_unloaded_at !== null;
  const destination =
    shipment.destination_type === 'metro_area' && shipment.destination_id
      ? ref.metrosById.get(shipment.destination_id)
      : undefined;
  const ramp =
    shipment.destination_terminal_type === 'rail_terminal' && shipment.destination_terminal_id
      ? ref.railTerminalsById.get(shipment.destination_terminal_id)
      : undefined;
  if (ramp) {
    const metro = (ramp.metro_area_id && ref.metrosById.get(ramp.metro_area_id)) || destination;
    if (!metro) return null;
    return {
      id: ramp.id,
      kind: 'rail_terminal',
      name: ramp.name,
      firms_code: ramp.firms_code,
      city: metro.name,
      state_abbr: metro.state_abbr,
      country_code: metro.country_code,
      time_zone: metro.time_zone,
      longitude: metro.longitude,
      latitude: metro.latitude,
      position_estimated: true,
    };
  }
  if (!destination) return null;
  const pod = shipment.port_of_discharge_id
    ? ref.portsById.get(shipment.port_of_discharge_id)
    : undefined;
  if (!railFacts && pod?.locode === destination.locode) return null;
  return {
    id: destination.id,
    kind: 'metro_area',
    name: destination.name,
    firms_code: null,
    city: destination.name,
    state_abbr: destination.state_abbr,
    country_code: destination.country_code,
    time_zone: destination.time_zone,
    longitude: destination.longitude,
    latitude: destination.latitude,
    position_estimated: true,
  };
}

/** Loads a container's rail leg for the map: null when it does not move on by rail. */
export function loadInlandLeg(
  tracking: Pick<TrackingStore, 'eventTimesAndPlaces'>,
  ref: ReferenceData,
) {
  return async (input: {
    container: RailContainer & Pick<ContainersTable, 'id'>;
    shipment: RailShipment;
  }): Promise<InlandLegData | null> => {
    const { container, shipment } = input;
    const ramp = inlandPlace(ref, container, shipment);
    if (!ramp) return null;
    const rows = await tracking.eventTimesAndPlaces(container.id, RAIL_EVENTS);
    const places: RailEventPlace[] = rows.map((row) => {
      const place = row.location_locode
        ? (ref.portsByLocode.get(row.location_locode) ??
          ref.metrosByLocode.get(row.location_locode))
        : undefined;
      return {
        at: row.timestamp ? Date.parse(row.timestamp) : Number.POSITIVE_INFINITY,
        position:
          place && place.longitude !== null && place.latitude !== null
            ? [place.longitude, place.latitude]
            : null,
      };
    });
    return {
      ramp,
      rail_loaded_at: container.pod_rail_loaded_at,
      rail_departed_at: container.pod_rail_departed_at,
      eta_at: container.ind_eta_at ?? shipment.destination_eta_at,
      arrived_at: container.ind_ata_at,
      unloaded_at: container.ind_rail_unloaded_at,
      places,
    };
  };
}
