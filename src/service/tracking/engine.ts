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
 *
 * This file is the scheduler; the parts it drives: job-queue.ts (the bounded queue),
 * request-lifecycle.ts (requests), refreshers.ts (line and terminal checks, stop rules),
 * feed-lookups.ts (questions to the feeds), subscriptions.ts (carrier push), apply.ts (answers
 * into rows and events), windows.ts (the time rules).
 */
import type { Clock } from '../../shared/clock';
import { discardEvents, type EventSink } from '../events/event-sink';
import type { AisCounters } from '../feeds/ais/client';
import { AisSources } from '../feeds/ais/sources';
import { SkippedRecords, type SkippedRecord } from '../feeds/skipped';
import { CarrierRegistry, terminalClients, type FeedConfig } from '../feeds';
import type { ServiceStorage } from '../store';
import type { ReferenceData } from '../store/reference';
import type { TrackingStore } from '../store/tracking-store';
import type { VesselStore } from '../store/vessels';
import type { WorkLeases } from '../store/work-leases';
import { emptyIssueCounters, type ApplyEnv, type ApplyScope } from './apply';
import { silentLogger, type EngineContext, type EngineLogger } from './engine-context';
import { FeedLookups } from './feed-lookups';
import { JobQueue } from './job-queue';
import { PositionRecorder } from './positions';
import { ShipmentRefreshers } from './refreshers';
import { RequestLifecycle } from './request-lifecycle';
import { LineSubscriptions } from './subscriptions';
import { DAY, HOUR, SUBSCRIPTION_QUIET_MS, TEST_SCAC } from './windows';

export type { EngineLogger } from './engine-context';
export {
  ARRIVAL_WINDOW_MS,
  AWAITING_LIMIT_MS,
  AWAITING_RECHECK_MS,
  FULL_OUT_WINDOW_MS,
  MAX_RETRIES,
  NO_UPDATES_WINDOW_MS,
  RETRY_BASE_MS,
  SUBSCRIPTION_QUIET_MS,
  TEST_SCAC,
} from './windows';

export interface TrackingEngineOptions {
  /** The store's owners; the engine's changes and their events commit in its transactions. */
  stores: ServiceStorage;
  ref: ReferenceData;
  clock: Clock;
  feeds: FeedConfig;
  events?: EventSink;
  logger?: EngineLogger;
  /** Told about each feed record skipped as unusable, once (the service's metrics). */
  onSkipped?: (record: SkippedRecord) => void;
  /** Jobs (line or terminal checks) running at once. */
  concurrency?: number;
  /** Jobs waiting at most; more due work waits for a later tick. */
  queueLimit?: number;
  tickMs?: number;
  /**
   * Real milliseconds a job's lease lasts (several instances on PostgreSQL): a killed
   * instance's jobs are taken over after this. Longer than any lookup takes.
   */
  leaseMs?: number;
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

/** Two minutes: lookups end well before (feed timeouts are seconds). */
export const DEFAULT_LEASE_MS = 120_000;

/** An AIS source's lease (real time), renewed three times within it. */
const AIS_LEASE_MS = 30_000;
const AIS_LEASE_RENEW_MS = 10_000;

export class TrackingEngine {
  private readonly stores: ServiceStorage;
  private readonly tracking: TrackingStore;
  private readonly clock: Clock;
  private readonly env: ApplyEnv;
  private readonly log: EngineLogger;
  private readonly tickMs: number;
  private readonly feeds: FeedLookups;
  private readonly jobs: JobQueue;
  private readonly requests: RequestLifecycle;
  private readonly refreshers: ShipmentRefreshers;
  private readonly subscriptions: LineSubscriptions;
  private readonly ais: AisSources | null;
  private readonly positions: PositionRecorder;
  private readonly vessels: VesselStore;
  private readonly leases: WorkLeases;
  private readonly leaseMs: number;
  private cancelTimer: (() => void) | null = null;
  private stopAisLeases: (() => Promise<void>) | undefined;
  private ticking: Promise<number> | null = null;
  private stopped = true;
  private knownVessels = new Set<string>();
  private readonly firmsBySmdg = new Map<string, string>();

