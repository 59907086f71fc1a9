/**
 * A board row worked out from a container's /v2 resource and its shipment's, by the same shared
 * rules the desktop cache applies when it stores them (LFD deadlines, readiness, holds, fees,
 * where the box is). The service's assistant tools read rows this way; the cache has its own.
 */
import { truckerIdOf, type CachedContainer, type CachedShipment } from '../cached-resources';
import {
  activeHolds,
  bindingLfd,
  containerLocation,
  feesSum,
  lfdDeadlines,
  readiness,
} from '../container';
import type { BoardRow } from '../desktop';

export function boardRowOf(
  container: CachedContainer,
  shipment: CachedShipment | null,
  terminalName: string | null,
): BoardRow {
  const a = container.attributes;
  const s = shipment?.attributes;
  const d = a.import_deadlines;
  const sources = {
    line: d?.pickup_lfd_line,
    terminal: d?.pickup_lfd_terminal,
    rail: d?.pickup_lfd_rail,
  };
  const binding = bindingLfd(sources);
  const holds = activeHolds(a.holds_at_pod_terminal ?? []);
  const fees = feesSum(a.fees_at_pod_terminal ?? []);
  const status = a.current_status ?? '';
  const ready = readiness({
    status,
    activeHoldCount: holds.length,
    arrivedAt: a.pod_arrived_at,
    dischargedAt: a.pod_discharged_at,
    fullOutAt: a.pod_full_out_at,
    availabilityKnown: a.availability_known === true,
    availableForPickup: a.available_for_pickup,
  }).ready;
  return {
    id: container.id,
    shipmentId: shipment?.id ?? null,
    number: a.number ?? '',
    billOfLading: s?.bill_of_lading_number ?? null,
    lineScac: s?.shipping_line_scac ?? null,
    status,
    podLocode: s?.port_of_discharge_locode ?? null,
    podName: s?.port_of_discharge_name ?? null,
    terminalName,
    vessel: s?.pod_vessel_name ?? null,
    voyage: s?.pod_voyage_number ?? null,
    etaAt: s?.pod_eta_at ?? null,
    ataAt: a.pod_arrived_at ?? s?.pod_ata_at ?? null,
    dischargedAt: a.pod_discharged_at,
    availabilityKnown: a.availability_known === true,
    availableForPickup: a.available_for_pickup,
    ready,
    holdsCount: holds.length,
    holdNames: holds.map((h) => h.name),
    feesAmount: fees.amount,
    feesCurrency: fees.currency,
    lfd: binding.date ?? a.pickup_lfd ?? null,
    lfdSource: binding.date ? binding.source : null,
    deadlines: lfdDeadlines(
      sources,
      { port: a.pod_timezone, destination: a.final_destination_timezone },
      a.pickup_lfd,
    ),
    location: containerLocation({
      status,
      terminalName,
      podName: s?.port_of_discharge_name ?? null,
      destinationName: s?.destination_name ?? null,
      railDepartedAt: a.pod_rail_departed_at,
      railUnloadedAt: a.ind_rail_unloaded_at,
    }),
    pickupAppointmentAt: a.pickup_appointment_at,
    pickedUpAt: a.pod_full_out_at ?? a.final_destination_full_out_at ?? null,
    terminalCheckedAt: a.terminal_checked_at,
    updatedAt: a.updated_at ?? null,
    podTimezone: a.pod_timezone,
    destinationTimezone: a.final_destination_timezone,
    customer: s?.customer_name ?? null,
    truckerId: truckerIdOf(container),
    // The assistant tools read no party list: the name stays unknown there.
    trucker: null,
    customFields: {},
  };
}
