/**
 * AIS positions into the store: each known vessel's current position (vessels table) and a
 * thinned position history (vessel_positions, one point per vessel per `minSpacingMs`), which
 * the route map draws as the past path. Positions arrive as a stream and are written in batches
 * on the engine's tick, so a busy feed never holds the database.
 */
import { v4 as uuidv4 } from 'uuid';
import type { VesselPosition, VesselStatic } from '../feeds';
import type { VesselPositionsTable } from '../store/schema';
import type { VesselStore } from '../store/vessels';

export const POSITION_SPACING_MS = 15 * 60_000;
/** Most buffered points per flush; the rest wait (the latest position is always kept). */
const MAX_BUFFER = 5_000;

export class PositionRecorder {
  private readonly latest = new Map<string, { p: VesselPosition; mmsi: string }>();
  private readonly pending: VesselPositionsTable[] = [];
  private readonly lastKeptAt = new Map<string, number>();
  stored = 0;

  constructor(
    private readonly vessels: VesselStore,
    private readonly isKnownVessel: (imo: string) => boolean,
    private readonly minSpacingMs = POSITION_SPACING_MS,
  ) {}

  /** Called for every accepted AIS position; cheap, never throws. */
  offer(position: VesselPosition, vessel: VesselStatic | null): void {
    const imo = vessel?.imo;
    if (!imo || !this.isKnownVessel(imo)) return;
    this.latest.set(imo, { p: position, mmsi: position.mmsi });
    const last = this.lastKeptAt.get(imo);
    if (last !== undefined && position.received_at - last < this.minSpacingMs) return;
    if (this.pending.length >= MAX_BUFFER) return;
    this.lastKeptAt.set(imo, position.received_at);
    this.pending.push({
      id: uuidv4(),
      vessel_imo: imo,
      mmsi: position.mmsi,
      latitude: position.lat,
      longitude: position.lon,
      speed_knots: position.speed_knots,
      heading_degrees: position.heading_deg ?? position.course_deg,
      timestamp: position.timestamp,
    });
  }

  async flush(): Promise<void> {
    if (this.latest.size === 0 && this.pending.length === 0) return;
    const latest = [...this.latest.entries()];
    this.latest.clear();
    const rows = this.pending.splice(0, this.pending.length);
    await this.vessels.recordPositions(
      latest.map(([imo, { p, mmsi }]) => ({
        imo,
        mmsi,
        latitude: p.lat,
        longitude: p.lon,
        speedKnots: p.speed_knots,
        headingDegrees: p.heading_deg ?? p.course_deg,
        timestamp: p.timestamp,
      })),
      rows,
    );
    this.stored += rows.length;
  }
}