  constructor(options: TrackingEngineOptions) {
    this.stores = options.stores;
    this.tracking = options.stores.tracking;
    this.leases = options.stores.leases;
    this.leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
    this.clock = options.clock;
    this.log = options.logger ?? silentLogger;
    this.tickMs = options.tickMs ?? 60_000;
    for (const t of options.ref.terminalsById.values()) {
      if (t.smdg_code) this.firmsBySmdg.set(t.smdg_code.toUpperCase(), t.firms_code);
    }
    const skipped = new SkippedRecords({
      warn: (detail, message) => this.log.warn(detail, message),
      onSkipped: options.onSkipped,
    });
    this.env = {
      ref: options.ref,
      skipped: (records) => skipped.report(records),
      events: options.events ?? discardEvents,
      counters: emptyIssueCounters(),
      knownVessel: (imo) => this.knownVessels.has(imo),
      firmsForSmdg: (smdg) => this.firmsBySmdg.get(smdg.toUpperCase()) ?? null,
      warn: (detail, message) => this.log.warn(detail, message),
    };
    this.feeds = new FeedLookups(
      new CarrierRegistry(options.feeds),
      terminalClients(options.feeds),
      this.env,
      this.log,
    );
    this.jobs = new JobQueue({
      concurrency: Math.max(1, options.concurrency ?? 4),
      limit: Math.max(1, options.queueLimit ?? 200),
      onError: (err, key) => this.log.error({ err, job: key }, 'tracking job failed'),
    });
    this.subscriptions = new LineSubscriptions({
      registry: this.feeds.carriers,
      store: options.stores.lineSubscriptions,
      clock: this.clock,
      callbackBase: options.callbackBase ?? (() => options.feeds.publicBaseUrl ?? null),
      quietMs: options.subscriptionQuietMs ?? SUBSCRIPTION_QUIET_MS,
      apply: (shipmentId, events) => this.refreshers.applyPushedEvents(shipmentId, events),
      warn: (detail, message) => this.log.warn(detail, message),
    });
    const context: EngineContext = {
      tracking: this.tracking,
      env: this.env,
      clock: this.clock,
      log: this.log,
      feeds: this.feeds,
      subscriptions: this.subscriptions,
      lineSubscriptions: options.stores.lineSubscriptions,
      checkLineSoon: (shipmentId) => {
        this.jobs.enqueue(`line:${shipmentId}`, () => this.refreshers.refreshLine(shipmentId));
      },
      lineIntervalMs: options.lineIntervalMs ?? 4 * HOUR,
      terminalIntervalMs: options.terminalIntervalMs ?? HOUR,
      scope: (fn) => this.scope(fn),
    };
    this.refreshers = new ShipmentRefreshers(context);
    this.requests = new RequestLifecycle(context, this.refreshers);
    this.ais = options.feeds.ais?.length ? new AisSources(options.feeds.ais, options.clock) : null;
    this.vessels = options.stores.vessels;
    this.positions = new PositionRecorder(this.vessels, (imo) => this.knownVessels.has(imo));
    this.ais?.store.subscribe((position, vessel) => this.positions.offer(position, vessel));
  }

  /** Starts the timer loop and the AIS stream. */
  async start(): Promise<void> {
    await this.loadVessels();
    await this.subscriptions.load();
    this.stopped = false;
    if (this.ais && this.leases.shared) await this.shareAisSources(this.ais);
    else await this.ais?.start();
    this.schedule();
  }

