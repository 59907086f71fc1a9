/**
 * The tracking engine: turns tracking requests into shipments with containers and keeps them
 * current from the line (DCSA + import deadlines), the terminal and AIS.
 *
 * Tracking request lifecycle (the reference API's states and failed reasons):
 *
 *   pending --found--------------------------------------> created  (tracking_request.succeeded)
 *   pending --container number unknown at the line-------> failed/not_found (at once)
 *   pending --BL or booking unknown----------------------> awaiting_manifest (event the first
 *             time), re-checked daily, failed/not_found 7 days after the request was made
 *   pending --line unreachable / garbage answer----------> stays, is_retrying, retry_count + 1,
 *             backoff doubling so 14 retries span about a day; then failed/retries_exhausted
 *   pending --bad container number------------------------> failed/invalid_number
 *   pending --already tracked in the account--------------> failed/duplicate
 *   pending --the booking was cancelled--------------------> failed/booking_cancelled
 *   pending --the journey ended long ago (56 days)---------> failed/expired
 *   pending --no feed configured for the line-------------> failed/data_unavailable
 *   (a BL or booking the line knows but without containers yet counts as awaiting_manifest)
 *   created --shipment's line tracking stopped-------------> tracking_stopped (back to created
 *             on resume_tracking)
 *   Every failure records tracking_request.failed.
 *
 * Test numbers with SCAC `TEST`: TEST-TR-SUCCEEDED creates an (empty) shipment and succeeds,
 * TEST-TR-FAILED fails with not_found; neither is ever polled.
 *
 * Shipments stop being polled (line_tracking_stopped_reason) when: the line reports the
 * booking cancelled; every container's empty was returned; every container left the port or
 * ramp more than 28 days ago (past_full_out_window); 56 days passed since arrival at the POD
 * (past_arrival_window); the line's answer did not change for 56 days (no_updates_at_line); or
 * the user stopped it (cancelled_by_user, via the API).
 *
 * Scheduling: a Clock timer runs `tick` every `tickMs`; a tick picks due work (pending
 * requests, line checks every `lineIntervalMs`, terminal checks every `terminalIntervalMs` while
 * a box is near or at the POD) and hands it to a bounded queue that runs at most `concurrency`
 * jobs at once; work beyond `queueLimit` waits for a later tick. AIS is a stream: positions are
 * buffered per vessel and written on each tick. For carriers with push, a DCSA subscription per
 * shipment (subscriptions.ts) feeds pushed events through the same apply path, and the line is
 * polled only every `subscriptionQuietMs` while callbacks keep coming.
 */
import type { TrackingRequestFailedReason } from '../../shared/api/resources';
import type { Clock } from '../../shared/clock';
import type { LineImportDeadlines } from '../../shared/feeds/line-deadlines';
import type { TerminalContainerStatus } from '../../shared/feeds/terminal';
import { discardEvents, type EventSink } from '../events/event-sink';
import type { AisCounters } from '../feeds/ais/client';
import { AisSources } from '../feeds/ais/sources';
import {
  CarrierRegistry,
  terminalClients,
  type DcsaEvent,
  type DcsaQuery,
  type FeedConfig,
  type TerminalClient,
} from '../feeds';
import type { ServiceStorage } from '../store';
import type { ReferenceData } from '../store/reference';
import type { ShipmentsTable, TrackingRequestsTable } from '../store/schema';
import type { TrackingStore } from '../store/tracking-store';
import { isValidContainerNumber } from './infer-number';
import {
  applyContainer,
  applyShipmentFacts,
  emptyIssueCounters,
  interpretLine,
  type ApplyEnv,
  type ApplyScope,
  type LineView,
} from './apply';
import { PositionRecorder } from './positions';
import type { VesselStore } from '../store/vessels';
import { LineSubscriptionStore } from '../store/line-subscriptions';
import { LineSubscriptions, mergeEvents } from './subscriptions';

const HOUR = 3600_000;
const DAY = 24 * HOUR;

