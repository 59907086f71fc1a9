/**
 * Request limits over a rolling minute, as the reference service applies them: all requests
 * and tracking request creation per account, and failed authentication per client address.
 * Counted on a wall clock: real time even when the service runs on a simulated clock, so
 * `Retry-After` is in real seconds (tests inject a manual clock instead of waiting).
 *
 * The per-account budgets are kept in process memory on SQLite (one process) and in the
 * database on PostgreSQL (store/rate-limit-windows.ts), so several instances behind a load
 * balancer share one budget per account. Failed authentication stays per instance: a guess
 * is refused before any lookup, and N instances allow N times the guesses of one, which is
 * still nothing against a 32-byte key.
 */
import type { Clock } from '../shared/clock';
import type { ServiceConfig } from './context';
import { ApiError } from './jsonapi/errors';

export const WINDOW_MS = 60_000;

/** Container refreshes per account per rolling minute (the reference's limit). */
export const CONTAINER_REFRESHES_PER_MINUTE = 10;

/** After this many hits, keys whose window has passed are dropped (bounds memory). */
const SWEEP_EVERY = 1_000;

/** Hits counted in whole seconds: a window keeps at most one entry per second it spans. */
const BUCKET_MS = 1_000;

/** The hits of one key: [bucket start, count] oldest first, and their sum. */
interface KeyWindow {
  buckets: [start: number, count: number][];
  total: number;
}

/**
 * A rolling window per key, counted per second (as the shared limiter in the database counts):
 * time and memory per key stay small whatever the limit, and a hit leaves the window up to a
 * second early.
 */
export class RollingWindowLimiter {
  private readonly windows = new Map<string, KeyWindow>();
  private hitsSinceSweep = 0;

  constructor(
    private readonly clock: Clock,
    private readonly limit: number,
    private readonly windowMs = WINDOW_MS,
  ) {}

  /** Seconds until `key` may make another hit, or 0 when it may now. Records nothing. */
  retryAfterSeconds(key: string): number {
    const now = this.clock.now();
    const window = this.current(key, now);
    if (!window || window.total < this.limit) return 0;
    const retryAfterMs = window.buckets[0]![0] + this.windowMs - now;
    return Math.max(1, Math.ceil(retryAfterMs / 1000));
  }

  /** Records a hit for `key` if allowed; otherwise returns the seconds until one is allowed. */
  take(key: string): TakeResult {
    const retryAfterSeconds = this.retryAfterSeconds(key);
    if (retryAfterSeconds > 0) return { allowed: false, retryAfterSeconds };
    const now = this.clock.now();
    const start = now - (now % BUCKET_MS);
    const window = this.windows.get(key) ?? { buckets: [], total: 0 };
    const last = window.buckets.at(-1);
    if (last && last[0] === start) last[1]++;
    else window.buckets.push([start, 1]);
    window.total++;
    this.windows.set(key, window);
    if (++this.hitsSinceSweep >= SWEEP_EVERY) this.sweep();
    return { allowed: true };
  }

  /** Forgets every key with no hit inside the window (e.g. many addresses that failed once). */
  private sweep(): void {
    this.hitsSinceSweep = 0;
    const now = this.clock.now();
    for (const key of [...this.windows.keys()]) this.current(key, now);
  }

  /** The hits of `key` still inside the window; an emptied window is forgotten. */
  private current(key: string, now: number): KeyWindow | undefined {
    const window = this.windows.get(key);
    if (!window) return undefined;
    const cutoff = now - this.windowMs;
    let drop = 0;
    while (drop < window.buckets.length && window.buckets[drop]![0] <= cutoff) {
      window.total -= window.buckets[drop]![1];
      drop++;
    }
    if (drop) window.buckets.splice(0, drop);
    if (window.buckets.length === 0) {
      this.windows.delete(key);
      return undefined;
    }
    return window;
  }
}

/** The store's shared budgets, as far as the limits need them. */
export interface SharedWindows {
  /** Counts up to `count` hits, as many as fit under `limit`; `granted` says how many. */
  take(
    key: string,
    limit: number,
    windowMs: number,
    nowMs: number,
    count: number,
  ): Promise<{ granted: number; oldestMs: number | null; used: number }>;
  /** Forgets budgets untouched since `beforeMs`. */
  prune(beforeMs: number): Promise<void>;
}

/** How long the room a statement found in a shared window is trusted (surelyAllows). */
const ROOM_KNOWN_MS = 1_000;

type TakeResult = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/** A per-account budget: in memory (RollingWindowLimiter) or shared (SharedWindowLimiter). */
type Budget = {
  take(key: string): TakeResult | Promise<TakeResult>;
  /** A budget a round trip away tells when a take would all but surely be granted. */
  surelyAllows?(key: string): boolean;
};

/** A take waiting for its turn in the next statement on its budget. */
interface Waiting {
  resolve(result: TakeResult): void;
  reject(error: unknown): void;
}

/**
 * A rolling window kept in the database and shared by every instance using it; hits are counted
 * per second there, so one leaves the window up to a second early.
 *
 * One statement per budget at a time: takes that arrive while it runs wait and go together in
 * the next one, which asks for as many hits as there are takes and lets through as many as were
 * granted (in arrival order). Under load a request then costs a fraction of a round trip instead
 * of one write each, all writing one row; exactness is kept, since the database counts only the
 * hits it granted.
 */
export class SharedWindowLimiter {
  private prunedAt = -Infinity;
  /** Takes waiting per key while a statement on that key runs. */
  private readonly queued = new Map<string, Waiting[]>();
  /** Room left in each key's window as the last statement on it found, and when. */
  private readonly room = new Map<string, { left: number; atMs: number }>();

