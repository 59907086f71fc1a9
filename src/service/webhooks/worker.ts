/**
 * Delivers pending webhook notifications from the outbox. Due notifications (next_attempt_at <=
 * now, webhook active) are sent concurrently up to a global bound and a smaller per-webhook bound,
 * so one slow receiver cannot hold up the others. Each attempt is recorded; a failure schedules
 * the next attempt with exponential backoff and jitter on the injected Clock, and after the last
 * retry the notification is `failed`. Everything lives in the database, so a restarted service
 * resumes where the previous one stopped.
 */
import { isoString, type Clock } from '../../shared/clock';
import type { DueDelivery, WebhookStore } from '../store/webhooks';
import type { WorkLeases } from '../store/work-leases';
import type { WebhookSender } from './sender';
import { signedHeaders } from './signing';

export interface DeliveryPolicy {
  /** Retries after the first attempt before a notification is `failed`. */
  maxRetries: number;
  /** Delay before the first retry; doubles per retry. */
  baseDelayMs: number;
  /** Upper bound of one retry delay. */
  maxDelayMs: number;
  /** Deliveries in flight at once, over all webhooks. */
  maxConcurrent: number;
  /** Deliveries in flight at once to one webhook. */
  maxConcurrentPerWebhook: number;
  /**
   * Real time a delivery's lease lasts with other instances on the database (longer than a
   * request may take, timeout and recording included): a killed instance's deliveries are
   * taken over after this.
   */
  leaseMs: number;
}

export const DEFAULT_DELIVERY_POLICY: DeliveryPolicy = {
  maxRetries: 12,
  baseDelayMs: 30_000,
  maxDelayMs: 4 * 60 * 60_000,
  maxConcurrent: 16,
  maxConcurrentPerWebhook: 4,
  leaseMs: 60_000,
};

/** Delay before retry `retry` (1-based): exponential, capped, with jitter in [50%, 100%]. */
export function retryDelayMs(
  retry: number,
  policy: DeliveryPolicy,
  random: () => number = Math.random,
): number {
  const full = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retry - 1));
  return Math.round(full * (0.5 + random() * 0.5));
}

type DueRow = DueDelivery;

/** With other instances on the same database: how often to look for due work anyway. */
const SHARED_POLL_MS = 1_000;
/**
 * Real time before looking again after a look-up or a recording failed (the database busy or
 * briefly gone): without it, pending work would wait for the next new notification.
 */
const RETRY_AFTER_ERROR_MS = 1_000;
const leaseKey = (notificationId: string) => `webhook:${notificationId}`;

export interface WorkerLogger {
  warn(obj: object, msg: string): void;
}

export class DeliveryWorker {
  private running = false;
  private polling = false;
  private pollAgain = false;
  private kickScheduled = false;
  private awaitingCommits = 0;
  private stopSharedPoll: (() => void) | undefined;
  private cancelTimer: (() => void) | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  /** Deliveries whose attempt could not be recorded, skipped until this real time. */
  private readonly coolingDown = new Map<string, number>();
  private readonly inFlight = new Map<string, Promise<void>>();
  private readonly perWebhook = new Map<string, number>();
  private idleWaiters: (() => void)[] = [];