export const MAX_RETRIES = 14;
/** Doubling delays from this base add up to a day over MAX_RETRIES retries. */
export const RETRY_BASE_MS = Math.round(DAY / (2 ** MAX_RETRIES - 1));
export const AWAITING_RECHECK_MS = DAY;
export const AWAITING_LIMIT_MS = 7 * DAY;
export const ARRIVAL_WINDOW_MS = 56 * DAY;
export const NO_UPDATES_WINDOW_MS = 56 * DAY;
export const FULL_OUT_WINDOW_MS = 28 * DAY;
export const TEST_SCAC = 'TEST';
/** A carrier subscription silent this long no longer stands in for polling. */
export const SUBSCRIPTION_QUIET_MS = 12 * HOUR;

export interface EngineLogger {
  warn(detail: Record<string, unknown>, message: string): void;
  error(detail: Record<string, unknown>, message: string): void;
}

const silentLogger: EngineLogger = { warn: () => {}, error: () => {} };

export interface TrackingEngineOptions {
  /** The store's owners; the engine's changes and their events commit in its transactions. */
  stores: ServiceStorage;
  ref: ReferenceData;
  clock: Clock;
  feeds: FeedConfig;
  events?: EventSink;
  logger?: EngineLogger;
  /** Jobs (line or terminal checks) running at once. */
  concurrency?: number;
  /** Jobs waiting at most; more due work waits for a later tick. */
  queueLimit?: number;
  tickMs?: number;
  lineIntervalMs?: number;
  terminalIntervalMs?: number;
  /** Silence of a carrier subscription after which polling returns to `lineIntervalMs`. */
  subscriptionQuietMs?: number;
  /** The URL carriers reach this service at for subscription callbacks; null while unknown. */
  callbackBase?: () => string | null;
}

export interface EngineStats {
  queued: number;
  running: number;
  jobsRun: number;
  jobErrors: number;
  lookups: Record<string, number>;
  dataIssues: ReturnType<typeof emptyIssueCounters>;
  ais: AisCounters | null;
  positionsStored: number;
}

interface Job {
  key: string;
  run: () => Promise<void>;
}

export class TrackingEngine {
  private readonly tracking: TrackingStore;
  private readonly ref: ReferenceData;
  private readonly clock: Clock;
  private readonly carriers: CarrierRegistry;
  private readonly terminals: Map<string, TerminalClient>;
  private readonly env: ApplyEnv;
  private readonly log: EngineLogger;
  private readonly concurrency: number;
  private readonly queueLimit: number;
  private readonly tickMs: number;
  private readonly lineIntervalMs: number;
  private readonly terminalIntervalMs: number;
  private readonly ais: AisSources | null;
  private readonly positions: PositionRecorder;
  private readonly vessels: VesselStore;
  private readonly lineSubscriptionStore: LineSubscriptionStore;
  private readonly subscriptions: LineSubscriptions;
  private readonly queue: Job[] = [];
  private readonly queuedKeys = new Set<string>();
  private running = 0;
  private idleWaiters: (() => void)[] = [];
  private cancelTimer: (() => void) | null = null;
  private ticking: Promise<number> | null = null;
  private stopped = true;
  private knownVessels = new Set<string>();
  private readonly firmsBySmdg = new Map<string, string>();
  private readonly counters = { jobsRun: 0, jobErrors: 0, lookups: {} as Record<string, number> };

