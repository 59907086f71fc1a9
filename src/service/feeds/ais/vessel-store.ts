/**
 * What the AIS feed knows about each vessel, keyed by MMSI: the latest valid position with speed,
 * course and heading, a bounded history of positions, and static data (name, IMO, call sign).
 * Position reports carry only the UTC second, so the time of a position is when we received it
 * (from the injected Clock).
 */
import type { Clock } from '../../../shared/clock';
import type { AisDecoded, AisPositionReport, AisStaticReport } from './decode';

export interface VesselPosition {
  mmsi: string;
  lat: number;
  lon: number;
  speed_knots: number | null;
  course_deg: number | null;
  heading_deg: number | null;
  nav_status: number | null;
  /** Receive time, epoch ms. */
  received_at: number;
  /** Receive time, UTC ISO 8601. */
  timestamp: string;
  message_type: number;
}

export interface VesselStatic {
  mmsi: string;
  imo: string | null;
  name: string | null;
  call_sign: string | null;
  ship_type: number | null;
  destination: string | null;
  updated_at: string;
}

export type PositionListener = (position: VesselPosition, vessel: VesselStatic | null) => void;

export interface VesselStoreOptions {
  /** Positions kept per vessel (oldest dropped first). */
  historyLimit?: number;
}

export class AisVesselStore {
  private readonly latestByMmsi = new Map<string, VesselPosition>();
  private readonly historyByMmsi = new Map<string, VesselPosition[]>();
  private readonly staticByMmsi = new Map<string, VesselStatic>();
  private readonly mmsiByImo = new Map<string, string>();
  private readonly listeners = new Set<PositionListener>();
  private readonly historyLimit: number;
  /** Position reports ignored because the position was "not available" or out of range. */
  invalidPositions = 0;
  listenerErrors = 0;

  constructor(
    private readonly clock: Clock,
    options: VesselStoreOptions = {},
  ) {
    this.historyLimit = Math.max(1, options.historyLimit ?? 500);
  }

  apply(message: AisDecoded): void {
    if (message.kind === 'position') this.applyPosition(message);
    else this.applyStatic(message);
  }

  private applyPosition(m: AisPositionReport): void {
    // 91/181 mean "not available"; (0, 0) is what broken GPS units send.
    if (m.lat === null || m.lon === null || (m.lat === 0 && m.lon === 0)) {
      this.invalidPositions++;
      return;
    }
    const now = this.clock.now();
    const position: VesselPosition = {
      mmsi: m.mmsi,
      lat: m.lat,
      lon: m.lon,
      speed_knots: m.speedKnots,
      course_deg: m.courseDeg,
      heading_deg: m.headingDeg,
      nav_status: m.navStatus,
      received_at: now,
      timestamp: new Date(now).toISOString(),
      message_type: m.messageType,
    };
    this.latestByMmsi.set(m.mmsi, position);
    let history = this.historyByMmsi.get(m.mmsi);
    if (!history) this.historyByMmsi.set(m.mmsi, (history = []));
    history.push(position);
    if (history.length > this.historyLimit) history.splice(0, history.length - this.historyLimit);
    const vessel = this.staticByMmsi.get(m.mmsi) ?? null;
    for (const listener of this.listeners) {
      try {
        listener(position, vessel);
      } catch {
        // A subscriber's bug must not stop the feed.
        this.listenerErrors++;
      }
    }
  }

  private applyStatic(m: AisStaticReport): void {
    const previous = this.staticByMmsi.get(m.mmsi);
    // Type 24 comes in two parts (A: name, B: call sign); keep what the other part said.
    const merged: VesselStatic = {
      mmsi: m.mmsi,
      imo: m.imo ?? previous?.imo ?? null,
      name: m.name ?? previous?.name ?? null,
      call_sign: m.callSign ?? previous?.call_sign ?? null,
      ship_type: m.shipType ?? previous?.ship_type ?? null,
      destination: m.destination ?? previous?.destination ?? null,
      updated_at: new Date(this.clock.now()).toISOString(),
    };
    this.staticByMmsi.set(m.mmsi, merged);
    if (merged.imo) this.mmsiByImo.set(merged.imo, m.mmsi);
  }

  latest(mmsi: string): VesselPosition | null {
    return this.latestByMmsi.get(mmsi) ?? null;
  }

  /** Positions oldest first, at most `historyLimit`. */
  history(mmsi: string): readonly VesselPosition[] {
    return this.historyByMmsi.get(mmsi) ?? [];
  }

  vessel(mmsi: string): VesselStatic | null {
    return this.staticByMmsi.get(mmsi) ?? null;
  }

  /** MMSI of the vessel that last reported this IMO number in its static data. */
  mmsiForImo(imo: string): string | null {
    return this.mmsiByImo.get(imo) ?? null;
  }

  latestByImo(imo: string): VesselPosition | null {
    const mmsi = this.mmsiForImo(imo);
    return mmsi ? this.latest(mmsi) : null;
  }

  vesselCount(): number {
    return this.latestByMmsi.size;
  }

  /** Calls `listener` for every accepted position. Returns an unsubscribe function. */
  subscribe(listener: PositionListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
