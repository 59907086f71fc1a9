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
  /**
   * Counts up to `count` hits, as many as fit under `limit`; `granted` says how many. First
   * removes `giveBack.count` hits an earlier take counted at `giveBack.atMs` and did not use.
   */
  take(
    key: string,
    limit: number,
    windowMs: number,
    nowMs: number,
    count: number,
    giveBack?: { atMs: number; count: number },
  ): Promise<{ granted: number; oldestMs: number | null; used: number }>;
  /** Forgets budgets untouched since `beforeMs`. */
  prune(beforeMs: number): Promise<void>;
}

/** How long the room a statement found in a shared window is trusted. */
const ROOM_KNOWN_MS = 1_000;

/** Hits taken ahead are at most this share of the room a window has left... */
const AHEAD_SHARE_OF_ROOM = 0.1;
/** ...and none while it has fewer places left than this (then each take is counted exactly)... */
const AHEAD_MIN_ROOM = 1_000;
/**
 * ...or when the room was last seen longer ago than this: two seconds, so that a budget asked
 * ahead once a second stays known (the database grants only what fits whatever is asked).
 */
const AHEAD_ROOM_KNOWN_MS = 2_000;

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

/** What one instance knows of one shared budget between statements. */
interface SharedKey {
  /** Takes waiting while a statement on this key runs; undefined when none runs. */
  queued?: Waiting[];
  /** Room left in the window as the last statement found it, and when. */
  roomLeft: number;
  roomAtMs: number;
  /** Hits the database counted in the second starting at `aheadSecond`, not yet handed out. */
  ahead: number;
  aheadSecond: number;
  /** Takes seen in the second starting at `seenSecond`, and in the whole second before it. */
  seen: number;
  seenSecond: number;
  seenBefore: number;
}

const ALLOWED: TakeResult = { allowed: true };
const secondOf = (ms: number) => ms - (ms % BUCKET_MS);

/**
 * A rolling window kept in the database and shared by every instance using it; hits are counted
 * per second there, so one leaves the window up to a second early.
 *
 * One statement per budget at a time: takes that arrive while it runs wait and go together in
 * the next one, which asks for as many hits as there are takes and lets through as many as were
 * granted (in arrival order).
 *
 * Far from the limit (a thousand places or more left) a statement also asks ahead for the takes
 * this instance expects in the rest of the second (its pace in the second before), at most a
 * tenth of the room left; the takes that come in that second are granted from those hits without
 * a round trip. The database counts them in the second they are used, and the next statement
 * gives back those left over, so the window holds only hits granted to requests and the limit is
 * never passed. Near the limit nothing is asked ahead and every take is counted as it comes; what
 * other instances still hold for the current second when the window fills is at most about a
 * second of their own pace. Under load a busy budget then costs about one statement a second per
 * instance instead of one write per few requests, all writing one row.
 */
export class SharedWindowLimiter {
  private prunedAt = -Infinity;
  private readonly keys = new Map<string, SharedKey>();

  constructor(
    private readonly windows: SharedWindows,
    /** Names the budget in the shared rows (`<name>:<key>`). */
    private readonly name: string,
    private readonly clock: Clock,
    private readonly limit: number,
    private readonly windowMs = WINDOW_MS,
  ) {}

  take(key: string): Promise<TakeResult> {
    const state = this.keyState(key);
    this.countSeen(state, this.clock.now());
    return new Promise((resolve, reject) => {
      if (state.queued) {
        state.queued.push({ resolve, reject });
        return;
      }
      if (this.handOutAhead(state, [{ resolve, reject }]).length === 0) return;
      state.queued = [];
      void this.run(key, state, [{ resolve, reject }]);
    });
  }

  /**
   * Whether a take on `key` now is all but certain to be granted: hits taken ahead for this
   * second cover it, or the last statement on it, less than a second ago, left room for every
   * take already waiting and a tenth of the limit more (other instances draw on the same budget
   * meanwhile).
   */
  surelyAllows(key: string): boolean {
    const state = this.keys.get(key);
    if (!state) return false;
    const now = this.clock.now();
    const waiting = state.queued?.length ?? 0;
    if (state.aheadSecond === secondOf(now) && state.ahead > waiting) return true;
    if (now - state.roomAtMs >= ROOM_KNOWN_MS) return false;
    return state.roomLeft - waiting > Math.max(1, this.limit / 10);
  }

