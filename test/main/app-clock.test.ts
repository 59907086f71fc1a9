/** The demo clock never moves backwards: across restarts (a saved file) and across reports. */
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { APP_CLOCK_FILE, SavedAppClock, readSavedAppTime } from '../../src/main/core/app-clock';
import { ScaledClock } from '../../src/shared/clock';

const H = 3_600_000;

describe('the app clock', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'quayside-clock-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('continues after a restart from the later of the saved time and the world', () => {
    const ahead = Date.now() + 30 * 24 * H;
    const first = new ScaledClock();
    first.follow(ahead, 600);
    const saved = new SavedAppClock(dir, first);
    saved.start();
    saved.stop();
    expect(readSavedAppTime(dir)).toBeGreaterThanOrEqual(ahead);
    expect(statSync(join(dir, APP_CLOCK_FILE)).mode & 0o777).toBe(0o600);

    // Restart: real time at first, the saved time once restored, held until the world reports.
    const second = new ScaledClock();
    new SavedAppClock(dir, second).restore();
    expect(second.now()).toBeGreaterThanOrEqual(ahead);
    expect(second.speed).toBe(1);
    // The world resumed from an older save of its own: the clock does not go back.
    second.follow(ahead - 2 * H, 600);
    expect(second.now()).toBeGreaterThanOrEqual(ahead);
    expect(second.speed).toBe(600);
    // A later report is followed.
    second.follow(ahead + 5 * H, 600);
    expect(second.now()).toBeGreaterThanOrEqual(ahead + 5 * H);
  });

  it('never saves an earlier time over a later one, and ignores an unreadable file', () => {
    writeFileSync(join(dir, APP_CLOCK_FILE), '{"at": "soon"}');
    expect(readSavedAppTime(dir)).toBeNull();
    const later = Date.now() + 10 * H;
    writeFileSync(join(dir, APP_CLOCK_FILE), JSON.stringify({ at: later }));
    const clock = new ScaledClock();
    const saved = new SavedAppClock(dir, clock);
    saved.save();
    expect(readSavedAppTime(dir)).toBe(later);
  });

  it('holds still (real speed) while the world is down', () => {
    const clock = new ScaledClock(Date.now(), 600);
    clock.hold();
    expect(clock.speed).toBe(1);
    const held = clock.now();
    expect(clock.now() - held).toBeLessThan(1_000);
  });
});