  /**
   * With several instances on one database, each AIS source is listened to by one of them: the
   * holder of its lease, renewed every AIS_LEASE_RENEW_MS of real time; a killed holder's
   * sources are taken over once its leases expire.
   */
  private async shareAisSources(ais: AisSources): Promise<void> {
    const keys = ais.labels().map((label) => `ais:${label}`);
    const round = async () => {
      try {
        const owned = await this.leases.claim(keys, AIS_LEASE_MS);
        await ais.runOnly(new Set(owned.map((k) => k.slice('ais:'.length))));
      } catch (err) {
        this.log.warn({ err }, 'AIS source leases could not be renewed');
      }
    };
    await round();
    const timer = setInterval(() => void round(), AIS_LEASE_RENEW_MS);
    timer.unref();
    this.stopAisLeases = async () => {
      clearInterval(timer);
      await this.leases.release(keys).catch(() => undefined);
    };
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.cancelTimer?.();
    this.cancelTimer = null;
    await this.ais?.stop();
    await this.stopAisLeases?.();
    this.stopAisLeases = undefined;
    await this.ticking;
    await this.whenIdle();
  }

  stats(): EngineStats {
    return {
      queued: this.jobs.queued,
      running: this.jobs.running,
      jobsRun: this.jobs.jobsRun,
      jobErrors: this.jobs.jobErrors,
      lookups: { ...this.feeds.outcomes },
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
    return this.jobs.whenIdle();
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
    // Request status follows stop_tracking / resume_tracking done through the API.
    await this.tracking.syncStoppedRequests(nowIso);
    await this.subscriptions.releaseStopped();
    let room = this.jobs.room();
    let enqueued = 0;
    if (room <= 0) return 0;

    const requests = await this.tracking.dueTrackingRequests(nowIso, room);
    enqueued += await this.enqueueLeased(
      requests.map((r) => r.id),
      'request',
      (id) => this.requests.process(id),
    );
    room = this.jobs.room();
    if (room <= 0) return enqueued;

    const lineDue = await this.tracking.lineChecksDue(nowIso, room, TEST_SCAC);
    enqueued += await this.enqueueLeased(lineDue, 'line', (id) => this.refreshers.refreshLine(id));
    room = this.jobs.room();
    if (room <= 0 || this.feeds.terminals.size === 0) return enqueued;

    // Terminal checks while the box is due at, or at, the POD.
    const soon = new Date(this.clock.now() + DAY).toISOString();
    const terminalDue = await this.tracking.terminalChecksDue(nowIso, soon, room, TEST_SCAC);
    enqueued += await this.enqueueLeased(terminalDue, 'terminal', (id) =>
      this.refreshers.refreshTerminal(id),
    );
    return enqueued;
  }

  /**
   * Queues the jobs whose lease this instance wins (every one on SQLite), each releasing its
   * lease when done: with several instances on one database each job runs on one of them, and a
   * killed instance's jobs are taken over once their leases expire.
   */
  private async enqueueLeased(
    ids: string[],
    kind: 'request' | 'line' | 'terminal',
    run: (id: string) => Promise<void>,
  ): Promise<number> {
    const keys = await this.leases.claim(
      ids.map((id) => `${kind}:${id}`),
      this.leaseMs,
    );
    let enqueued = 0;
    const unused: string[] = [];
    for (const key of keys) {
      const id = key.slice(kind.length + 1);
      const queued = this.jobs.enqueue(key, async () => {
        try {
          await run(id);
        } finally {
          await this.leases.release([key]).catch((err: unknown) => {
            // Expires on its own; only delays the next run of this job.
            this.log.warn({ err, job: key }, 'could not release a job lease');
          });
        }
      });
      if (queued) enqueued++;
      else if (!this.jobs.has(key)) unused.push(key);
    }
    await this.leases.release(unused);
    return enqueued;
  }

  private scope<T>(fn: (scope: ApplyScope) => Promise<T>): Promise<T> {
    return this.stores.transaction((stores) => fn({ stores, now: this.clock.now() }));
  }
}
