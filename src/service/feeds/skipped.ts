/**
 * Records a feed skipped as unusable (an event without a readable time, a terminal answer for
 * a box that breaks the contract): each is told once, with its source, type, id and reason, to
 * the log (warn) and to the operator's view (`/metrics`, `/healthz`). A carrier sends the same
 * bad event on every look-up; it is told the first time only (the memory of what was told is
 * bounded, oldest forgotten first).
 */
import type { SourceKind } from './metrics';

export interface SkippedRecord {
  kind: SourceKind;
  /** The source's name: the carrier's SCAC, the terminal source's id. */
  source: string;
  /** What the record is: the eventType as sent, `container` for a terminal's record. */
  type: string | null;
  /** The record's own id as sent (eventID, container number), when it has one. */
  id: string | null;
  reason: string;
}

export interface SkippedRecordsOptions {
  warn(detail: Record<string, unknown>, message: string): void;
  /** Told about each record the first time it is skipped (metrics, health). */
  onSkipped?: ((record: SkippedRecord) => void) | undefined;
  /** How many skipped records are remembered as told. */
  max?: number;
}

export class SkippedRecords {
  private readonly told = new Set<string>();
  private readonly max: number;

  constructor(private readonly options: SkippedRecordsOptions) {
    this.max = options.max ?? 2000;
  }

  /** Tells the records not told before; returns how many were new. */
  report(records: readonly SkippedRecord[]): number {
    let fresh = 0;
    for (const r of records) {
      const key = JSON.stringify([r.kind, r.source, r.type, r.id, r.reason]);
      if (this.told.has(key)) continue;
      this.told.add(key);
      if (this.told.size > this.max) {
        const oldest = this.told.values().next().value;
        if (oldest !== undefined) this.told.delete(oldest);
      }
      fresh++;
      this.options.warn(
        { kind: r.kind, source: r.source, type: r.type, id: r.id, reason: r.reason },
        'feed record skipped as unusable',
      );
      this.options.onSkipped?.(r);
    }
    return fresh;
  }
}
