/**
 * Request limits over a rolling minute, as the reference service applies them: all requests
 * and tracking request creation per account, and failed authentication per client address.
 * Kept in process memory on a wall clock: real time even when the service runs on a simulated
 * clock, so `Retry-After` is in real seconds (tests inject a manual clock instead of waiting).
 */
import type { Clock } from '../shared/clock';
import type { ServiceConfig } from './context';
import { ApiError } from './jsonapi/errors';

export const WINDOW_MS = 60_000;

/** Container refreshes per account per rolling minute (the reference's limit). */
export const CONTAINER_REFRESHES_PER_MINUTE = 10;

/** After this many hits, keys whose window has passed are dropped (bounds memory). */
const SWEEP_EVERY = 1_000;

export class RollingWindowLimiter {
  private readonly hits = new Map<string, number[]>();
  private hitsSinceSweep = 0;

  constructor(
    private readonly clock: Clock,
    private readonly limit: number,
    private readonly windowMs = WINDOW_MS,
  ) {}

  /** Seconds until `key` may make another hit, or 0 when it may now. Records nothing. */
  retryAfterSeconds(key: string): number {
    const list = this.current(key, this.clock.now());
    if (!list || list.length < this.limit) return 0;
    const retryAfterMs = list[0]! + this.windowMs - this.clock.now();
    return Math.max(1, Math.ceil(retryAfterMs / 1000));
  }

  /** Records a hit for `key` if allowed; otherwise returns the seconds until one is allowed. */
  take(key: string): { allowed: true } | { allowed: false; retryAfterSeconds: number } {
    const retryAfterSeconds = this.retryAfterSeconds(key);
    if (retryAfterSeconds > 0) return { allowed: false, retryAfterSeconds };
    const list = this.hits.get(key) ?? [];
    list.push(this.clock.now());
    this.hits.set(key, list);
    if (++this.hitsSinceSweep >= SWEEP_EVERY) this.sweep();
    return { allowed: true };
  }

  /** Forgets every key with no hit inside the window (e.g. many addresses that failed once). */
  private sweep(): void {
    this.hitsSinceSweep = 0;
    const now = this.clock.now();
    for (const key of [...this.hits.keys()]) this.current(key, now);
  }

  /** The hits of `key` still inside the window; empty lists are forgotten. */
  private current(key: string, now: number): number[] | undefined {
    const list = this.hits.get(key);
    if (!list) return undefined;
    const cutoff = now - this.windowMs;
    let drop = 0;
    while (drop < list.length && list[drop]! <= cutoff) drop++;
    if (drop) list.splice(0, drop);
    if (list.length === 0) this.hits.delete(key);
    return list;
  }
}

const tooMany = (detail: string, retryAfterSeconds: number) =>
  new ApiError(429, detail, { headers: { 'Retry-After': String(retryAfterSeconds) } });

/** The service's limits; each check throws a 429 JSON:API error with `Retry-After`. */
export class RequestLimits {
  private readonly requests: RollingWindowLimiter;
  private readonly creations: RollingWindowLimiter;
  private readonly authFailures: RollingWindowLimiter;
  private readonly refreshes: RollingWindowLimiter;

  constructor(wallClock: Clock, config: ServiceConfig) {
    this.refreshes = new RollingWindowLimiter(wallClock, CONTAINER_REFRESHES_PER_MINUTE);
    this.requests = new RollingWindowLimiter(wallClock, config.requestsPerMinute);
    this.creations = new RollingWindowLimiter(wallClock, config.trackingRequestsPerMinute);
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

  takeRequest(accountId: string): void {
    const result = this.requests.take(accountId);
    if (!result.allowed) throw tooMany('Rate limit exceeded', result.retryAfterSeconds);
  }

  /** `PATCH /containers/{id}/refresh`: its own, smaller budget, as the reference has. */
  takeContainerRefresh(accountId: string): void {
    const result = this.refreshes.take(accountId);
    if (!result.allowed) {
      throw tooMany(
        "You've hit the refresh limit. Please try again in a minute.",
        result.retryAfterSeconds,
      );
    }
  }

  takeTrackingRequestCreation(accountId: string): void {
    const result = this.creations.take(accountId);
    if (!result.allowed) {
      throw tooMany(
        "You've hit the create tracking requests limit. Please try again in a minute.",
        result.retryAfterSeconds,
      );
    }
  }
}
