/**
 * Time is injected everywhere (lifecycles, retries, LFD countdowns, the simulated world) so that
 * tests can move it forward without sleeping. All times are epoch milliseconds in UTC.
 */
export interface Clock {
  /** Current time in epoch milliseconds. */
  now(): number;
  /** Runs `fn` once when the clock reaches `now() + delayMs`. Returns a function that cancels it. */
  setTimer(delayMs: number, fn: () => void): () => void;
  /** Clock milliseconds per real millisecond: 1 for real time, more for a sped-up simulation. */
  readonly speed: number;
}

/**
 * A clock reading: the clock showed `at` when the wall clock showed `realAt`, and it runs `speed`
 * times as fast. Main hands readings to the renderer, which extrapolates with `timeAt`.
 */
export interface ClockReading {
  at: number;
  realAt: number;
  speed: number;
}

/** The one scaled-time formula: the clock's time when the wall clock shows `realNow`. */
export const timeAt = (reading: ClockReading, realNow: number): number =>
  reading.at + (realNow - reading.realAt) * reading.speed;

export const systemClock: Clock = {
  speed: 1,
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
  /** Moves only when told; timers scale like real time. */
  readonly speed = 1;
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
 * one simulated hour per real second). The simulated world and the embedded service run on one;
 * the desktop app's clock is one that starts at real time, `follow`s the embedded service's
 * reports of its simulated time and returns to real time with `useRealTime`.
 */
export class ScaledClock implements Clock {
  private reading: ClockReading;

  constructor(origin: number = Date.now(), speed = 1) {
    this.reading = ScaledClock.readingAt(origin, speed);
  }

  private static readingAt(at: number, speed: number): ClockReading {
    if (!(speed > 0) || !Number.isFinite(speed))
      throw new RangeError('speed must be a positive number');
    return { at, realAt: Date.now(), speed };
  }

  get speed(): number {
    return this.reading.speed;
  }

  now(): number {
    return timeAt(this.reading, Date.now());
  }

  /**
   * From now on shows `at`, moving `speed` times real time; never backwards: a report earlier
   * than the clock's time continues from the clock's time (alerts already stamped must not end
   * up in the future).
   */
  follow(at: number, speed: number): void {
    this.reading = ScaledClock.readingAt(Math.max(at, this.now()), speed);
  }

  /**
   * Keeps the current time, moving at real speed only, while what it follows is not running
   * (the simulated world pauses while its service is down); `follow` picks up again.
   */
  hold(): void {
    this.reading = ScaledClock.readingAt(this.now(), 1);
  }

  /** Back to real time (e.g. after switching to a remote service). */
  useRealTime(): void {
    this.reading = ScaledClock.readingAt(Date.now(), 1);
  }

  setTimer(delayMs: number, fn: () => void): () => void {
    return systemClock.setTimer(delayMs / this.reading.speed, fn);
  }
}

export const isoString = (ms: number): string => new Date(ms).toISOString();
