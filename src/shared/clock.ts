/**
 * Time is injected everywhere (lifecycles, retries, LFD countdowns, the simulated world) so that
 * tests can move it forward without sleeping. All times are epoch milliseconds in UTC.
 */
export interface Clock {
  /** Current time in epoch milliseconds. */
  now(): number;
  /** Runs `fn` once when the clock reaches `now() + delayMs`. Returns a function that cancels it. */
  setTimer(delayMs: number, fn: () => void): () => void;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimer(delayMs, fn) {
    const handle = setTimeout(fn, Math.max(0, delayMs));
    // In Node, a pending timer alone must not keep the process alive (browsers have no unref).
    (handle as { unref?: () => void }).unref?.();
    return () => clearTimeout(handle);
  },
};

interface PendingTimer {
  at: number;
  seq: number;
  fn: () => void;
}

/**
 * A clock that only moves when told to. `advance` fires due timers in time order, including
 * timers that those timers schedule within the advanced window.
 */
export class ManualClock implements Clock {
  private current: number;
  private seq = 0;
  private timers: PendingTimer[] = [];

  constructor(start: number | Date = Date.UTC(2026, 0, 1)) {
    this.current = typeof start === 'number' ? start : start.getTime();
  }

  now(): number {
    return this.current;
  }

  setTimer(delayMs: number, fn: () => void): () => void {
    const timer: PendingTimer = { at: this.current + Math.max(0, delayMs), seq: this.seq++, fn };
    this.timers.push(timer);
    return () => {
      this.timers = this.timers.filter((t) => t !== timer);
    };
  }

  /** Moves time forward by `ms`, firing every timer that falls due on the way. */
  advance(ms: number): void {
    const target = this.current + ms;
    for (;;) {
      const due = this.timers
        .filter((t) => t.at <= target)
        .sort((a, b) => a.at - b.at || a.seq - b.seq)[0];
      if (!due) break;
      this.timers = this.timers.filter((t) => t !== due);
      this.current = Math.max(this.current, due.at);
      due.fn();
    }
    this.current = target;
  }

  /** Moves time to an absolute instant (never backwards). */
  advanceTo(at: number | Date): void {
    const target = typeof at === 'number' ? at : at.getTime();
    this.advance(Math.max(0, target - this.current));
  }

  pendingTimers(): number {
    return this.timers.length;
  }
}

/**
 * Simulated time running `speed` times faster than real time from `origin` (e.g. speed 3600:
 * one simulated hour per real second). Shared by the simulated world and the embedded service.
 */
export class ScaledClock implements Clock {
  private readonly realStart = Date.now();

  constructor(
    private readonly origin: number,
    private readonly speed: number,
  ) {
    if (!(speed > 0) || !Number.isFinite(speed))
      throw new RangeError('speed must be a positive number');
  }

  now(): number {
    return this.origin + (Date.now() - this.realStart) * this.speed;
  }

  setTimer(delayMs: number, fn: () => void): () => void {
    return systemClock.setTimer(delayMs / this.speed, fn);
  }
}

export const isoString = (ms: number): string => new Date(ms).toISOString();
