/**
 * A container's `current_status`, derived from what is known about it rather than stepped
 * through a fixed sequence: sources report out of order and late (a terminal can say "picked up"
 * before the line reports the discharge), so the status is recomputed from the facts each time.
 *
 * Rules, first match wins:
 *
 * | # | condition                                                          | current_status            |
 * |---|--------------------------------------------------------------------|---------------------------|
 * | 1 | empty_terminated_at is set                                          | empty_returned            |
 * | 2 | the status is `delivered` (only ever set by an explicit mark)       | delivered                 |
 * | 3 | final_destination_full_out_at is set                                | picked_up                 |
 * | 4 | ind_ata_at or ind_rail_unloaded_at is set (at the inland ramp):     |                           |
 * |   |   terminal says available / not available / unknown                 | available / not_available / grounded |
 * | 5 | pod_rail_loaded_at or pod_rail_departed_at is set                   | on_rail                   |
 * | 6 | pod_full_out_at is set                                              | picked_up                 |
 * | 7 | discharged at the POD (pod_discharged_at) and the shipment moves    |                           |
 * |   |   on inland (destination differs from the POD)                      | awaiting_inland_transfer  |
 * | 8 | discharged at the POD: terminal says available / not available /    |                           |
 * |   |   availability unknown                                              | available / not_available / grounded |
 * | 9 | loaded on the first vessel or the vessel departed the POL, or       |                           |
 * |   |   arrived at the POD but not yet discharged                         | on_ship                   |
 * |10 | otherwise                                                           | new                       |
 *
 * `off_dock`, `dropped` and `loaded` are in the API's list but no feed Quayside reads reports
 * them, so the engine never derives them.
 */
import type { ContainerStatus } from '../../shared/api/resources';

export interface StatusFacts {
  previous: ContainerStatus;
  emptyTerminatedAt: string | null;
  finalDestinationFullOutAt: string | null;
  indAtaAt: string | null;
  indRailUnloadedAt: string | null;
  podRailLoadedAt: string | null;
  podRailDepartedAt: string | null;
  podFullOutAt: string | null;
  podDischargedAt: string | null;
  podArrivedAt: string | null;
  /** Whether the container was loaded on a vessel at the POL (or the vessel left the POL). */
  departedOrigin: boolean;
  /** The shipment's destination lies beyond the port of discharge. */
  inlandMove: boolean;
  availabilityKnown: boolean;
  availableForPickup: boolean | null;
}

function availability(f: StatusFacts): ContainerStatus {
  if (!f.availabilityKnown) return 'grounded';
  return f.availableForPickup ? 'available' : 'not_available';
}

export function deriveStatus(f: StatusFacts): ContainerStatus {
  if (f.emptyTerminatedAt) return 'empty_returned';
  if (f.previous === 'delivered') return 'delivered';
  if (f.finalDestinationFullOutAt) return 'picked_up';
  if (f.indAtaAt || f.indRailUnloadedAt) return availability(f);
  if (f.podRailLoadedAt || f.podRailDepartedAt) return 'on_rail';
  if (f.podFullOutAt) return 'picked_up';
  if (f.podDischargedAt) return f.inlandMove ? 'awaiting_inland_transfer' : availability(f);
  if (f.departedOrigin || f.podArrivedAt) return 'on_ship';
  return 'new';
}
