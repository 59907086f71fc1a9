/**
 * Alerts across a crash and a restart of the app on the simulated world's clock: real SQLite
 * files in a temp folder, the real AppCore and launcher (never started: the service stays down,
 * which is what the app sees in the first seconds after a restart). The clock is the edge that is
 * driven: the world's time reports arrive through `follow`, exactly as the launcher hands them.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AlertCenter } from '../../../src/main/alerts/alert-center';
import { Cache } from '../../../src/main/cache/cache';
import { AppCore } from '../../../src/main/core/app-core';
import { FileSecretStore } from '../../../src/main/core/secret-store';
import { EmbeddedServiceProcess } from '../../../src/main/service-launcher/launcher';
import { JsonFileSettingsStore } from '../../../src/main/settings/json-file-settings-store';
import { ManualClock, ScaledClock } from '../../../src/shared/clock';
import { DEFAULT_SETTINGS } from '../../../src/shared/settings';
import { container, shipment } from '../../support/cache-fixtures';
import { RecordingNotifier } from '../../support/recording-notifier';

const H = 3_600_000;
// The simulated world runs days ahead of real time: the LFD is 4 days from now (Pacific).
const LFD_DAY = new Date(Date.now() + 4 * 24 * H).toISOString().slice(0, 10);
const LFD = `${LFD_DAY}T08:00:00.000Z`; // local midnight, Los Angeles, in standard time
const s = shipment({ bill_of_lading_number: 'MAEU900000002' });
const box = container(
  { number: 'MSKU3333331', pickup_lfd: LFD, current_status: 'available' },
  { shipmentId: s.id },
);

describe('alerts across a crash and restart', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'quayside-restart-'));
    // Synced before the thresholds are crossed (first seen long before them).
    const cache = Cache.open(dir);
    cache.applyPage({ shipments: [s], containers: [box] }, new Date().toISOString());
    cache.close();
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const openApp = (clock: ScaledClock) => {
    const core = new AppCore({
      appInfo: {
        name: 'Quayside',
        version: '0',
        shell: 'browser',
        platform: 'linux',
        dataDir: dir,
      },
      settingsStore: new JsonFileSettingsStore(dir),
      secretStore: new FileSecretStore(dir),
      embedded: new EmbeddedServiceProcess({
        dataDir: join(dir, 'embedded'),
        simSpeed: 600,
        seed: 42,
        fork: () => {
          throw new Error('not started in this test');
        },
      }),
      clock,
    });
    return core;
  };

  it('raises each deadline alert once, never stamped ahead of the clock', async () => {
    const { upcomingDeadlines } = (() => {
      const cache = Cache.open(dir);
      try {
        return { upcomingDeadlines: cache.upcomingDeadlines(new Date(0).toISOString()) };
      } finally {
        cache.close();
      }
    })();
    const endsAt = upcomingDeadlines[0]!.deadline.endsAt;

    // First run: the world reports times inside the 48 h, then the 24 h window.
    const firstClock = new ScaledClock();
    const first = openApp(firstClock);
    firstClock.follow(endsAt - 40 * H, 600);
    first.alerts.checkDeadlines();
    firstClock.follow(endsAt - 20 * H, 600);
    first.alerts.checkDeadlines();
    const before = first.cache.listAlerts();
    expect(before.alerts.map((a) => a.title)).toEqual([
      'LFD today for MSKU3333331',
      'LFD tomorrow for MSKU3333331',
    ]);
    // Crash: nothing is stopped or saved on the way out (the saved clock is the one written
    // when the app started, hours of simulated time behind the alerts).
    const stampedAt = Date.parse(before.alerts[0]!.createdAt);
    first.cache.close();

    // Restart: the app's clock starts at real time, days behind the world, and the world
    // restarted from a save a simulated hour older than the newest alert.
    const secondClock = new ScaledClock();
    const second = openApp(secondClock);
    try {
      expect(secondClock.now()).toBeGreaterThanOrEqual(stampedAt);
      secondClock.follow(stampedAt - H, 600);
      expect(secondClock.now()).toBeGreaterThanOrEqual(stampedAt);
      second.start();
      second.alerts.checkDeadlines();
      const after = second.cache.listAlerts();
      expect(after.total).toBe(2);
      expect(new Set(after.alerts.map((a) => a.dedupeKey)).size).toBe(2);
      for (const alert of after.alerts) {
        expect(Date.parse(alert.createdAt)).toBeLessThanOrEqual(secondClock.now());
      }
    } finally {
      await second.stop();
    }
  });

  it('never follows "LFD today" with an older "LFD tomorrow" for the same deadline', () => {
    const cache = Cache.open(dir);
    try {
      const endsAt = cache.upcomingDeadlines(new Date(0).toISOString())[0]!.deadline.endsAt;
      const notifier = new RecordingNotifier();
      // A clock that can be put anywhere stands for one that moved back (or thresholds changed).
      const late = new AlertCenter(cache, notifier, new ManualClock(endsAt - 20 * H), () => ({
        ...DEFAULT_SETTINGS.alerts,
        lfdThresholdsHours: [48, 24],
      }));
      expect(late.checkDeadlines().map((a) => a.title)).toEqual(['LFD today for MSKU3333331']);
      const early = new AlertCenter(cache, notifier, new ManualClock(endsAt - 40 * H), () => ({
        ...DEFAULT_SETTINGS.alerts,
        lfdThresholdsHours: [48, 24],
      }));
      expect(early.checkDeadlines()).toEqual([]);
      expect(notifier.notifications.map((n) => n.title)).toEqual(['LFD today for MSKU3333331']);
    } finally {
      cache.close();
    }
  });
});