  constructor(options: TrackingEngineOptions) {
    this.tracking = options.stores.tracking;
    this.ref = options.ref;
    this.clock = options.clock;
    this.log = options.logger ?? silentLogger;
    this.carriers = new CarrierRegistry(options.feeds);
    this.terminals = terminalClients(options.feeds);
    this.concurrency = Math.max(1, options.concurrency ?? 4);
    this.queueLimit = Math.max(1, options.queueLimit ?? 200);
    this.tickMs = options.tickMs ?? 60_000;
    this.lineIntervalMs = options.lineIntervalMs ?? 4 * HOUR;
    this.terminalIntervalMs = options.terminalIntervalMs ?? HOUR;
    for (const t of this.ref.terminalsById.values()) {
      if (t.smdg_code) this.firmsBySmdg.set(t.smdg_code.toUpperCase(), t.firms_code);
    }
    this.env = {
      ref: this.ref,
      events: options.events ?? discardEvents,
      counters: emptyIssueCounters(),
      knownVessel: (imo) => this.knownVessels.has(imo),
      firmsForSmdg: (smdg) => this.firmsBySmdg.get(smdg.toUpperCase()) ?? null,
      warn: (detail, message) => this.log.warn(detail, message),
    };
    this.ais = options.feeds.ais?.length ? new AisSources(options.feeds.ais, options.clock) : null;
    this.vessels = options.stores.vessels;
    this.positions = new PositionRecorder(this.vessels, (imo) => this.knownVessels.has(imo));
    this.ais?.store.subscribe((position, vessel) => this.positions.offer(position, vessel));
    this.lineSubscriptionStore = options.stores.lineSubscriptions;
    this.subscriptions = new LineSubscriptions({
      registry: this.carriers,
      store: this.lineSubscriptionStore,
      clock: this.clock,
      callbackBase: options.callbackBase ?? (() => options.feeds.publicBaseUrl ?? null),
      quietMs: options.subscriptionQuietMs ?? SUBSCRIPTION_QUIET_MS,
      apply: (shipmentId, events) => this.applyPushedEvents(shipmentId, events),
      warn: (detail, message) => this.log.warn(detail, message),
    });
  }

  /** Starts the timer loop and the AIS stream. */
  async start(): Promise<void> {
    await this.loadVessels();
    await this.subscriptions.load();
    this.stopped = false;
    await this.ais?.start();
    this.schedule();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.cancelTimer?.();
    this.cancelTimer = null;
    await this.ais?.stop();
    await this.ticking;
    await this.whenIdle();
  }

  stats(): EngineStats {
    return {
      queued: this.queue.length,
      running: this.running,
      jobsRun: this.counters.jobsRun,
      jobErrors: this.counters.jobErrors,
      lookups: { ...this.counters.lookups },
      dataIssues: { ...this.env.counters },
      ais: this.ais?.stats() ?? null,
      positionsStored: this.positions.stored,
    };
  }

  /** The carrier subscriptions held, for the callback route. */
  lineSubscriptions(): LineSubscriptions {
    return this.subscriptions;
  }

  /** The AIS sources (null without any), e.g. for the route map's position history. */
  aisSources(): AisSources | null {
    return this.ais;
  }

  private schedule(): void {
    if (this.stopped) return;
    this.cancelTimer = this.clock.setTimer(this.tickMs, () => {
      this.cancelTimer = null;
      if (!this.ticking) void this.tick();
      this.schedule();
    });
  }

  private async loadVessels(): Promise<void> {
    this.knownVessels = await this.vessels.knownImos();
  }

