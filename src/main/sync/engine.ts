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
 */
import type { SyncStatus } from '../../shared/bridge';
import { isoString, type Clock } from '../../shared/clock';
import type { AlertCenter } from '../alerts/alert-center';
import type { CachePage, CacheStore, RouteMapRecord } from '../cache/interface';
import type {
  CachedContainer,
  CachedEvent,
  CachedShipment,
  CachedTerminal,
} from '../../shared/cached-resources';
import { V2Client, V2Error, type CollectionPage, type V2ClientOptions } from './client';
import {
  checkRecords,
  collectionEnvelope,
  typeOf,
  type SkippedRecord,
  type TypeMap,
} from './validate';
import { historyPagesThisRun } from './strategy/history';
import type { RequestBudget } from './request-budget';
import { nextTurn } from '../core/turns';
import type {
  CustomFieldDefinitionRecord,
  CustomFieldValueRecord,
  CustomFieldValueSet,
} from '../cache/custom-fields';
import { ServiceBudgets, type ServiceConnection } from '../core/service-connection';

/** What one run carries from step to step. */
interface RunState {
  client: V2Client;
  startedAt: number;
  incremental: boolean;
  /** Active-first runs for services without `updated_at` (after their first full walk). */
  activeFirst: boolean;
  /** Shipments read this run (a new tracking request's shipment may already be among them). */
  seenShipments: Set<string>;
  /** Where the tracking-request cursor moves when the run completes. */
  trackingCursor: string | null;
  /** The history walk's next page and page count when the run completes. */
  history: { nextPage: number; totalPages: number | null } | null;
  /** Every record skipped so far this run (for the result). */
  skipped: SkippedRecord[];
  /** Skipped records not yet reported to `onSkipped`. */
  pending: SkippedRecord[];
  /** Records already reported this run (type + id), so a record seen on many pages counts once. */
  reported: Set<string>;
  changedShipments: number;
  changedContainers: number;
  newAlerts: number;
  /** Whether every record so far carried `updated_at` (null: none seen yet). */
  sawUpdatedAt: boolean | null;
  /** Whether the service serves custom fields (decided by the definitions step). */
  customFields: boolean;
  /** Whether this run read the definitions (not taken from a recent run). */
  definitionsRead: boolean;
  /** Definitions the synced values name, to notice one defined since the last read. */
  definitionIdsSeen: Set<string>;
}

/** Where one collection's walk got to: its cursor and the newest `updated_at` seen. */
interface WalkResult {
  cursorKey: string;
  maxUpdated: number | null;
}

/** A collection walk whose first request is under way. */
interface CollectionWalk {
  kind: 'shipments' | 'containers';
  cursorKey: string;
  /** From a cursor: only what changed since, so nothing missing from it is removed. */
  incremental: boolean;
  pages: AsyncIterable<CollectionPage>;
}

/** A configured service that is not there: why, and whether it is being started again. */
export interface ServiceUnavailable {
  message: string;
  reconnecting: boolean;
  /** Wall-clock time since when it has been down; null: it is still starting for the first time. */
  since: number | null;
}

/** How one scheduled run ended. */
export type SyncOutcome = { ok: true; result: SyncResult } | { ok: false; error: unknown };

