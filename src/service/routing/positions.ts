/**
 * Where recorded vessel positions come from. The route map and the vessel endpoints read them
 * through `VesselPositionHistory`; the service's source is the stored position table
 * (`VesselStore.positionHistory()` in store/vessels.ts), which the AIS feed writes.
 */
import type { TrackPoint } from './route-map';

/** Identifies a vessel for position look-ups: by MMSI when known, else by IMO. */
export interface PositionKey {
  imo: string | null;
  mmsi: string | null;
}

export interface VesselPositionHistory {
  /** Positions recorded with time in [fromMs, toMs], oldest first. */
  positions(vessel: PositionKey, fromMs: number, toMs: number): Promise<TrackPoint[]>;
  /** The most recent recorded position, or null. */
  latest(vessel: PositionKey): Promise<TrackPoint | null>;
}
