/**
 * One limiter per source (carrier, terminal): at most `requestsPerMinute` request starts in any
 * minute, at most `concurrency` in flight, and a pause when the source answered 429 with
 * `Retry-After`. Each source has its own, so one carrier slowing down never delays another.
 */

export interface LimiterOptions {
  requestsPerMinute?: number;
  concurrency?: number;
  now?: () => number;
  /** Waits in real time; injectable so tests move a fake clock instead of sleeping. */
  sleep?: (ms: number) => Promise<void>;
  /** Told each time a request has to wait (metrics). */
  onWait?: () => void;
}

export interface LimiterStats {
  /** Times a request had to wait for the rate, a 429 pause or a free slot. */
  waits: number;
  inFlight: number;
}

const WINDOW_MS = 60_000;
const realSleep = (ms: number): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

export class SourceLimiter {
  private readonly starts: number[] = [];
  private pausedUntil = 0;
  private inFlight = 0;
  private readonly slotWaiters: (() => void)[] = [];
  /** Serialises the rate check so queued requests leave in order. */
  private gate: Promise<void> = Promise.resolve();
  private waits = 0;
  private readonly now: () => number;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(private readonly options: LimiterOptions = {}) {
    this.now = options.now ?? Date.now;
    this.sleep = options.sleep ?? realSleep;
  }

  stats(): LimiterStats {
    return { waits: this.waits, inFlight: this.inFlight };
  }

  /** The source asked to be left alone for `ms` (a 429's Retry-After). */
  pauseFor(ms: number): void {
    this.pausedUntil = Math.max(this.pausedUntil, this.now() + Math.max(0, ms));
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    await this.acquireSlot();
    try {
      await this.awaitTurn();
      return await task();
    } finally {
      this.releaseSlot();
    }
  }

  private async acquireSlot(): Promise<void> {
    const limit = this.options.concurrency ?? Infinity;
    if (this.inFlight < limit) {
      this.inFlight += 1;
      return;
    }
    this.waits += 1;
    this.options.onWait?.();
    // The releasing request hands its slot over directly, so inFlight never overshoots.
    await new Promise<void>((resolve) => this.slotWaiters.push(resolve));
  }

  private releaseSlot(): void {
    const next = this.slotWaiters.shift();
    if (next) next();
    else this.inFlight -= 1;
  }

  private awaitTurn(): Promise<void> {
    const turn = this.gate.then(() => this.waitForRate());
    this.gate = turn.catch(() => undefined);
    return turn;
  }

  private async waitForRate(): Promise<void> {
    let waited = false;
    for (;;) {
      const now = this.now();
      let until = this.pausedUntil;
      const rpm = this.options.requestsPerMinute;
      while (this.starts.length > 0 && this.starts[0]! <= now - WINDOW_MS) this.starts.shift();
      if (rpm !== undefined && this.starts.length >= rpm) {
        until = Math.max(until, this.starts[0]! + WINDOW_MS);
      }
      if (until <= now) break;
      if (!waited) {
        this.waits += 1;
        this.options.onWait?.();
      }
      waited = true;
      await this.sleep(until - now);
    }
    this.starts.push(this.now());
  }
}
