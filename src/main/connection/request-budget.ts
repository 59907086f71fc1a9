/**
 * A token bucket on the injected clock. With capacity C and refill R per minute, no 60-second
 * window holds more than C + R requests, so the defaults (10 + 85) stay under a remote
 * service's 100 requests per minute.
 */
import type { Clock } from '../../shared/clock';

export class RequestBudget {
  private tokens: number;
  private updatedAt: number;
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly clock: Clock,
    private readonly capacity = 10,
    private readonly perMinute = 85,
  ) {
    this.tokens = capacity;
    this.updatedAt = clock.now();
  }

  private refill(): void {
    const now = this.clock.now();
    this.tokens = Math.min(
      this.capacity,
      this.tokens + ((now - this.updatedAt) * this.perMinute) / 60_000,
    );
    this.updatedAt = now;
  }

  /** Whether a request asked for now would have to wait (for a token, or behind others). */
  wouldWait(): boolean {
    this.refill();
    return this.waiting > 0 || this.tokens < 1;
  }

  private waiting = 0;

  /** Resolves when a request may be sent; callers are served in order. */
  take(): Promise<void> {
    this.waiting++;
    const turn = this.queue.then(() => this.waitForToken()).finally(() => this.waiting--);
    this.queue = turn.catch(() => undefined);
    return turn;
  }

  private async waitForToken(): Promise<void> {
    for (;;) {
      this.refill();
      if (this.tokens >= 1) {
        this.tokens -= 1;
        return;
      }
      const wait = Math.ceil(((1 - this.tokens) * 60_000) / this.perMinute);
      await new Promise<void>((resolve) => this.clock.setTimer(wait, resolve));
    }
  }
}
