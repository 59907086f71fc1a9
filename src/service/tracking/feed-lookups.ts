/**
 * The engine's questions to the feeds: the line's events, its import deadlines (LFD) and the
 * terminals' availability records, with outcomes counted and failures logged.
 */
import type { LineImportDeadlines } from '../../shared/feeds/line-deadlines';
import type { TerminalContainerStatus } from '../../shared/feeds/terminal';
import type { CarrierRegistry, DcsaQuery, TerminalClient } from '../feeds';
import type { TrackingRequestsTable } from '../store/schema';
import type { ApplyEnv } from './apply';
import type { EngineLogger } from './engine-context';

export class FeedLookups {
  /** Lookup outcomes by name (the engine's stats). */
  readonly outcomes: Record<string, number> = {};

  constructor(
    readonly carriers: CarrierRegistry,
    readonly terminals: Map<string, TerminalClient>,
    private readonly env: Pick<ApplyEnv, 'counters' | 'skipped'>,
    private readonly log: EngineLogger,
  ) {}

  /** The line's events for a number; events it skipped as unusable are told (once each). */
  async lineEvents(scac: string, query: DcsaQuery) {
    const result = await this.carriers.lookup(scac, query);
    if (result.outcome !== 'unsupported' && result.dropped.length > 0) {
      this.env.skipped(
        result.dropped.map((d) => ({
          kind: 'carrier' as const,
          source: scac,
          type: d.eventType,
          id: d.eventID,
          reason: d.reason,
        })),
      );
    }
    return result;
  }

  count(outcome: string): void {
    this.outcomes[outcome] = (this.outcomes[outcome] ?? 0) + 1;
  }

  /** The DCSA query for a request's number. */
  queryFor(r: Pick<TrackingRequestsTable, 'request_type' | 'request_number'>): DcsaQuery {
    const kind =
      r.request_type === 'container'
        ? 'equipmentReference'
        : r.request_type === 'booking_number'
          ? 'carrierBookingReference'
          : 'transportDocumentReference';
    return { kind, value: r.request_number };
  }

  /** The line's LFD per container (null: none published); boxes whose lookup failed are absent. */
  async deadlines(
    scac: string,
    numbers: string[],
  ): Promise<Map<string, LineImportDeadlines | null>> {
    const out = new Map<string, LineImportDeadlines | null>();
    for (const n of numbers) {
      const r = await this.carriers.importDeadlines(scac, n);
      if (r.outcome === 'found') out.set(n, r.deadlines);
      else if (r.outcome === 'not_found') out.set(n, null);
      else if (r.outcome !== 'unsupported') {
        this.count(`deadlines_${r.outcome}`);
        this.log.warn(
          { container: n, outcome: r.outcome, error: r.error },
          'line LFD lookup failed',
        );
      }
    }
    return out;
  }

  /** What the terminals know of the containers, asking each terminal for those still unknown. */
  async terminalStatus(numbers: string[]): Promise<Map<string, TerminalContainerStatus>> {
    const out = new Map<string, TerminalContainerStatus>();
    if (numbers.length === 0) return out;
    for (const [name, client] of this.terminals) {
      const missing = numbers.filter((n) => !out.has(n));
      if (missing.length === 0) break;
      const batch = await client.queryContainers(missing);
      for (const [n, status] of batch.found) out.set(n, status);
      if (batch.invalid.length) {
        this.env.counters.droppedEvents += batch.invalid.length;
        this.env.skipped(
          batch.invalid.map((i) => ({
            kind: 'terminal' as const,
            source: name,
            type: 'container',
            id: i.container_number,
            reason: i.reason,
          })),
        );
      }
      if (batch.failures.length) {
        this.log.warn({ terminal: name, failures: batch.failures }, 'terminal feed failed');
      }
    }
    return out;
  }
}
