/**
 * One alert per box per deadline, and nothing replayed while a source loads: real SQLite cache,
 * the alert centre as the sync drives it, the clock as the one faked edge.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AlertCenter, type AlertPreferences } from '../../../src/main/alerts/alert-center';
import { Cache } from '../../../src/main/cache/cache';
import type { ContainerResource } from '../../../src/shared/api/resources';
import { ManualClock } from '../../../src/shared/clock';
import { container, shipment, tempDir } from '../cache/support/fixtures';
import { RecordingNotifier } from './support/recording-notifier';

const START = Date.parse('2026-03-01T12:00:00.000Z');
const H = 3_600_000;
const at = (hours: number) => new Date(START + hours * H).toISOString();

let tmp: ReturnType<typeof tempDir>;
let cache: Cache;
let clock: ManualClock;
let notifier: RecordingNotifier;
let loading: boolean;
let center: AlertCenter;
const prefs: AlertPreferences = {
  lfdThresholdsHours: [48, 24],
  etaChangeThresholdHours: 12,
  desktopNotifications: true,
  kinds: {},
};

beforeEach(() => {
  tmp = tempDir('quayside-one-alert-');
  cache = Cache.open(tmp.dir);
  clock = new ManualClock(START);
  notifier = new RecordingNotifier();
  loading = false;
  center = new AlertCenter(
    cache,
    notifier,
    clock,
    () => prefs,
    () => loading,
  );
});
afterEach(() => {
  center.stop();
  cache.close();
  tmp.remove();
});

const s = shipment({ bill_of_lading_number: 'MAEU900000002' });

function write(c: ContainerResource) {
  const outcome = cache.applyPage(
    { shipments: [s], containers: [c] },
    new Date(clock.now()).toISOString(),
    center.detect,
  );
  center.deliver(outcome.alerts);
  return outcome.alerts;
}

describe('LFD approaching, one alert per box', () => {
  it('lets the earliest unmet deadline speak and name the later one', () => {
    // Terminal LFD 3 Mar, line LFD 4 Mar (PST): free time ends 08:00Z on 4 and 5 Mar.
    write(
      container(
        {
          number: 'MSKU3333330',
          current_status: 'available',
          pickup_lfd: at(68),
          import_deadlines: {
            pickup_lfd_line: at(68),
            pickup_lfd_terminal: at(44),
            pickup_lfd_rail: null,
          },
        },
        { shipmentId: s.id },
      ),
    );
    center.start();
    // 3 Mar 09:00Z: the terminal's "tomorrow" (48 h) and "today" (24 h) have been crossed, and
    // at the same instant as the terminal's "today", the line's "tomorrow": that one stays in
    // the terminal's alert instead of being a second alert for the box.
    clock.advanceTo(Date.parse('2026-03-03T09:00:00Z'));
    expect(notifier.notifications.map((n) => n.title)).toEqual([
      'LFD tomorrow for MSKU3333330',
      'LFD today for MSKU3333330',
    ]);
    expect(notifier.notifications[1]!.body).toBe(
      'Terminal LFD: Tue 3 Mar 2026 PST (free time ends at midnight, 1d 0h left).' +
        ' Then Line LFD Wed 4 Mar 2026 PST.',
    );
    // Until the terminal's free time ends, nothing more about this box.
    clock.advanceTo(Date.parse('2026-03-04T07:59:00Z'));
    expect(notifier.notifications).toHaveLength(2);
    // Then the line's deadline drives: its own "today", once.
    clock.advanceTo(Date.parse('2026-03-04T09:00:00Z'));
    expect(notifier.notifications).toHaveLength(3);
    expect(notifier.notifications[2]!.title).toBe('LFD today for MSKU3333330');
    expect(notifier.notifications[2]!.body).toMatch(/^Line LFD: Wed 4 Mar 2026 PST/);
    expect(cache.listAlerts().total).toBe(3);
  });
});

describe('a source that is still loading', () => {
  it('stores no alert for what its first sync brings, and alerts on changes after', () => {
    loading = true;
    const base = container(
      { number: 'MSKU4444440', current_status: 'not_available', pickup_lfd: at(100) },
      { shipmentId: s.id },
    );
    write(base);
    const moved = container(
      { ...base.attributes, pickup_lfd: at(124), updated_at: at(1) },
      { id: base.id, shipmentId: s.id },
    );
    // A later page of the same first sync changes the box: still the baseline, not news.
    expect(write(moved)).toEqual([]);
    loading = false;
    const movedAgain = container(
      { ...base.attributes, pickup_lfd: at(148), updated_at: at(2) },
      { id: base.id, shipmentId: s.id },
    );
    expect(write(movedAgain).map((a) => a.title)).toEqual(['LFD changed for MSKU4444440']);
  });
});