  /** Resolves when no job is queued or running. */
  whenIdle(): Promise<void> {
    if (this.running === 0 && this.queue.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /**
   * Runs ticks until no due work is left (bounded). Tests call this after moving a ManualClock;
   * the timer loop calls `tick` on its own.
   */
  async drain(maxRounds = 25): Promise<void> {
    if (this.knownVessels.size === 0) await this.loadVessels();
    for (let i = 0; i < maxRounds; i++) {
      // A pass the timer started may have read an earlier time: let it finish, then pass anew.
      await this.ticking;
      const enqueued = await this.tick();
      await this.whenIdle();
      if (enqueued === 0) return;
    }
  }

  /** Schedules a pass now (new work arrived) instead of waiting for the next tick. */
  nudge(): void {
    if (!this.stopped) void this.tick();
  }

  /** One scheduling pass; returns how many jobs it queued. */
  tick(): Promise<number> {
    if (!this.ticking) {
      this.ticking = this.pickDueWork()
        .catch((err: unknown) => {
          this.log.error({ err }, 'tracking engine tick failed');
          return 0;
        })
        .finally(() => {
          this.ticking = null;
        });
    }
    return this.ticking;
  }

  private async pickDueWork(): Promise<number> {
    const nowIso = new Date(this.clock.now()).toISOString();
    await this.positions.flush();
    await this.syncStoppedRequests();
    await this.subscriptions.releaseStopped();
    let room = this.queueLimit - this.queue.length;
    let enqueued = 0;
    if (room <= 0) return 0;

    const requests = await this.tracking.dueTrackingRequests(nowIso, room);
    for (const r of requests) {
      if (this.enqueue(`request:${r.id}`, () => this.processRequest(r.id))) enqueued++;
    }
    room = this.queueLimit - this.queue.length;
    if (room <= 0) return enqueued;

    const lineDue = await this.tracking.lineChecksDue(nowIso, room, TEST_SCAC);
    for (const id of lineDue) {
      if (this.enqueue(`line:${id}`, () => this.refreshLine(id))) enqueued++;
    }
    room = this.queueLimit - this.queue.length;
    if (room <= 0 || this.terminals.size === 0) return enqueued;

    // Terminal checks while the box is due at, or at, the POD.
    const soon = new Date(this.clock.now() + DAY).toISOString();
    const terminalDue = await this.tracking.terminalChecksDue(nowIso, soon, room, TEST_SCAC);
    for (const id of terminalDue) {
      if (this.enqueue(`terminal:${id}`, () => this.refreshTerminal(id))) enqueued++;
    }
    return enqueued;
  }

  private enqueue(key: string, run: () => Promise<void>): boolean {
    if (this.queuedKeys.has(key) || this.queue.length >= this.queueLimit) return false;
    this.queuedKeys.add(key);
    this.queue.push({ key, run });
    this.pump();
    return true;
  }

  private pump(): void {
    while (this.running < this.concurrency && this.queue.length > 0) {
      const job = this.queue.shift()!;
      this.running++;
      void job
        .run()
        .catch((err: unknown) => {
          this.counters.jobErrors++;
          this.log.error({ err, job: job.key }, 'tracking job failed');
        })
        .finally(() => {
          this.counters.jobsRun++;
          this.running--;
          this.queuedKeys.delete(job.key);
          this.pump();
          if (this.running === 0 && this.queue.length === 0) {
            const waiters = this.idleWaiters;
            this.idleWaiters = [];
            for (const w of waiters) w();
          }
        });
    }
  }

  private count(outcome: string): void {
    this.counters.lookups[outcome] = (this.counters.lookups[outcome] ?? 0) + 1;
  }

  private nowIso(): string {
    return new Date(this.clock.now()).toISOString();
  }

  private scope<T>(fn: (scope: ApplyScope) => Promise<T>): Promise<T> {
    return this.tracking.transaction((store, trx) => fn({ trx, store, now: this.clock.now() }));
  }

  // --- tracking requests ----------------------------------------------------------------------

  private queryFor(r: Pick<TrackingRequestsTable, 'request_type' | 'request_number'>): DcsaQuery {
    const kind =
      r.request_type === 'container'
        ? 'equipmentReference'
        : r.request_type === 'booking_number'
          ? 'carrierBookingReference'
          : 'transportDocumentReference';
    return { kind, value: r.request_number };
  }

  private async processRequest(id: string): Promise<void> {
    const request = await this.tracking.trackingRequest(id);
    if (!request || (request.status !== 'pending' && request.status !== 'awaiting_manifest'))
      return;
    const number = request.request_number;

    if (request.scac === TEST_SCAC) {
      if (number === 'TEST-TR-SUCCEEDED') return this.succeedTestRequest(request);
      return this.failRequest(request, 'not_found');
    }
    if (
      !/^[A-Z0-9]{4,30}$/.test(number) ||
      (request.request_type === 'container' && !isValidContainerNumber(number))
    ) {
      return this.failRequest(request, 'invalid_number');
    }
    if (await this.isDuplicate(request)) return this.failRequest(request, 'duplicate');

    const result = await this.carriers.lookup(request.scac, this.queryFor(request));
    this.count(result.outcome);
    switch (result.outcome) {
      case 'unsupported':
        return this.failRequest(request, 'data_unavailable');
      case 'not_found':
        if (request.request_type === 'container') return this.failRequest(request, 'not_found');
        return this.awaitManifest(request);
      case 'found':
        break;
      default:
        this.log.warn(
          { request: request.id, scac: request.scac, outcome: result.outcome, error: result.error },
          'line lookup failed; will retry',
        );
        return this.retryRequest(
          request,
          result.outcome === 'unreachable' || result.outcome === 'server_error'
            ? 'shipping_line_unreachable'
            : 'unrecognized_response',
        );
    }

    const view = interpretLine(this.env, result.events, this.clock.now());
    if (view.cancelledAt) return this.failRequest(request, 'booking_cancelled');
    const numbers =
      request.request_type === 'container' ? [number] : view.containerNumbers.slice(0, 200);
    // The line knows the number but lists no containers yet: same as an unknown manifest.
    if (numbers.length === 0) return this.awaitManifest(request);
    if (this.journeyEndedLongAgo(view)) return this.failRequest(request, 'expired');

    const deadlines = await this.fetchDeadlines(request.scac, numbers);
    const terminal = await this.fetchTerminal(numbers);
    const billOfLading =
      request.request_type === 'bill_of_lading'
        ? number
        : (result.events
            .flatMap((e) => e.documentReferences ?? [])
            .find((d) => d.documentReferenceType === 'TRD')?.documentReferenceValue ?? number);

    const shipment = await this.scope(async (scope) => {
      const shipment = await scope.store.createShipment(request.account_id, {
        billOfLadingNumber: billOfLading,
        normalizedNumber: number,
        scac: request.scac,
        refNumbers: JSON.parse(request.ref_numbers) as string[],
        tags: JSON.parse(request.shipment_tags) as string[],
      });
      await scope.store.setShipmentSchedule(shipment.id, {
        next_line_check_at: new Date(scope.now + this.lineIntervalMs).toISOString(),
        line_changed_at: new Date(scope.now).toISOString(),
      });
      await applyShipmentFacts(this.env, scope, shipment, view, { announce: false });
      await this.applyContainers(scope, shipment.id, view, numbers, deadlines, terminal);
      await new LineSubscriptionStore(scope.trx).saveEventSnapshot(
        shipment.id,
        result.events,
        new Date(scope.now).toISOString(),
      );
      await this.finishRequest(scope, request, 'created', null, shipment.id);
      return shipment;
    });
    await this.subscriptions.ensure(shipment, this.queryFor(request));
  }

  private journeyEndedLongAgo(view: LineView): boolean {
    const last = view.raw.filter((e) => !e.estimated).map((e) => Date.parse(e.timestamp));
    if (last.length === 0) return false;
    const ended = view.raw.some(
      (e) => !e.estimated && e.event_code === 'GTIN' && e.empty_indicator === 'EMPTY',
    );
    return ended && this.clock.now() - Math.max(...last) > ARRIVAL_WINDOW_MS;
  }

  private isDuplicate(request: TrackingRequestsTable): Promise<boolean> {
    return this.tracking.isTrackedElsewhere(request);
  }

  private async succeedTestRequest(request: TrackingRequestsTable): Promise<void> {
    await this.scope(async (scope) => {
      const shipment = await scope.store.createShipment(request.account_id, {
        billOfLadingNumber: request.request_number,
        scac: request.scac,
        refNumbers: JSON.parse(request.ref_numbers) as string[],
        tags: JSON.parse(request.shipment_tags) as string[],
      });
      await this.finishRequest(scope, request, 'created', null, shipment.id);
    });
  }

  private async finishRequest(
    scope: ApplyScope,
    request: TrackingRequestsTable,
    status: 'created' | 'failed' | 'awaiting_manifest',
    failedReason: TrackingRequestFailedReason | null,
    shipmentId: string | null,
    nextAttemptAt: string | null = null,
    retryCount?: number,
  ): Promise<void> {
    await scope.store.finishTrackingRequest(request.id, {
      status,
      failedReason,
      shipmentId,
      nextAttemptAt,
      retryCount,
      updatedAt: new Date(scope.now).toISOString(),
    });
    const event =
      status === 'created'
        ? 'tracking_request.succeeded'
        : status === 'failed'
          ? 'tracking_request.failed'
          : request.status !== 'awaiting_manifest'
            ? 'tracking_request.awaiting_manifest'
            : null;
    if (event) {
      await this.env.events.record(scope.trx, {
        accountId: request.account_id,
        event,
        reference: { type: 'tracking_request', id: request.id },
        occurredAt: new Date(scope.now).toISOString(),
      });
    }
  }

  private failRequest(
    request: TrackingRequestsTable,
    reason: TrackingRequestFailedReason,
  ): Promise<void> {
    return this.scope((scope) => this.finishRequest(scope, request, 'failed', reason, null));
  }

  private awaitManifest(request: TrackingRequestsTable): Promise<void> {
    const now = this.clock.now();
    if (now - Date.parse(request.created_at) >= AWAITING_LIMIT_MS) {
      return this.failRequest(request, 'not_found');
    }
    const next = new Date(now + AWAITING_RECHECK_MS).toISOString();
    return this.scope((scope) =>
      this.finishRequest(scope, request, 'awaiting_manifest', null, null, next),
    );
  }

  private async retryRequest(
    request: TrackingRequestsTable,
    reason: TrackingRequestFailedReason,
  ): Promise<void> {
    const retries = (request.retry_count ?? 0) + 1;
    if (retries > MAX_RETRIES) {
      await this.scope((scope) =>
        this.finishRequest(scope, request, 'failed', 'retries_exhausted', null, null, MAX_RETRIES),
      );
      return;
    }
    const delay = RETRY_BASE_MS * 2 ** (retries - 1);
    await this.tracking.scheduleRetry(request.id, {
      retryCount: retries,
      reason,
      nextAttemptAt: new Date(this.clock.now() + delay).toISOString(),
    });
  }

  // --- shipments ------------------------------------------------------------------------------

  private async fetchDeadlines(
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

  private async fetchTerminal(numbers: string[]): Promise<Map<string, TerminalContainerStatus>> {
    const out = new Map<string, TerminalContainerStatus>();
    if (numbers.length === 0) return out;
    for (const [name, client] of this.terminals) {
      const missing = numbers.filter((n) => !out.has(n));
      if (missing.length === 0) break;
      const batch = await client.queryContainers(missing);
      for (const [n, status] of batch.found) out.set(n, status);
      if (batch.invalid.length || batch.failures.length) {
        this.env.counters.droppedEvents += batch.invalid.length;
        this.log.warn(
          { terminal: name, invalid: batch.invalid.slice(0, 3), failures: batch.failures },
          'terminal feed answered with bad data',
        );
      }
    }
    return out;
  }

  private async applyContainers(
    scope: ApplyScope,
    shipmentId: string,
    view: LineView | null,
    numbers: string[],
    deadlines: Map<string, LineImportDeadlines | null>,
    terminal: Map<string, TerminalContainerStatus> | null,
  ): Promise<void> {
    const shipment = await scope.store.shipment(shipmentId);
    if (!shipment) throw new Error(`shipment ${shipmentId} vanished`);
    const existing = await scope.store.containersOfShipment(shipmentId);
    const byNumber = new Map(existing.map((c) => [c.number, c]));
    const inlandMove =
      view !== null && view.route.destination !== null && view.route.destination !== view.route.pod;
    for (const number of numbers) {
      let container = byNumber.get(number);
      let created = false;
      if (!container) {
        container = await scope.store.createContainer(shipment.account_id, shipment.id, { number });
        created = true;
        await this.env.events.record(scope.trx, {
          accountId: shipment.account_id,
          event: 'container.created',
          reference: { type: 'container', id: container.id },
          occurredAt: new Date(scope.now).toISOString(),
        });
      }
      await applyContainer(this.env, scope, shipment, container, {
        line: view ? { raw: view.raw, route: view.route, inlandMove } : undefined,
        ...(deadlines.has(number) ? { deadlines: deadlines.get(number) ?? null } : {}),
        terminal: terminal?.get(number) ?? null,
        created,
      });
    }
  }

  private trackingRequestOf(shipmentId: string): Promise<TrackingRequestsTable | undefined> {
    return this.tracking.trackingRequestOfShipment(shipmentId);
  }

  private async refreshLine(shipmentId: string): Promise<void> {
    const shipment = await this.loadActiveShipment(shipmentId);
    if (!shipment) return;
    const request = await this.trackingRequestOf(shipmentId);
    const query: DcsaQuery = request
      ? this.queryFor(request)
      : { kind: 'transportDocumentReference', value: shipment.normalized_number };
    const result = await this.carriers.lookup(shipment.scac, query);
    this.count(result.outcome);
    const nowIso = this.nowIso();
    const nextCheck = () =>
      new Date(
        this.clock.now() + this.subscriptions.pollDelay(shipmentId, this.lineIntervalMs),
      ).toISOString();
    if (result.outcome !== 'found') {
      if (result.outcome !== 'not_found')
        this.log.warn({ shipment: shipmentId, outcome: result.outcome }, 'line refresh failed');
      await this.scope(async (scope) => {
        await scope.store.setShipmentSchedule(shipmentId, {
          line_tracking_last_attempted_at: nowIso,
          next_line_check_at: nextCheck(),
        });
        await this.applyStopRules(scope, shipmentId);
      });
      return;
    }
    const view = interpretLine(this.env, result.events, this.clock.now());
    const deadlines = await this.fetchDeadlines(
      shipment.scac,
      await this.openContainerNumbers(shipmentId, view),
    );
    const applied = await this.scope((scope) =>
      this.applyLineEvents(scope, shipmentId, result.events, view, deadlines, nextCheck()),
    );
    if (applied) await this.subscriptions.ensure(shipment, query);
  }

  /**
   * Events a carrier pushed for a subscribed shipment: merged into the events of its last lookup
   * and applied exactly as a poll's answer (without the import deadlines, which only a poll
   * asks for). Before any lookup there is nothing to merge into, so the line is asked instead.
   */
  async applyPushedEvents(shipmentId: string, pushed: DcsaEvent[]): Promise<void> {
    if (!(await this.loadActiveShipment(shipmentId))) return;
    const known = (await this.lineSubscriptionStore.eventSnapshot(shipmentId)) as
      DcsaEvent[] | null;
    if (!known) {
      this.enqueue(`line:${shipmentId}`, () => this.refreshLine(shipmentId));
      return;
    }
    await this.scope(async (scope) => {
      // Read again inside the transaction: a poll may have stored a newer answer meanwhile.
      const current = ((await new LineSubscriptionStore(scope.trx).eventSnapshot(shipmentId)) ??
        known) as DcsaEvent[];
      const events = mergeEvents(current, pushed);
      const view = interpretLine(this.env, events, scope.now);
      const nextCheck = new Date(
        scope.now + this.subscriptions.pollDelay(shipmentId, this.lineIntervalMs),
      ).toISOString();
      await this.applyLineEvents(scope, shipmentId, events, view, new Map(), nextCheck);
    });
  }

  /** Container numbers of the shipment and the line's answer whose empty is not back yet. */
  private async openContainerNumbers(shipmentId: string, view: LineView): Promise<string[]> {
    const containers = await this.tracking.containersOfShipment(shipmentId);
    const numbers = [...new Set([...containers.map((c) => c.number), ...view.containerNumbers])];
    return numbers.filter((n) => !containers.find((c) => c.number === n && c.empty_terminated_at));
  }

  /** Applies the line's events to a shipment still tracked; false when it was stopped. */
  private async applyLineEvents(
    scope: ApplyScope,
    shipmentId: string,
    events: readonly DcsaEvent[],
    view: LineView,
    deadlines: Map<string, LineImportDeadlines | null>,
    nextCheck: string,
  ): Promise<boolean> {
    const current = await scope.store.shipment(shipmentId);
    if (!current) throw new Error(`shipment ${shipmentId} vanished`);
    if (current.line_tracking_stopped_at) return false;
    const containers = await scope.store.containersOfShipment(shipmentId);
    const numbers = [...new Set([...containers.map((c) => c.number), ...view.containerNumbers])];
    await applyShipmentFacts(this.env, scope, current, view, { announce: true });
    await this.applyContainers(scope, shipmentId, view, numbers, deadlines, null);
    await new LineSubscriptionStore(scope.trx).saveEventSnapshot(
      shipmentId,
      events,
      new Date(scope.now).toISOString(),
    );
    await scope.store.setShipmentSchedule(shipmentId, { next_line_check_at: nextCheck });
    await this.applyStopRules(scope, shipmentId);
    return true;
  }

  private async refreshTerminal(shipmentId: string): Promise<void> {
    const shipment = await this.loadActiveShipment(shipmentId);
    if (!shipment) return;
    const containers = await this.tracking.containersOfShipment(shipmentId);
    const open = containers
      .filter((c) => c.current_status !== 'empty_returned' && c.current_status !== 'delivered')
      .map((c) => c.number);
    const terminal = await this.fetchTerminal(open);
    await this.scope(async (scope) => {
      if (terminal.size > 0)
        await this.applyContainers(
          scope,
          shipmentId,
          null,
          [...terminal.keys()],
          new Map(),
          terminal,
        );
      await scope.store.setShipmentSchedule(shipmentId, {
        next_terminal_check_at: new Date(scope.now + this.terminalIntervalMs).toISOString(),
      });
      await this.applyStopRules(scope, shipmentId);
    });
  }

  private async loadActiveShipment(id: string): Promise<ShipmentsTable | undefined> {
    const s = await this.tracking.shipment(id);
    return s && !s.line_tracking_stopped_at ? s : undefined;
  }

  /** Stops line tracking when a stop rule holds (see the header comment). */
  private async applyStopRules(scope: ApplyScope, shipmentId: string): Promise<void> {
    const s = await scope.store.shipment(shipmentId);
    if (!s) throw new Error(`shipment ${shipmentId} vanished`);
    if (s.line_tracking_stopped_at) return;
    const containers = await scope.store.containersOfShipment(shipmentId);
    const now = scope.now;
    const olderThan = (t: string | null | undefined, ms: number) =>
      t != null && now - Date.parse(t) > ms;
    let reason:
      | 'booking_cancelled'
      | 'all_containers_terminated'
      | 'past_full_out_window'
      | 'past_arrival_window'
      | 'no_updates_at_line'
      | null = null;
    if (s.cancelled_at) reason = 'booking_cancelled';
    else if (containers.length > 0 && containers.every((c) => c.empty_terminated_at))
      reason = 'all_containers_terminated';
    else if (
      containers.length > 0 &&
      containers.every((c) =>
        olderThan(c.final_destination_full_out_at ?? c.pod_full_out_at, FULL_OUT_WINDOW_MS),
      )
    )
      reason = 'past_full_out_window';
    else if (olderThan(s.pod_ata_at, ARRIVAL_WINDOW_MS)) reason = 'past_arrival_window';
    else if (olderThan(s.line_changed_at ?? s.created_at, NO_UPDATES_WINDOW_MS))
      reason = 'no_updates_at_line';
    if (!reason) return;
    const nowIso = new Date(now).toISOString();
    await scope.store.stopLineTracking(shipmentId, reason, nowIso);
  }

  /**
   * Keeps request status in step with stop_tracking / resume_tracking done through the API:
   * a stopped shipment's requests are `tracking_stopped`, a resumed one's are `created` again
   * and the shipment is checked at once.
   */
  private async syncStoppedRequests(): Promise<void> {
    await this.tracking.syncStoppedRequests(this.nowIso());
  }
}
