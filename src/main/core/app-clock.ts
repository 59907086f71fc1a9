/**
 * The app's clock. With a remote service it is the system clock. With the embedded service and
 * its simulated world it follows the world's simulated time (reported by the service process), so
 * LFD countdowns, "arriving this week" and alert thresholds agree with the data being shown.
 */
import { systemClock, type Clock } from '../../shared/clock';

export class AppClock implements Clock {
  private simulated: { simAt: number; realAt: number; speed: number } | null = null;

  /** Follows simulated time from now on: `simNow` at this instant, `speed` times real time. */
  follow(simNow: number, speed: number): void {
    this.simulated = { simAt: simNow, realAt: Date.now(), speed };
  }

  /** Back to real time (e.g. after switching to a remote service). */
  useRealTime(): void {
    this.simulated = null;
  }

  /** Simulated milliseconds per real millisecond (1 for real time). */
  get speed(): number {
    return this.simulated?.speed ?? 1;
  }

  now(): number {
    const s = this.simulated;
    return s ? s.simAt + (Date.now() - s.realAt) * s.speed : Date.now();
  }

  setTimer(delayMs: number, fn: () => void): () => void {
    return systemClock.setTimer(delayMs / this.speed, fn);
  }
}