  private keyState(key: string): SharedKey {
    let state = this.keys.get(key);
    if (!state) {
      state = {
        roomLeft: 0,
        roomAtMs: -Infinity,
        ahead: 0,
        aheadSecond: -Infinity,
        seen: 0,
        seenSecond: -Infinity,
        seenBefore: 0,
      };
      this.keys.set(key, state);
    }
    return state;
  }

  private countSeen(state: SharedKey, now: number): void {
    this.rollSeen(state, now);
    state.seen++;
  }

  private rollSeen(state: SharedKey, now: number): void {
    const second = secondOf(now);
    if (state.seenSecond === second) return;
    state.seenBefore = state.seenSecond === second - BUCKET_MS ? state.seen : 0;
    state.seen = 0;
    state.seenSecond = second;
  }

  /** Grants what hits taken ahead for this second cover; returns the takes left waiting. */
  private handOutAhead(state: SharedKey, batch: Waiting[]): Waiting[] {
    if (state.ahead === 0 || state.aheadSecond !== secondOf(this.clock.now())) return batch;
    const covered = Math.min(state.ahead, batch.length);
    state.ahead -= covered;
    for (const take of batch.slice(0, covered)) take.resolve(ALLOWED);
    return batch.slice(covered);
  }

  /** Hits to ask for beyond `asked`: the rest of this second at this instance's pace. */
  private askAhead(state: SharedKey, now: number, asked: number): number {
    if (now - state.roomAtMs >= AHEAD_ROOM_KNOWN_MS || state.roomLeft < AHEAD_MIN_ROOM) return 0;
    this.rollSeen(state, now);
    const rest = (BUCKET_MS - (now % BUCKET_MS)) / BUCKET_MS;
    const expected = Math.ceil(state.seenBefore * rest);
    const share = Math.floor((state.roomLeft - asked) * AHEAD_SHARE_OF_ROOM);
    return Math.max(0, Math.min(expected, share));
  }

  /** Takes `batch` in one statement, then the takes that queued meanwhile, until none is left. */
  private async run(key: string, state: SharedKey, batch: Waiting[]): Promise<void> {
    while (batch.length > 0) {
      const now = this.clock.now();
      const extra = this.askAhead(state, now, batch.length);
      // Left over from an earlier second (handOutAhead uses them up within their own).
      const giveBack =
        state.ahead > 0 ? { atMs: state.aheadSecond, count: state.ahead } : undefined;
      try {
        const result = await this.windows.take(
          `${this.name}:${key}`,
          this.limit,
          this.windowMs,
          now,
          batch.length + extra,
          giveBack,
        );
        state.roomLeft = this.limit - result.used;
        state.roomAtMs = now;
        const handed = Math.min(result.granted, batch.length);
        state.ahead = result.granted - handed;
        state.aheadSecond = secondOf(now);
        const oldest = result.oldestMs ?? now;
        const refused: TakeResult = {
          allowed: false,
          retryAfterSeconds: Math.max(1, Math.ceil((oldest + this.windowMs - now) / 1000)),
        };
        batch.forEach((take, i) => take.resolve(i < handed ? ALLOWED : refused));
      } catch (error) {
        // Whether the statement gave the hits back is unknown: they are not given back twice
        // (an unused hit counted leaves with its window; one given back twice would let the
        // window pass its limit).
        state.ahead = 0;
        for (const take of batch) take.reject(error);
      }
      if (now - this.prunedAt >= this.windowMs) {
        this.prunedAt = now;
        this.forgetIdleKeys(now);
        // Housekeeping only: a failed prune is tried again a window later.
        await this.windows.prune(now - this.windowMs).catch(() => undefined);
      }
      batch = this.handOutAhead(state, state.queued!.splice(0));
    }
    state.queued = undefined;
  }

  /** Drops what is known of budgets with no take for a window (their hits have left it). */
  private forgetIdleKeys(now: number): void {
    for (const [key, state] of this.keys) {
      if (!state.queued && state.seenSecond < now - this.windowMs) this.keys.delete(key);
    }
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
