/**
 * `<dataDir>/sim-clock.json`: where a simulated world stopped and the origin its scenarios are
 * laid out around, so a restart continues the same world instead of replaying it from now.
 */
import fs from 'node:fs';
import path from 'node:path';
import { writePrivateFile } from '../service/security/private-files';

export const SIM_CLOCK_FILE = 'sim-clock.json';

export interface SavedSimClock {
  /** Simulated time when last saved (epoch ms). */
  simNow: number;
  /** The world's origin (epoch ms, on the hour). */
  origin: number;
  seed: number;
}

/** The saved clock of the world of `seed`, or null when there is none (or it is another's). */
export function readSimClock(dataDir: string, seed: number): SavedSimClock | null {
  try {
    const saved = JSON.parse(
      fs.readFileSync(path.join(dataDir, SIM_CLOCK_FILE), 'utf8'),
    ) as Partial<SavedSimClock>;
    const valid =
      Number.isFinite(saved.simNow) && Number.isFinite(saved.origin) && saved.seed === seed;
    return valid ? (saved as SavedSimClock) : null;
  } catch {
    return null;
  }
}

export function writeSimClock(dataDir: string, saved: SavedSimClock): void {
  writePrivateFile(path.join(dataDir, SIM_CLOCK_FILE), JSON.stringify(saved));
}
