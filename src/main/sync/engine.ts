/**
 * The sync engine: fills the cache from a /v2 service.
 *
 * - First run: a full walk of shipments and containers (with shipment, terminal and event
 *   includes to save requests); records the server no longer lists are removed.
 * - Later runs: `filter[updated_at][start]` from the last cursor where the service supports it
 *   (detected by resources carrying `updated_at`); a full walk still runs every 6 hours to
 *   notice deletions.
 * - Services without `updated_at` (Terminal49-compatible ones), later runs: active work first
 *   (`shipments?filter[tracking_stopped]=false&include=containers`, content hashes decide what
 *   changed), new tracking requests (`filter[updated_at]`, which that list does offer), and a
 *   slice of the finished history, so the whole account is read once a day (strategy/history.ts;
 *   cadences in src/shared/sync-cadence.ts).
 * - Transport events only for containers that changed (a flag set in the same transaction as
 *   the container, so a crash never loses the need to fetch them).
 * - Custom fields: the definitions (with enum options) once per run, and each shipment's and
 *   container's values with the record itself (`include=custom_fields` on the pages already
 *   fetched); a record's values are replaced as a set, so a value removed on the service goes.
 *   A service without custom fields (404/403/400 on the definitions) is asked again after a day.
 * - Map data for containers at sea at most hourly, once more when the journey completes, then
 *   never again; a 403 (no routing entitlement) is remembered and the map is not asked again.
 *
 * Every page is committed in its own transaction and cursors move only after a complete walk, so
 * a run killed at any point resumes and converges without duplicates.
 *
 * This file schedules runs and reports their status; each step lives in its own file:
 * records.ts (the walks), active-first.ts, custom-fields.ts, events.ts, maps.ts, and
 * run-state.ts (what the steps share, the run's preparation and its commit). Documents and
 * truckers are further steps the app adds (documents.ts, truckers.ts via `extraSteps`).
 */
import { sameBesideProgress } from '../../shared/sync-status';
import type { SyncStatus } from '../../shared/bridge';
import { isoString } from '../../shared/clock';
import type { RouteMapRecord } from '../cache/interface';
import { V2Client, V2Error, type V2ClientOptions } from './client';
import type { SkippedRecord } from './validate';
import type { RequestBudget } from '../connection/request-budget';
import { ServiceBudgets, type ServiceConnection } from '../connection/service-connection';
import {
  commitRun,
  PHASES,
  prepareRun,
  STATE,
  type SyncContext,
  type SyncStepOptions,
  type WalkResult,
} from './run-state';
import { startWalk, walkCollection } from './records';
import { readNewTrackingRequests, walkActive, walkHistorySlice } from './active-first';
import { namesUnknownDefinition, syncCustomFieldDefinitions } from './custom-fields';
import { refreshStaleEvents } from './events';
import { refreshMaps, routeMap } from './maps';

export { STATE } from './run-state';

/** A configured service that is not there: why, and whether it is being started again. */
export interface ServiceUnavailable {
  message: string;
  reconnecting: boolean;
  /** Wall-clock time since when it has been down; null: it is still starting for the first time. */
  since: number | null;
}

/** How one scheduled run ended. */
export type SyncOutcome = { ok: true; result: SyncResult } | { ok: false; error: unknown };

/** The engine's options: the steps' own (run-state.ts) and how runs reach the service. */
export interface SyncEngineOptions extends SyncStepOptions {
  /** Where to sync from; null when not configured or not available. */
  connection: () => ServiceConnection | null;
  /**
   * Why there is no connection when one is configured but not available (the embedded service
   * is down and restarting); null or absent: none is configured.
   */
  unavailable?: () => ServiceUnavailable | null;
  onStatus?: (status: SyncStatus) => void;
  client?: Pick<V2ClientOptions, 'timeoutMs' | 'maxAttempts' | 'budget' | 'random'>;
  /** The per-service request budgets, shared with the app's other calls to the service. */
  budgets?: ServiceBudgets;
  pageSize?: number;
  /** Further steps of a run (e.g. documents), after the board's data, with the run's client. */
  extraSteps?: readonly ((client: V2Client, budget: RequestBudget | null) => Promise<void>)[];
}

export interface SyncResult {
  shipments: number;
  containers: number;
  events: number;
  requests: number;
  changedShipments: number;
  changedContainers: number;
  newAlerts: number;
  skipped: SkippedRecord[];
  mode: 'full' | 'incremental' | 'active-first';
}

/** Shown in the sync area while a request waits for the service's request budget. */
export const BUDGET_WAIT_MESSAGE = 'Waiting for the request budget (under 100 requests a minute).';

