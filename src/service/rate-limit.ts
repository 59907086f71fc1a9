/**
 * Per-key request limits over a rolling minute, as the reference service applies them. Kept in
 * process memory with the injected clock (tests move time instead of waiting a minute).
 */
import type { Clock } from '../shared/clock';

export const WINDOW_MS = 60_000;

export class RollingWindowLimiter {
  private readonly hits = new Map<string, number[]>();

  constructor(
    private readonly clock: Clock,
    private readonly limit: number,
    private readonly windowMs = WINDOW_MS,
  ) {}

  /** Records a hit for `key` if allowed; otherwise returns the seconds until one is allowed. */
  take(key: string): { allowed: true } | { allowed: false; retryAfterSeconds: number } {
    const now = this.clock.now();
    let list = this.hits.get(key);
    if (!list) {
      list = [];
      this.hits.set(key, list);
    }
    const cutoff = now - this.windowMs;
    let drop = 0;
    while (drop < list.length && list[drop]! <= cutoff) drop++;
    if (drop) list.splice(0, drop);
    if (list.length >= this.limit) {
      const retryAfterMs = list[0]! + this.windowMs - now;
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(retryAfterMs / 1000)) };
    }
    list.push(now);
    return { allowed: true };
  }
}