  constructor(
    private readonly store: WebhookStore,
    private readonly clock: Clock,
    private readonly sender: WebhookSender,
    private readonly policy: DeliveryPolicy = DEFAULT_DELIVERY_POLICY,
    private readonly logger?: WorkerLogger,
    private readonly random: () => number = Math.random,
    /** Shared with other instances (PostgreSQL): a delivery runs only under its lease. */
    private readonly leases?: WorkLeases,
  ) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    if (this.leases?.shared) {
      // Other instances write notifications too, and a killed one's leases expire: look again
      // every second of real time, not only when this instance records something.
      const timer = setInterval(() => this.kick(), SHARED_POLL_MS);
      timer.unref();
      this.stopSharedPoll = () => clearInterval(timer);
    }
    this.kick();
  }

  /** Looks for due work soon (after the current transaction, if any, has committed). */
  kick(): void {
    if (!this.running || this.kickScheduled) return;
    this.kickScheduled = true;
    setImmediate(() => {
      this.kickScheduled = false;
      void this.poll();
    });
  }

  /**
   * Looks for due work once transaction `id` has settled: a PostgreSQL commit completes after
   * the recording call returns, and a look-up before it would not see the new rows.
   */
  kickAfterCommit(id: string): void {
    if (!this.running) return;
    this.awaitingCommits += 1;
    void (async () => {
      try {
        for (let delay = 2; this.running; delay = Math.min(delay * 2, 200)) {
          if (await this.store.transactionSettled(id)) break;
          await new Promise((resolve) => setTimeout(resolve, delay));
        }
      } catch (err) {
        this.logger?.warn({ err }, 'webhook delivery: waiting for a commit failed');
      } finally {
        this.awaitingCommits -= 1;
        this.kick();
        this.settle();
      }
    })();
  }

  /** Resolves when nothing is in flight and no look-up is pending (for tests and shutdown). */
  whenIdle(): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Stops scheduling; in-flight requests are aborted and left pending for the next start. */
  async stop(): Promise<void> {
    this.running = false;
    this.stopSharedPoll?.();
    this.stopSharedPoll = undefined;
    this.cancelTimer?.();
    this.cancelTimer = undefined;
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    this.sender.abortAll();
    await Promise.allSettled([...this.inFlight.values()]);
    while (this.polling) await new Promise((r) => setImmediate(r));
  }

  private isIdle(): boolean {
    return (
      !this.polling && !this.kickScheduled && this.awaitingCommits === 0 && this.inFlight.size === 0
    );
  }

  private settle(): void {
    if (!this.isIdle()) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const w of waiters) w();
  }

  private async poll(): Promise<void> {
    if (this.polling) {
      this.pollAgain = true;
      return;
    }
    this.polling = true;
    try {
      do {
        this.pollAgain = false;
        if (!this.running) break;
        await this.startDue();
        await this.scheduleNext();
      } while (this.pollAgain);
    } catch (err) {
      this.logger?.warn({ err }, 'webhook delivery poll failed');
      this.retryAfterError();
    } finally {
      this.polling = false;
      this.settle();
    }
  }

  /** Looks again a little later, once, whatever failed meanwhile. */
  private retryAfterError(): void {
    if (!this.running || this.retryTimer) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      this.kick();
    }, RETRY_AFTER_ERROR_MS);
    this.retryTimer.unref();
  }

  private async startDue(): Promise<void> {
    const free = this.policy.maxConcurrent - this.inFlight.size;
    if (free <= 0) return;
    const now = isoString(this.clock.now());
    const rows = await this.store.dueDeliveries(
      now,
      free + this.inFlight.size + this.policy.maxConcurrent * 4,
    );
    // Within the bounds, the ones this instance wins the lease of (all on SQLite).
    const candidates: DueRow[] = [];
    const planned = new Map<string, number>();
    for (const row of rows) {
      if (candidates.length >= free) break;
      if (this.inFlight.has(row.id)) continue;
      const cooling = this.coolingDown.get(row.id);
      if (cooling !== undefined) {
        if (cooling > Date.now()) continue;
        this.coolingDown.delete(row.id);
      }
      const busy = (this.perWebhook.get(row.webhook_id) ?? 0) + (planned.get(row.webhook_id) ?? 0);
      if (busy >= this.policy.maxConcurrentPerWebhook) continue;
      planned.set(row.webhook_id, (planned.get(row.webhook_id) ?? 0) + 1);
      candidates.push(row);
    }
    const won = new Set(
      this.leases
        ? await this.leases.claim(
            candidates.map((r) => leaseKey(r.id)),
            this.policy.leaseMs,
          )
        : candidates.map((r) => leaseKey(r.id)),
    );
    for (const row of candidates) {
      if (!won.has(leaseKey(row.id)) || this.inFlight.has(row.id)) continue;
      this.perWebhook.set(row.webhook_id, (this.perWebhook.get(row.webhook_id) ?? 0) + 1);
      const delivery = this.deliver(row)
        .catch((err: unknown) => {
          // The attempt stays pending as it was; it is sent again after a pause, not at once.
          this.logger?.warn({ err, notification: row.id }, 'webhook delivery: not recorded');
          this.coolingDown.set(row.id, Date.now() + RETRY_AFTER_ERROR_MS);
          this.retryAfterError();
        })
        .finally(() => {
          this.inFlight.delete(row.id);
          const left = (this.perWebhook.get(row.webhook_id) ?? 1) - 1;
          if (left > 0) this.perWebhook.set(row.webhook_id, left);
          else this.perWebhook.delete(row.webhook_id);
          void this.leases?.release([leaseKey(row.id)]).catch((err: unknown) => {
            this.logger?.warn({ err }, 'webhook delivery: could not release a lease');
          });
          this.kick();
          this.settle();
        });
      this.inFlight.set(row.id, delivery);
    }
  }

  /** Sets one timer for the earliest future attempt. */
  private async scheduleNext(): Promise<void> {
    const now = isoString(this.clock.now());
    const next = await this.store.nextAttemptAfter(now);
    this.cancelTimer?.();
    this.cancelTimer = undefined;
    const at = next ? Date.parse(next) : NaN;
    if (!this.running || Number.isNaN(at)) return;
    this.cancelTimer = this.clock.setTimer(at - this.clock.now(), () => {
      this.cancelTimer = undefined;
      this.kick();
    });
  }

  private async deliver(row: DueRow): Promise<void> {
    const timestamp = Math.floor(this.clock.now() / 1000);
    const extra = row.headers ? (JSON.parse(row.headers) as { name: string; value: string }[]) : [];
    const headers: Record<string, string> = {};
    for (const h of extra) headers[h.name] = h.value;
    Object.assign(headers, signedHeaders(row.payload, row.id, timestamp, row.secret));

    const result = await this.sender.post(row.url, row.payload, headers);
    // Stopped mid-request: the attempt did not really happen; the next start retries it.
    if (!this.running) return;

    const attemptNumber = row.attempt_count + 1;
    const attemptedAt = isoString(this.clock.now());
    let status: 'pending' | 'succeeded' | 'failed' = 'pending';
    let nextAttemptAt: string | null = null;
    if (result.succeeded) status = 'succeeded';
    else if (attemptNumber > this.policy.maxRetries) status = 'failed';
    else
      nextAttemptAt = isoString(
        this.clock.now() + retryDelayMs(attemptNumber, this.policy, this.random),
      );

    await this.store.recordAttempt({
      notificationId: row.id,
      attemptNumber,
      url: row.url,
      statusCode: result.statusCode,
      latencyMs: result.latencyMs,
      error: result.error,
      succeeded: result.succeeded,
      attemptedAt,
      status,
      nextAttemptAt,
    });
    if (!result.succeeded) {
      this.logger?.warn(
        { notification: row.id, attempt: attemptNumber, error: result.error },
        status === 'failed'
          ? 'webhook delivery failed for good'
          : 'webhook delivery will be retried',
      );
    }
  }
}
