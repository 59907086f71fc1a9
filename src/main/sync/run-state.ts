/**
 * What every step of a sync run shares: the options the steps read, the run's state carried from
 * step to step, the keys of the sync state kept in the cache, and the run's first and last steps
 * (prepare: pick the mode; commit: move the cursors). The steps themselves live beside this file
 * (records.ts, active-first.ts, custom-fields.ts, events.ts, maps.ts); engine.ts schedules runs
 * and calls them in order.
 */
import type { SyncStatus } from '../../shared/bridge';
import { isoString, type Clock } from '../../shared/clock';
import type { AlertCenter } from '../alerts/alert-center';
import type { CacheStore } from '../cache/interface';
import type { V2Client } from './client';
import type { SkippedRecord } from './validate';

/** The engine's options the steps read. */
export interface SyncStepOptions {
  cache: CacheStore;
  clock: Clock;
  alerts?: AlertCenter;
  /** Records the service sent that do not fit the schema (skipped, the run goes on). */
  onSkipped?: (record: SkippedRecord) => void;
  mapRefreshMs?: number;
  /** How often a full walk runs in incremental mode, to notice records removed on the server. */
  fullWalkEveryMs?: number;
  /** How often (real time) custom field definitions are read again; 10 minutes by default. */
  customFieldDefinitionsEveryMs?: number;
}

/** What the engine hands each step: its options, the page size, and the status it shows. */
export interface SyncContext {
  readonly options: SyncStepOptions;
  readonly pageSize: number;
  setStatus(status: Partial<SyncStatus>): void;
}

/** What one run carries from step to step. */
export interface RunState {
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
export interface WalkResult {
  cursorKey: string;
  maxUpdated: number | null;
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

export const HOUR = 3_600_000;

/** The ids of the skipped records of one type. */
export const idsOf = (skipped: readonly SkippedRecord[], type: string): Set<string> =>
  new Set(skipped.flatMap((s) => (s.type === type && s.id !== null ? [s.id] : [])));

/** Where each step's progress falls in the run's 0..1. */
export const PHASES = {
  shipments: [0, 0.2],
  containers: [0.2, 0.75],
  events: [0.75, 0.95],
  maps: [0.95, 1],
} as const;

/** Starts over for another service, delivers alerts a stopped run left, picks the mode. */
export function prepareRun(ctx: SyncContext, client: V2Client): RunState {
  const { cache, clock, alerts } = ctx.options;
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
    !lastFull || startedAt - Date.parse(lastFull) >= (ctx.options.fullWalkEveryMs ?? 6 * HOUR);
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
export function reportSkipped(ctx: SyncContext, run: RunState): void {
  for (const s of run.pending.splice(0)) {
    // Records without an id cannot be told apart: each one counts.
    if (s.id !== null) {
      const key = `${s.type}\n${s.id}`;
      if (run.reported.has(key)) continue;
      run.reported.add(key);
    }
    run.skipped.push(s);
    ctx.options.onSkipped?.(s);
  }
}

/**
 * Moves the cursors (only now that both walks are complete), in one transaction with the rest
 * of the run's state, and checks deadlines.
 */
export function commitRun(ctx: SyncContext, run: RunState, walks: readonly WalkResult[]): void {
  const { cache, alerts } = ctx.options;
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