export class SyncEngine {
  private running: Promise<SyncResult> | null = null;
  private queued: Promise<SyncResult> | null = null;
  private current: SyncStatus;
  private cancelTimer: (() => void) | null = null;
  private readonly budgets: ServiceBudgets;
  /** What each step of a run is handed. */
  private readonly ctx: SyncContext;
  /** Wall-clock time since when the service has not answered; null while it answers. */
  private offlineSince: number | null = null;

  constructor(private readonly options: SyncEngineOptions) {
    this.ctx = {
      options,
      pageSize: options.pageSize ?? 100,
      setStatus: (status) => this.setStatus(status),
    };
    this.budgets = options.budgets ?? new ServiceBudgets(options.clock);
    this.current = {
      state: 'idle',
      progress: null,
      message: null,
      lastSuccessAt: options.cache.getState<string>(STATE.lastSuccessAt),
      offlineSince: null,
    };
  }

  status(): SyncStatus {
    return this.current;
  }

  private setStatus(status: Partial<SyncStatus>): void {
    // The first progress of a run that is reconnecting means the service answers again.
    const answered = this.current.state === 'reconnecting' && status.progress != null;
    this.current = { ...this.current, ...(answered ? { state: 'syncing' } : {}), ...status };
    if (this.reported && sameToThePercent(this.reported, this.current)) return;
    this.reported = this.current;
    this.options.onStatus?.(this.current);
  }

  /** The status last reported: progress is reported to the whole percent (see setStatus). */
  private reported: SyncStatus | undefined;

  /**
   * The service is down (e.g. the embedded one crashed and is restarting): says so at once,
   * without waiting for the next run to fail. The cached board is untouched.
   */
  reportUnavailable(unavailable: ServiceUnavailable): void {
    if (unavailable.since === null && this.offlineSince === null) {
      // Still starting: nothing has failed yet.
      this.setStatus({ state: 'syncing', progress: null, message: unavailable.message });
      return;
    }
    this.offlineSince ??= unavailable.since ?? Date.now();
    this.setStatus({
      state: unavailable.reconnecting ? 'reconnecting' : 'offline',
      progress: null,
      message: unavailable.message,
      offlineSince: isoString(this.offlineSince),
    });
  }

  /**
   * Runs one sync. Runs never overlap: a call during a run gets one follow-up run (shared by
   * every caller that asked meanwhile), which starts when the current one ends.
   */
  sync(): Promise<SyncResult> {
    if (!this.running) {
      this.running = this.run().finally(() => {
        this.running = null;
      });
      return this.running;
    }
    if (!this.queued) {
      this.queued = this.running
        .catch(() => undefined)
        .then(() => {
          this.queued = null;
          return this.sync();
        });
    }
    return this.queued;
  }

  /**
   * Syncs every `intervalMs` on the clock until `stop`: at once, or after one interval with
   * `firstRunNow: false`. `onRun` hears each run's result or failure.
   */
  start(
    intervalMs: number,
    options: { firstRunNow?: boolean; onRun?: (outcome: SyncOutcome) => void } = {},
  ): void {
    this.stop();
    const loop = () => {
      this.sync()
        .then(
          (result) => options.onRun?.({ ok: true, result }),
          (error: unknown) => options.onRun?.({ ok: false, error }),
        )
        .finally(() => {
          if (this.cancelTimer) this.cancelTimer = this.options.clock.setTimer(intervalMs, loop);
        });
    };
    if (options.firstRunNow === false) {
      this.cancelTimer = this.options.clock.setTimer(intervalMs, loop);
      return;
    }
    this.cancelTimer = () => undefined;
    loop();
  }

  /** A client for one run or call, drawing on the service's one budget. */
  private clientFor(connection: ServiceConnection): V2Client {
    const budget = this.budgets.for(connection);
    return new V2Client({
      ...connection,
      clock: this.options.clock,
      ...(budget ? { budget } : {}),
      onBudgetWait: (waiting) => {
        if (this.current.state !== 'syncing') return;
        this.setStatus({ message: waiting ? BUDGET_WAIT_MESSAGE : null });
      },
      ...this.options.client,
    });
  }

  /** Resolves once no run is in progress or queued (whatever their outcome). */
  async settled(): Promise<void> {
    while (this.running || this.queued) {
      await (this.queued ?? this.running)!.catch(() => undefined);
    }
  }

  stop(): void {
    const cancel = this.cancelTimer;
    this.cancelTimer = null;
    cancel?.();
  }