export interface SyncEngineOptions {
  cache: CacheStore;
  clock: Clock;
  /** Where to sync from; null when not configured or not available. */
  connection: () => ServiceConnection | null;
  /**
   * Why there is no connection when one is configured but not available (the embedded service
   * is down and restarting); null or absent: none is configured.
   */
  unavailable?: () => ServiceUnavailable | null;
  alerts?: AlertCenter;
  onStatus?: (status: SyncStatus) => void;
  /** Records the service sent that do not fit the schema (skipped, the run goes on). */
  onSkipped?: (record: SkippedRecord) => void;
  client?: Pick<V2ClientOptions, 'timeoutMs' | 'maxAttempts' | 'budget' | 'random'>;
  /** The per-service request budgets, shared with the app's other calls to the service. */
  budgets?: ServiceBudgets;
  pageSize?: number;
  mapRefreshMs?: number;
  /** How often a full walk runs in incremental mode, to notice records removed on the server. */
  fullWalkEveryMs?: number;
  /** How often (real time) custom field definitions are read again; 10 minutes by default. */
  customFieldDefinitionsEveryMs?: number;
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

export const STATE = {
  baseUrl: 'base_url',
  updatedAtFilter: 'updated_at_filter',
  shipmentsCursor: 'shipments_cursor',
  containersCursor: 'containers_cursor',
  lastSuccessAt: 'last_success_at',
  lastFullWalkAt: 'last_full_walk_at',
  routingRefused: 'routing_refused',
  trackingCursor: 'tracking_requests_cursor',
  historyNextPage: 'history_next_page',
  historyTotalPages: 'history_total_pages',
  lastRunAt: 'last_run_at',
  customFieldsAbsentAt: 'custom_fields_absent_at',
  customFieldDefinitionsReadAt: 'custom_field_definitions_read_at',
} as const;

/**
 * Definitions change when someone defines a field, rarely: read at most this often (real time),
 * or at once when a synced value names one the cache does not have.
 */
const DEFINITIONS_REFRESH_MS = 10 * 60_000;

/** Shown in the sync area while a request waits for the service's request budget. */
export const BUDGET_WAIT_MESSAGE = 'Waiting for the request budget (under 100 requests a minute).';

const HOUR = 3_600_000;

/** A custom field's api_slug as the board keys its column (the service's own rule). */
const API_SLUG_RE = /^[a-z][a-z0-9_]{0,62}$/;

/** The ids of the skipped records of one type. */
const idsOf = (skipped: readonly SkippedRecord[], type: string): Set<string> =>
  new Set(skipped.flatMap((s) => (s.type === type && s.id !== null ? [s.id] : [])));

/** Records validated between two yields to the event loop. */
const CHECK_SLICE = 100;
/** Containers (with their events) written per transaction. */
const WRITE_SLICE = 10;

function sliced<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

const PHASES = {
  shipments: [0, 0.2],
  containers: [0.2, 0.75],
  events: [0.75, 0.95],
  maps: [0.95, 1],
} as const;

export class SyncEngine {
  private running: Promise<SyncResult> | null = null;
  private queued: Promise<SyncResult> | null = null;
  private current: SyncStatus;
  private cancelTimer: (() => void) | null = null;
  private readonly pageSize: number;
  private readonly budgets: ServiceBudgets;
  /** Wall-clock time since when the service has not answered; null while it answers. */
  private offlineSince: number | null = null;

