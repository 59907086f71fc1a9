/**
 * The app's clock in demo mode follows the simulated world, which pauses while the app is closed
 * and may lose a few seconds of saved time when its process is killed. Alerts and sync marks are
 * stamped with this clock, so it must never move backwards across restarts: its time is saved
 * in `app-clock.json` every few seconds and on stop, and a start continues from the later of the
 * saved time and what the world reports (the launcher also asks the world to resume there).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ScaledClock } from '../../shared/clock';
import { writePrivateFile } from './secret-store';

export const APP_CLOCK_FILE = 'app-clock.json';
const SAVE_EVERY_MS = 5_000;

/** The saved time (epoch ms), or null when there is none or it is unreadable. */
export function readSavedAppTime(dataDir: string): number | null {
  try {
    const saved = JSON.parse(readFileSync(join(dataDir, APP_CLOCK_FILE), 'utf8')) as unknown;
    const at = (saved as { at?: unknown } | null)?.at;
    return typeof at === 'number' && Number.isFinite(at) ? at : null;
  } catch {
    return null;
  }
}

export class SavedAppClock {
  private timer: ReturnType<typeof setInterval> | null = null;
  private saved: number | null;

  constructor(
    private readonly dataDir: string,
    private readonly clock: ScaledClock,
  ) {
    this.saved = readSavedAppTime(dataDir);
  }

  /**
   * Continues from the saved time, or from `floor` (the newest time the app stamped on
   * something) when that is later; held still until the world reports its own time.
   */
  restore(floor: number | null = null): void {
    const from = Math.max(this.saved ?? -Infinity, floor ?? -Infinity);
    if (Number.isFinite(from) && from > this.clock.now()) {
      this.clock.follow(from, this.clock.speed);
      this.clock.hold();
    }
  }

  /** Saves the time now (never an earlier time than already saved). */
  save(): void {
    const now = this.clock.now();
    if (this.saved !== null && now <= this.saved) return;
    this.saved = now;
    writePrivateFile(join(this.dataDir, APP_CLOCK_FILE), JSON.stringify({ at: now }));
  }

  start(): void {
    this.stop();
    this.timer = setInterval(() => this.save(), SAVE_EVERY_MS);
    this.timer.unref?.();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.save();
  }
}