  private async run(): Promise<SyncResult> {
    const connection = this.options.connection();
    if (!connection) {
      const unavailable = this.options.unavailable?.();
      if (unavailable) {
        this.reportUnavailable(unavailable);
        throw new V2Error('unreachable', unavailable.message);
      }
      this.setStatus({ state: 'error', progress: null, message: 'No service is configured.' });
      throw new V2Error('http', 'No service is configured.');
    }
    // After an outage the run is first of all an attempt to reach the service again.
    this.setStatus(
      this.offlineSince === null
        ? { state: 'syncing', progress: 0, message: null }
        : {
            state: 'reconnecting',
            progress: null,
            // The last failure stays in view until the service answers.
            message: this.current.message ?? 'Trying the tracking service again.',
          },
    );
    try {
      const result = await this.runWith(connection);
      this.offlineSince = null;
      this.setStatus({
        state: 'idle',
        progress: null,
        message: result.skipped.length
          ? `${result.skipped.length} record(s) from the service were malformed and skipped.`
          : null,
        lastSuccessAt: this.options.cache.getState<string>(STATE.lastSuccessAt),
        offlineSince: null,
      });
      return result;
    } catch (error) {
      if (error instanceof V2Error) {
        const offline = error.kind === 'unreachable' || error.kind === 'timeout';
        if (offline) this.offlineSince ??= Date.now();
        else this.offlineSince = null;
        this.setStatus({
          state: offline ? 'offline' : 'error',
          progress: null,
          message: error.message,
          offlineSince: offline ? isoString(this.offlineSince!) : null,
        });
      } else {
        const detail = error instanceof Error ? error.message : String(error);
        this.setStatus({
          state: 'error',
          progress: null,
          message: `Sync stopped: the local cache could not be updated (${detail}).`,
        });
      }
      throw error;
    }
  }

  /** One run, in named steps: prepare, walk shipments, walk containers, events, maps, commit. */
  private async runWith(connection: ServiceConnection): Promise<SyncResult> {
    const run = prepareRun(this.ctx, this.clientFor(connection));
    const { cache } = this.options;
    let walks: WalkResult[] = [];
    try {
      await syncCustomFieldDefinitions(this.ctx, run);
      if (run.activeFirst) {
        await walkActive(this.ctx, run);
        await readNewTrackingRequests(this.ctx, run);
        await walkHistorySlice(this.ctx, run);
      } else {
        const shipments = startWalk(this.ctx, run, 'shipments');
        const containers = startWalk(this.ctx, run, 'containers');
        walks = [
          await walkCollection(this.ctx, run, shipments, PHASES.shipments),
          await walkCollection(this.ctx, run, containers, PHASES.containers),
        ];
      }
      if (!run.definitionsRead && namesUnknownDefinition(this.ctx, run)) {
        await syncCustomFieldDefinitions(this.ctx, run, { force: true });
      }
      await refreshStaleEvents(this.ctx, run);
      await refreshMaps(this.ctx, run.client);
      for (const step of this.options.extraSteps ?? []) {
        await step(run.client, this.budgets.for(connection));
      }
      commitRun(this.ctx, run, walks);
    } finally {
      // What the run wrote reaches the database file off this thread, not in a later commit.
      cache.requestCheckpoint();
    }
    return {
      ...cache.counts(),
      requests: run.client.requests,
      changedShipments: run.changedShipments,
      changedContainers: run.changedContainers,
      newAlerts: run.newAlerts,
      skipped: [...run.skipped],
      mode: run.activeFirst ? 'active-first' : run.incremental ? 'incremental' : 'full',
    };
  }

  /**
   * A container's route map for the detail view: from the cache when it is fresh (or final),
   * else fetched now (maps.ts). Null when the account has no routing entitlement or nothing is known.
   */
  async routeMap(containerId: string): Promise<RouteMapRecord | null> {
    const connection = this.options.connection();
    return routeMap(this.ctx, containerId, connection && (() => this.clientFor(connection)));
  }

  /** Forget a refused routing entitlement (e.g. after the API key changed). */
  resetRoutingEntitlement(): void {
    this.options.cache.deleteState(STATE.routingRefused);
  }
}

/**
 * Whether two statuses differ by less than a whole percent of progress and nothing else. A run
 * moves its progress once per container's events and once per map: reported to every window each
 * time, a thousand containers made a thousand reports (and each window asked for its clock and
 * its worklist again after each), where a bar shows no more than a hundred steps.
 */
function sameToThePercent(a: SyncStatus, b: SyncStatus): boolean {
  const percent = (p: number | null) => (p === null ? null : Math.floor(p * 100));
  return sameBesideProgress(a, b) && percent(a.progress) === percent(b.progress);
}