  constructor(
    private readonly windows: SharedWindows,
    /** Names the budget in the shared rows (`<name>:<key>`). */
    private readonly name: string,
    private readonly clock: Clock,
    private readonly limit: number,
    private readonly windowMs = WINDOW_MS,
  ) {}

  take(key: string): Promise<TakeResult> {
    return new Promise((resolve, reject) => {
      const waiting = this.queued.get(key);
      if (waiting) {
        waiting.push({ resolve, reject });
        return;
      }
      this.queued.set(key, []);
      void this.run(key, [{ resolve, reject }]);
    });
  }

  /**
   * Whether a take on `key` now is all but certain to be granted: the last statement on it, less
   * than a second ago, left room for every take already waiting and a tenth of the limit more
   * (other instances draw on the same budget meanwhile).
   */
  surelyAllows(key: string): boolean {
    const room = this.room.get(key);
    if (!room || this.clock.now() - room.atMs >= ROOM_KNOWN_MS) return false;
    const waiting = this.queued.get(key)?.length ?? 0;
    return room.left - waiting > Math.max(1, this.limit / 10);
  }

  /** Takes `batch` in one statement, then the takes that queued meanwhile, until none is left. */
  private async run(key: string, batch: Waiting[]): Promise<void> {
    while (batch.length > 0) {
      const now = this.clock.now();
      try {
        const result = await this.windows.take(
          `${this.name}:${key}`,
          this.limit,
          this.windowMs,
          now,
          batch.length,
        );
        this.room.set(key, { left: this.limit - result.used, atMs: now });
        const oldest = result.oldestMs ?? now;
        const refused: TakeResult = {
          allowed: false,
          retryAfterSeconds: Math.max(1, Math.ceil((oldest + this.windowMs - now) / 1000)),
        };
        batch.forEach((take, i) => take.resolve(i < result.granted ? { allowed: true } : refused));
      } catch (error) {
        for (const take of batch) take.reject(error);
      }
      if (now - this.prunedAt >= this.windowMs) {
        this.prunedAt = now;
        // Housekeeping only: a failed prune is tried again a window later.
        await this.windows.prune(now - this.windowMs).catch(() => undefined);
      }
      batch = this.queued.get(key)!.splice(0);
    }
    this.queued.delete(key);
  }
}

const tooMany = (detail: string, retryAfterSeconds: number) =>
  new ApiError(429, detail, { headers: { 'Retry-After': String(retryAfterSeconds) } });

/** The service's limits; each check throws a 429 JSON:API error with `Retry-After`. */
export class RequestLimits {
  private readonly requests: Budget;
  private readonly creations: Budget;
  private readonly refreshes: Budget;
  private readonly authFailures: RollingWindowLimiter;

  /** `shared`: the database's budgets when several instances share it (PostgreSQL). */
  constructor(wallClock: Clock, config: ServiceConfig, shared?: SharedWindows) {
    const budget = (name: string, limit: number) =>
      shared
        ? new SharedWindowLimiter(shared, name, wallClock, limit)
        : new RollingWindowLimiter(wallClock, limit);
    this.refreshes = budget('refreshes', CONTAINER_REFRESHES_PER_MINUTE);
    this.requests = budget('requests', config.requestsPerMinute);
    this.creations = budget('tracking_requests', config.trackingRequestsPerMinute);
    this.authFailures = new RollingWindowLimiter(wallClock, config.failedAuthPerMinute);
  }

  /**
   * An address over its failed-authentication budget is refused before its key is looked up,
   * so guessing cannot tell a right key from a wrong one while blocked.
   */
  checkAddress(address: string): void {
    const wait = this.authFailures.retryAfterSeconds(address);
    if (wait > 0) throw tooMany('Too many failed authentication attempts', wait);
  }

  /** Counts a failed authentication against the address (the 401 itself is the caller's). */
  recordAuthFailure(address: string): void {
    this.authFailures.take(address);
  }

  async takeRequest(accountId: string): Promise<void> {
    const result = await this.requests.take(accountId);
    if (!result.allowed) throw tooMany('Rate limit exceeded', result.retryAfterSeconds);
  }

  /**
   * For a request that changes nothing: when the shared budget (a database round trip away) all
   * but surely has room, the take is started and the request goes on while it runs; the outcome
   * (null, or the error to answer instead) must be awaited before the answer is sent. Undefined
   * when the request must wait for its take first (`takeRequest`): an in-memory budget answers
   * at once, and near its limit a request is refused before it costs any reading.
   */
  overlapRequestTake(accountId: string): Promise<unknown> | undefined {
    if (!this.requests.surelyAllows?.(accountId)) return;
    return this.takeRequest(accountId).then(
      () => null,
      (error: unknown) => error,
    );
  }

  /** `PATCH /containers/{id}/refresh`: its own, smaller budget, as the reference has. */
  async takeContainerRefresh(accountId: string): Promise<void> {
    const result = await this.refreshes.take(accountId);
    if (!result.allowed) {
      throw tooMany(
        "You've hit the refresh limit. Please try again in a minute.",
        result.retryAfterSeconds,
      );
    }
  }

  async takeTrackingRequestCreation(accountId: string): Promise<void> {
    const result = await this.creations.take(accountId);
    if (!result.allowed) {
      throw tooMany(
        "You've hit the create tracking requests limit. Please try again in a minute.",
        result.retryAfterSeconds,
      );
    }
  }
}