  constructor(private readonly options: SyncEngineOptions) {
    this.pageSize = options.pageSize ?? 100;
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
    this.options.onStatus?.(this.current);
  }

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
    const run = this.prepareRun(this.clientFor(connection));
    const { cache } = this.options;
    let walks: WalkResult[] = [];
    try {
      await this.syncCustomFieldDefinitions(run);
      if (run.activeFirst) {
        await this.walkActive(run);
        await this.readNewTrackingRequests(run);
        await this.walkHistorySlice(run);
      } else {
        const shipments = this.startWalk(run, 'shipments');
        const containers = this.startWalk(run, 'containers');
        walks = [
          await this.walkCollection(run, shipments, PHASES.shipments),
          await this.walkCollection(run, containers, PHASES.containers),
        ];
      }
      if (!run.definitionsRead && this.namesUnknownDefinition(run)) {
        await this.syncCustomFieldDefinitions(run, { force: true });
      }
      await this.refreshStaleEvents(run);
      await this.refreshMaps(run.client);
      for (const step of this.options.extraSteps ?? []) {
        await step(run.client, this.budgets.for(connection));
      }
      this.commitRun(run, walks);
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

  /** Shipments still tracked, with their containers: every run (services without updated_at). */
  private async walkActive(run: RunState): Promise<void> {
    const path = `shipments?filter[tracking_stopped]=false&include=containers&page[size]=${this.pageSize}`;
    let done = 0;
    for await (const page of run.client.pages(path)) {
      await this.readAndWrite(run, page);
      done += page.data.length;
      const fraction = page.total ? Math.min(1, done / page.total) : 0.5;
      this.setStatus({ progress: PHASES.containers[1] * fraction });
    }
  }

  /** Checks one page of shipments (with included containers) and writes it. */
  private async readAndWrite(
    run: RunState,
    page: { data: unknown[]; included: unknown[] },
  ): Promise<void> {
    const { primary, slices } = await this.readPage(run, 'shipments', page);
    for (const s of primary.shipments) run.seenShipments.add(s.id);
    await this.writeSlices(run, slices, isoString(this.options.clock.now()));
  }

  /**
   * Tracking requests changed since the last run (the one list such services filter by
   * `updated_at`): a shipment not read this run is fetched with its containers.
   */
  private async readNewTrackingRequests(run: RunState): Promise<void> {
    const { cache } = this.options;
    const cursor =
      cache.getState<string>(STATE.trackingCursor) ?? cache.getState<string>(STATE.lastFullWalkAt);
    const filter = cursor ? `&filter[updated_at][start]=${encodeURIComponent(cursor)}` : '';
    let newest = cursor ? Date.parse(cursor) : NaN;
    const wanted = new Set<string>();
    for await (const page of run.client.pages(
      `tracking_requests?page[size]=${this.pageSize}${filter}`,
    )) {
      for (const request of checkRecords('tracking_request', page.data, run.pending)) {
        const updated = Date.parse(request.attributes.updated_at ?? '');
        if (!Number.isNaN(updated) && !(updated <= newest)) newest = updated;
        const shipmentId = request.relationships?.tracked_object?.data?.id;
        if (shipmentId && !run.seenShipments.has(shipmentId)) wanted.add(shipmentId);
      }
      this.reportSkipped(run);
    }
    for (const id of wanted) {
      const response = await run.client.get(
        `shipments/${encodeURIComponent(id)}?include=containers`,
        { accept: [404] },
      );
      if (response.status === 404) continue;
      const body = response.body as { data?: unknown; included?: unknown } | null;
      await this.readAndWrite(run, {
        data: body?.data ? [body.data] : [],
        included: Array.isArray(body?.included) ? body.included : [],
      });
    }
    // Just past the newest stamp: the filter is inclusive.
    run.trackingCursor = Number.isNaN(newest) ? cursor : isoString(newest + 1);
  }

  /** This run's share of the slow walk through finished shipments (a day per round). */
  private async walkHistorySlice(run: RunState): Promise<void> {
    const { cache } = this.options;
    let nextPage = cache.getState<number>(STATE.historyNextPage) ?? 1;
    let totalPages = cache.getState<number>(STATE.historyTotalPages);
    const lastRun = cache.getState<string>(STATE.lastRunAt);
    const due = historyPagesThisRun(
      totalPages,
      lastRun ? run.startedAt - Date.parse(lastRun) : null,
    );
    for (let n = 0; n < due; n++) {
      const { body } = await run.client.get(
        `shipments?filter[tracking_stopped]=true&include=containers&page[size]=${this.pageSize}&page[number]=${nextPage}`,
      );
      const page = collectionEnvelope(body);
      if (!page) {
        throw new V2Error(
          'bad_response',
          'The service answered with something that is not a /v2 list.',
        );
      }
      await this.readAndWrite(run, page);
      if (page.total !== null) totalPages = Math.max(1, Math.ceil(page.total / this.pageSize));
      // Round again from the first page once the last one is read.
      nextPage = page.next ? nextPage + 1 : 1;
      if (nextPage === 1) break;
    }
    run.history = { nextPage, totalPages };
  }

  /** Starts over for another service, delivers alerts a stopped run left, picks the mode. */
  private prepareRun(client: V2Client): RunState {
    const { cache, clock, alerts } = this.options;
    const startedAt = clock.now();
    // Another service means other data: start over.
    if (cache.getState<string>(STATE.baseUrl) !== client.base.toString()) {
      for (const key of Object.values(STATE)) cache.deleteState(key);
      cache.setState(STATE.baseUrl, client.base.toString());
    }
    alerts?.deliverPending();
    const filterSupported = cache.getState<boolean>(STATE.updatedAtFilter);
    const lastFull = cache.getState<string>(STATE.lastFullWalkAt);
    const fullWalkDue =
      !lastFull || startedAt - Date.parse(lastFull) >= (this.options.fullWalkEveryMs ?? 6 * HOUR);
    return {
      client,
      startedAt,
      incremental: filterSupported === true && !fullWalkDue,
      // Without updated_at a full walk costs hours of budget: after the first one, active work
      // is read every run and the history in slices.
      activeFirst: filterSupported === false && lastFull !== null,
      seenShipments: new Set(),
      trackingCursor: null,
      history: null,
      skipped: [],
      pending: [],
      reported: new Set(),
      changedShipments: 0,
      changedContainers: 0,
      newAlerts: 0,
      sawUpdatedAt: null,
      customFields: false,
      definitionsRead: false,
      definitionIdsSeen: new Set(),
    };
  }

  /**
   * Hands the records skipped since the last call to the caller, keeping them for the result.
   * Each record is reported once per run, however many pages carry it (an included shipment
   * comes with every page of its containers).
   */
  private reportSkipped(run: RunState): void {
    for (const s of run.pending.splice(0)) {
      // Records without an id cannot be told apart: each one counts.
      if (s.id !== null) {
        const key = `${s.type}\n${s.id}`;
        if (run.reported.has(key)) continue;
        run.reported.add(key);
      }
      run.skipped.push(s);
      this.options.onSkipped?.(s);
    }
  }

  /**
   * Sends the first request of a collection's walk (from its cursor when incremental) at once;
   * the pages are read by walkCollection. The containers walk is started together with the
   * shipments walk, so the service prepares its first page while the shipments are written.
   */
  private startWalk(run: RunState, kind: 'shipments' | 'containers'): CollectionWalk {
    const cursorKey = kind === 'shipments' ? STATE.shipmentsCursor : STATE.containersCursor;
    const cursor = run.incremental ? this.options.cache.getState<string>(cursorKey) : null;
    const includes = kind === 'containers' ? ['shipment', 'pod_terminal', 'transport_events'] : [];
    if (run.customFields) includes.push('custom_fields');
    const include = includes.length ? `&include=${includes.join(',')}` : '';
    const filter = cursor ? `&filter[updated_at][start]=${encodeURIComponent(cursor)}` : '';
    const path = `${kind}?page[size]=${this.pageSize}${include}${filter}`;
    return { kind, cursorKey, incremental: cursor !== null, pages: run.client.startPages(path) };
  }

  /** Reads every page of a started walk into the cache. */
  private async walkCollection(
    run: RunState,
    { kind, cursorKey, incremental, pages }: CollectionWalk,
    phase: readonly [number, number],
  ): Promise<WalkResult> {
    const { cache } = this.options;
    const seen = new Set<string>();
    let maxUpdated: number | null = null;
    let done = 0;
    for await (const page of pages) {
      const now = isoString(this.options.clock.now());
      for (const raw of page.data) {
        const id = (raw as { id?: unknown })?.id;
        // A malformed record is skipped, but its cached copy is kept rather than deleted.
        if (typeof id === 'string') seen.add(id);
      }
      const { primary, slices } = await this.readPage(run, kind, page);
      const records = kind === 'shipments' ? primary.shipments : (primary.containers ?? []);
      for (const r of records) {
        if (kind === 'shipments' && !seen.has(r.id)) continue;
        const updated = r.attributes.updated_at ? Date.parse(r.attributes.updated_at) : NaN;
        if (run.sawUpdatedAt === null) run.sawUpdatedAt = !Number.isNaN(updated);
        else if (Number.isNaN(updated)) run.sawUpdatedAt = false;
        if (!Number.isNaN(updated) && (maxUpdated === null || updated > maxUpdated)) {
          maxUpdated = updated;
        }
      }
      await this.writeSlices(run, slices, now);
      done += page.data.length;
      const fraction = page.total ? Math.min(1, done / page.total) : 0.5;
      this.setStatus({ progress: phase[0] + (phase[1] - phase[0]) * fraction });
    }
    if (!incremental) cache.deleteMissing(kind, seen);
    return { cursorKey, maxUpdated };
  }

  /** Checks one page's records and included resources and cuts them into write slices. */
  private async readPage(
    run: RunState,
    kind: 'shipments' | 'containers',
    page: { data: unknown[]; included: unknown[] },
  ): Promise<{ primary: CachePage & { shipments: CachedShipment[] }; slices: CachePage[] }> {
    const shipments: CachedShipment[] = [];
    const terminals: CachedTerminal[] = [];
    const includedContainers: CachedContainer[] = [];
    const eventsByContainer = new Map<string, CachedEvent[]>();
    const includedEvents = new Map<string, CachedEvent>();
    const includedValues = new Map<string, CustomFieldValueRecord>();
    // Included records are checked like primary ones, and a bad one is reported by its id.
    for (const [i, inc] of page.included.entries()) {
      if (i > 0 && i % CHECK_SLICE === 0) await nextTurn();
      const type = typeOf(inc);
      if (type === 'shipment') shipments.push(...checkRecords('shipment', [inc], run.pending));
      else if (type === 'container') {
        includedContainers.push(...checkRecords('container', [inc], run.pending));
      } else if (type === 'terminal' || type === 'rail_terminal') {
        terminals.push(...checkRecords(type, [inc], run.pending));
      } else if (type === 'transport_event') {
        for (const e of checkRecords('transport_event', [inc], run.pending)) {
          includedEvents.set(e.id, e);
        }
      } else if (type === 'port') checkRecords('port', [inc], run.pending);
      else if (type === 'custom_field') {
        for (const v of checkRecords('custom_field', [inc], run.pending)) {
          const value = this.customFieldValue(run, v);
          if (value) includedValues.set(v.id, value);
        }
      }
    }
    const checked: (CachedShipment | CachedContainer)[] = [];
    for (let i = 0; i < page.data.length; i += CHECK_SLICE) {
      await nextTurn();
      const slice = page.data.slice(i, i + CHECK_SLICE);
      checked.push(
        ...(kind === 'shipments'
          ? checkRecords('shipment', slice, run.pending)
          : checkRecords('container', slice, run.pending)),
      );
    }
    // Each primary record's values, when the page holds them all; the relationship itself is
    // not stored with the record (the values live in their own table).
    const valueSets: CustomFieldValueSet[] = [];
    for (const record of checked) {
      const ids = takeCustomFieldIds(record);
      if (!ids) continue;
      const values = ids.map((id) => includedValues.get(id));
      if (values.every((v): v is CustomFieldValueRecord => v !== undefined)) {
        valueSets.push({
          entityType: kind === 'shipments' ? 'shipment' : 'container',
          entityId: record.id,
          values,
        });
      }
    }
    const setsOf = (ids: ReadonlySet<string>) => valueSets.filter((v) => ids.has(v.entityId));
    const primary =
      kind === 'shipments'
        ? {
            shipments: [...shipments, ...(checked as CachedShipment[])],
            containers: includedContainers,
          }
        : { shipments, containers: checked as CachedContainer[] };
    this.reportSkipped(run);
    for (const c of primary.containers ?? []) {
      // Included events are used only when the page holds the container's whole history.
      const ids = c.relationships?.transport_events?.data?.map((d) => d.id);
      if (!ids) continue;
      const events = ids.map((id) => includedEvents.get(id));
      if (events.every((e): e is CachedEvent => e !== undefined)) {
        eventsByContainer.set(c.id, events);
      }
    }
    // Written in short transactions (shipments and terminals first, then a few containers
    // each) with the event loop free in between, so the UI stays responsive during a full
    // sync. Each slice is atomic; cursors move only after the whole walk, so a run stopped
    // between slices converges on the next one.
    const slices: CachePage[] = [
      {
        shipments: primary.shipments,
        terminals,
        customFieldValues: setsOf(new Set(primary.shipments.map((s) => s.id))),
      },
      ...sliced(primary.containers ?? [], WRITE_SLICE).map((containers) => ({
        containers,
        customFieldValues: setsOf(new Set(containers.map((c) => c.id))),
        events: new Map(
          containers.flatMap((c) => {
            const events = eventsByContainer.get(c.id);
            return events ? [[c.id, events] as const] : [];
          }),
        ),
      })),
    ];
    return { primary, slices };
  }

  /** A checked value as the cache stores it, or null (reported) when its slug is unusable. */
  private customFieldValue(
    run: RunState,
    v: TypeMap['custom_field'],
  ): CustomFieldValueRecord | null {
    if (!API_SLUG_RE.test(v.attributes.api_slug)) {
      run.pending.push({ type: 'custom_field', id: v.id, reason: '/attributes/api_slug unusable' });
      return null;
    }
    const definition = v.relationships?.definition?.data;
    if (definition && typeof definition.id === 'string') run.definitionIdsSeen.add(definition.id);
    return {
      id: v.id,
      apiSlug: v.attributes.api_slug,
      definitionId: definition && typeof definition.id === 'string' ? definition.id : null,
      dataType: v.attributes.data_type ?? null,
      value: v.attributes.value,
      displayValue: v.attributes.display_value ?? null,
    };
  }

  /**
   * The account's custom field definitions (and the options of enum ones), once per run. The
   * cached list is replaced only by a complete one; a service without custom fields is
   * remembered for a day so its walks are not asked to include them.
   */
  private async syncCustomFieldDefinitions(
    run: RunState,
    { force = false }: { force?: boolean } = {},
  ): Promise<void> {
    const { cache } = this.options;
    const absentAt = cache.getState<string>(STATE.customFieldsAbsentAt);
    if (absentAt && run.startedAt - Date.parse(absentAt) < 24 * HOUR) return;
    const readAt = cache.getState<number>(STATE.customFieldDefinitionsReadAt);
    const every = this.options.customFieldDefinitionsEveryMs ?? DEFINITIONS_REFRESH_MS;
    if (!force && readAt !== null && Date.now() - readAt < every) {
      run.customFields = true;
      return;
    }
    run.definitionsRead = true;
    const skippedBefore = run.pending.length;
    const definitions: CustomFieldDefinitionRecord[] = [];
    try {
      for await (const page of run.client.pages(
        `custom_field_definitions?page[size]=${this.pageSize}`,
      )) {
        for (const d of checkRecords('custom_field_definition', page.data, run.pending)) {
          const a = d.attributes;
          if (!API_SLUG_RE.test(a.api_slug)) {
            run.pending.push({
              type: 'custom_field_definition',
              id: d.id,
              reason: '/attributes/api_slug unusable',
            });
            continue;
          }
          definitions.push({
            id: d.id,
            entityType: a.entity_type,
            apiSlug: a.api_slug,
            displayName: a.display_name,
            dataType: a.data_type,
            options: [],
            json: d,
          });
        }
      }
    } catch (error) {
      const absent =
        error instanceof V2Error &&
        (error.kind === 'not_found' ||
          error.kind === 'forbidden' ||
          (error.kind === 'http' && error.status === 400));
      if (!absent) throw error;
      cache.setState(STATE.customFieldsAbsentAt, isoString(run.startedAt));
      return;
    }
    cache.deleteState(STATE.customFieldsAbsentAt);
    run.customFields = true;
    for (const d of definitions) {
      if (!d.dataType.startsWith('enum')) continue;
      try {
        for await (const page of run.client.pages(
          `custom_field_definitions/${encodeURIComponent(d.id)}/options?page[size]=${this.pageSize}`,
        )) {
          for (const o of checkRecords('custom_field_option', page.data, run.pending)) {
            d.options.push({ value: o.attributes.value, label: o.attributes.label });
          }
        }
      } catch (error) {
        // Removed since the list was read: the next run's list will not have it either.
        if (!(error instanceof V2Error && error.kind === 'not_found')) throw error;
      }
    }
    // Each definition stands alone: a skipped one keeps its cached copy, the others are stored.
    const skippedIds = idsOf(run.pending.slice(skippedBefore), 'custom_field_definition');
    const listed = new Set(definitions.map((d) => d.id));
    const kept = cache
      .customFieldDefinitions()
      .filter((d) => skippedIds.has(d.id) && !listed.has(d.id));
    const complete = run.pending.length === skippedBefore;
    this.reportSkipped(run);
    cache.replaceCustomFieldDefinitions([...definitions, ...kept]);
    // An incomplete list is read again on the next run rather than after the usual interval.
    if (complete) cache.setState(STATE.customFieldDefinitionsReadAt, Date.now());
  }

  /** Whether a value synced this run names a definition the cache does not have. */
  private namesUnknownDefinition(run: RunState): boolean {
    if (run.definitionIdsSeen.size === 0) return false;
    const known = new Set(this.options.cache.customFieldDefinitions().map((d) => d.id));
    return [...run.definitionIdsSeen].some((id) => !known.has(id));
  }

  /** Writes the slices; each write stores its alerts, which are then notified once. */
  private async writeSlices(run: RunState, slices: CachePage[], now: string): Promise<void> {
    const { cache, alerts } = this.options;
    for (const slice of slices) {
      await nextTurn();
      const outcome = cache.applyPage(slice, now, alerts?.detect);
      run.changedShipments += outcome.shipmentsChanged;
      run.changedContainers += outcome.containersChanged;
      run.newAlerts += outcome.alerts.length;
      alerts?.deliver(outcome.alerts);
    }
  }

  /** Events of changed containers that the container pages did not carry in full. */
  private async refreshStaleEvents(run: RunState): Promise<void> {
    const { cache } = this.options;
    const stale = cache.staleEventContainers();
    for (const [i, id] of stale.entries()) {
      const events: CachedEvent[] = [];
      const skippedBefore = run.pending.length;
      try {
        for await (const page of run.client.pages(
          `containers/${encodeURIComponent(id)}/transport_events?page[size]=${this.pageSize}`,
        )) {
          events.push(...checkRecords('transport_event', page.data, run.pending));
        }
      } catch (error) {
        if (error instanceof V2Error && error.kind === 'not_found') {
          // Gone from the service since the walk.
          cache.deleteContainer(id);
          continue;
        }
        throw error;
      }
      // Each event stands alone: the usable ones are stored, an unusable one keeps its cached
      // copy (if any), and the container stays marked so the next run asks again.
      const skippedIds = idsOf(run.pending.slice(skippedBefore), 'transport_event');
      const kept = skippedIds.size
        ? cache.board
            .eventsOf(id)
            .filter((e) => skippedIds.has(e.id) && !events.some((n) => n.id === e.id))
        : [];
      const complete = run.pending.length === skippedBefore;
      this.reportSkipped(run);
      cache.replaceEvents(id, [...events, ...kept], { complete });
      this.setStatus({
        progress:
          PHASES.events[0] + ((PHASES.events[1] - PHASES.events[0]) * (i + 1)) / stale.length,
      });
    }
  }

  /**
   * Moves the cursors (only now that both walks are complete), in one transaction with the rest
   * of the run's state, and checks deadlines.
   */
  private commitRun(run: RunState, walks: readonly WalkResult[]): void {
    const { cache, alerts } = this.options;
    const state: Record<string, unknown> = {};
    if (run.sawUpdatedAt !== null) state[STATE.updatedAtFilter] = run.sawUpdatedAt;
    for (const { cursorKey, maxUpdated } of walks) {
      if (maxUpdated !== null && run.sawUpdatedAt) {
        // Just past the newest stamp seen: the filter is inclusive, and a batch written in one
        // instant would otherwise be read again on every run. A write committed late with a
        // stamp at or before one already seen is caught by the periodic full walk.
        state[cursorKey] = isoString(maxUpdated + 1);
      }
    }
    if (!run.incremental && !run.activeFirst) {
      state[STATE.lastFullWalkAt] = isoString(run.startedAt);
    }
    if (run.trackingCursor) state[STATE.trackingCursor] = run.trackingCursor;
    if (run.history) {
      state[STATE.historyNextPage] = run.history.nextPage;
      if (run.history.totalPages !== null) {
        state[STATE.historyTotalPages] = run.history.totalPages;
      }
    }
    state[STATE.lastRunAt] = isoString(run.startedAt);
    // "Last synced" is read by people: real time, even while the app runs on simulated time.
    state[STATE.lastSuccessAt] = isoString(Date.now());
    cache.setStates(state);
    run.newAlerts += alerts?.checkDeadlines().length ?? 0;
  }

  private async refreshMaps(client: V2Client): Promise<void> {
    const { cache, clock } = this.options;
    if (cache.getState<string>(STATE.routingRefused)) return;
    const refreshMs = this.options.mapRefreshMs ?? HOUR;
    const now = clock.now();
    const staleBefore = isoString(now - refreshMs);
    for (let after: number | null = 0; after !== null;) {
      const scan = cache.dueRouteMaps(staleBefore, after);
      const from = after;
      const to = scan.next ?? scan.last;
      for (const [i, c] of scan.due.entries()) {
        const outcome = await this.fetchMap(client, c.id, c.arrived);
        if (outcome === 'refused') return;
        const position = from + ((to - from) * (i + 1)) / scan.due.length;
        this.setStatus({ progress: this.mapProgress(position, scan.last) });
      }
      after = scan.next;
      this.setStatus({ progress: this.mapProgress(to, scan.last) });
      await nextTurn();
    }
  }

  private mapProgress(position: number, last: number): number {
    const [start, end] = PHASES.maps;
    return start + ((end - start) * Math.min(position, last)) / Math.max(1, last);
  }

  private async fetchMap(
    client: V2Client,
    containerId: string,
    completed: boolean,
  ): Promise<'stored' | 'refused' | 'missing'> {
    const { cache, clock } = this.options;
    const existing = cache.getRouteMap(containerId);
    const response = await client.get(`containers/${encodeURIComponent(containerId)}/map_geojson`, {
      headers: existing?.etag ? { 'If-None-Match': existing.etag } : {},
      accept: [304, 403, 404],
    });
    const now = isoString(clock.now());
    if (response.status === 403) {
      cache.setState(STATE.routingRefused, now);
      return 'refused';
    }
    if (response.status === 404) return 'missing';
    if (response.status === 304 && existing) {
      cache.touchRouteMap(containerId, now, completed);
      return 'stored';
    }
    const body = response.body as { type?: unknown; features?: unknown } | null;
    if (!body || body.type !== 'FeatureCollection' || !Array.isArray(body.features)) {
      this.options.onSkipped?.({
        type: 'map_geojson',
        id: containerId,
        reason: 'not a GeoJSON FeatureCollection',
      });
      return 'missing';
    }
    cache.putRouteMap({
      containerId,
      geojson: JSON.stringify(body),
      fetchedAt: now,
      etag: response.headers.get('etag'),
      completed,
    });
    return 'stored';
  }

  /**
   * A container's route map for the detail view: from the cache when it is fresh (or final),
   * else fetched now. Null when the account has no routing entitlement or nothing is known.
   */
  async routeMap(containerId: string): Promise<RouteMapRecord | null> {
    const { cache, clock } = this.options;
    const existing = cache.getRouteMap(containerId);
    const fresh =
      existing &&
      (existing.completed ||
        clock.now() - Date.parse(existing.fetchedAt) < (this.options.mapRefreshMs ?? HOUR));
    const connection = this.options.connection();
    if (fresh || !connection || cache.getState<string>(STATE.routingRefused)) return existing;
    const arrived = cache.containerArrived(containerId);
    const client = this.clientFor(connection);
    try {
      await this.fetchMap(client, containerId, arrived);
    } catch (error) {
      if (!(error instanceof V2Error)) throw error;
      // Offline: the cached map (if any) is the best there is.
    }
    return cache.getRouteMap(containerId);
  }

  /** Forget a refused routing entitlement (e.g. after the API key changed). */
  resetRoutingEntitlement(): void {
    this.options.cache.deleteState(STATE.routingRefused);
  }
}

/**
 * Takes the `custom_fields` relationship off a checked record (its values are stored apart) and
 * returns the value ids it lists; null when the record did not carry it.
 */
function takeCustomFieldIds(record: { relationships?: unknown }): string[] | null {
  const relationships = record.relationships as Record<string, unknown> | null | undefined;
  if (!relationships || !('custom_fields' in relationships)) return null;
  const { custom_fields: customFields, ...rest } = relationships;
  record.relationships = rest;
  const data = (customFields as { data?: unknown } | null)?.data;
  if (!Array.isArray(data)) return null;
  const ids = data.map((d) => (d as { id?: unknown } | null)?.id);
  return ids.every((id): id is string => typeof id === 'string') ? ids : null;
}
