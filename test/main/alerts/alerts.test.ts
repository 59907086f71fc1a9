import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AlertCenter, type AlertPreferences } from '../../../src/main/alerts/alert-center';
import { formatInZone } from '../../../src/main/alerts/format';
import { RecordingNotifier } from '../../support/recording-notifier';
import { Cache } from '../../../src/main/cache/cache';
import type { ContainerResource } from '../../../src/shared/api/resources';
import { ManualClock } from '../../../src/shared/clock';
import { container, shipment, tempDir } from '../../support/cache-fixtures';

const START = Date.parse('2026-03-01T12:00:00.000Z');
const H = 3_600_000;
const at = (hours: number) => new Date(START + hours * H).toISOString();

let tmp: ReturnType<typeof tempDir>;
let cache: Cache;
let clock: ManualClock;
let notifier: RecordingNotifier;
let prefs: AlertPreferences;
let center: AlertCenter;

beforeEach(() => {
  tmp = tempDir('quayside-alerts-');
  cache = Cache.open(tmp.dir);
  clock = new ManualClock(START);
  notifier = new RecordingNotifier();
  prefs = {
    lfdThresholdsHours: [48, 24],
    etaChangeThresholdHours: 12,
    desktopNotifications: true,
    kinds: {},
  };
  center = new AlertCenter(cache, notifier, clock, () => prefs);
});
afterEach(() => {
  center.stop();
  cache.close();
  tmp.remove();
});

const s = shipment({ bill_of_lading_number: 'MAEU900000001', pod_eta_at: at(100) });
let version = 0;

/** Writes a container as the sync does: one page, alerts stored in it, notified after commit. */
function write(c: ContainerResource) {
  const outcome = cache.applyPage(
    { shipments: [s], containers: [c] },
    new Date(clock.now()).toISOString(),
    center.detect,
  );
  center.deliver(outcome.alerts);
  return outcome.alerts;
}

function next(base: ContainerResource, attrs: Partial<ContainerResource['attributes']>) {
  version++;
  return container(
    { ...base.attributes, ...attrs, updated_at: at(version / 100) },
    { id: base.id, shipmentId: s.id },
  );
}

const base = container(
  {
    number: 'MSKU1111110',
    current_status: 'not_available',
    availability_known: true,
    available_for_pickup: false,
    pickup_lfd: '2026-03-04T07:59:00.000Z',
    import_deadlines: {
      pickup_lfd_line: '2026-03-04T07:59:00.000Z',
      pickup_lfd_terminal: '2026-03-11T07:59:00.000Z',
      pickup_lfd_rail: null,
    },
  },
  { shipmentId: s.id },
);

describe('alerts from changes', () => {
  it('raises nothing for the initial sync of old data', () => {
    expect(write(base)).toEqual([]);
    expect(notifier.notifications).toEqual([]);
    expect(cache.listAlerts().total).toBe(0);
  });

  it('a changed LFD produces exactly one alert and one notification, in the terminal time zone', () => {
    write(base);
    const moved = next(base, {
      pickup_lfd: '2026-03-06T07:59:00.000Z',
      import_deadlines: {
        ...base.attributes.import_deadlines!,
        pickup_lfd_line: '2026-03-06T07:59:00.000Z',
      },
    });
    const alerts = write(moved);
    expect(alerts.map((a) => a.kind)).toEqual(['lfd_changed']);
    expect(notifier.notifications).toHaveLength(1);
    const [n] = notifier.notifications;
    expect(n!.containerId).toBe(base.id);
    expect(n!.title).toBe('LFD changed for MSKU1111110');
    // The link to pass on opens the same box from any system.
    expect(n!.link).toBe('quayside://find?q=MSKU1111110');
    // 07:59 UTC is 23:59 the day before in Los Angeles (PST): a last free day is that local date.
    expect(n!.body).toContain('Line LFD: Tue 3 Mar 2026 PST -> Thu 5 Mar 2026 PST');
    expect(n!.body).toContain('Acts first: Line LFD Thu 5 Mar 2026 PST');
    // The wire's coalesced pickup_lfd repeats the line's date: not a second line of its own.
    expect(n!.body).not.toContain('Last free day');
    expect(n!.body).not.toContain('Terminal LFD');
    // The same write again (a re-sync, a retried page) stores and notifies nothing more.
    expect(write(moved)).toEqual([]);
    expect(
      cache.insertAlerts(
        center.detect({ shipments: [], containers: [{ before: base, after: moved }] }),
        at(1),
      ),
    ).toEqual([]);
    expect(cache.listAlerts().total).toBe(1);
    expect(notifier.notifications).toHaveLength(1);
  });

  it('a line LFD moved past the terminal LFD: the alert names the terminal date, which acts first', () => {
    write(base);
    const moved = next(base, {
      pickup_lfd: '2026-03-13T06:59:00.000Z',
      import_deadlines: {
        ...base.attributes.import_deadlines!,
        pickup_lfd_line: '2026-03-13T06:59:00.000Z',
      },
    });
    const [alert] = write(moved);
    expect(alert!.kind).toBe('lfd_changed');
    const body = notifier.notifications[0]!.body;
    // The line-first pickup_lfd is now the 12th; the terminal's storage starts after the 11th.
    expect(body.split('\n')[0]).toBe('Acts first: Terminal LFD Wed 11 Mar 2026 PDT');
    expect(body).toContain('Line LFD: Tue 3 Mar 2026 PST -> Thu 12 Mar 2026 PDT');
    expect(body).not.toContain('Last free day');
  });

  it('raises each kind of change once', () => {
    write(base);
    const kinds = (c: ContainerResource) => write(c).map((a) => a.kind);
    let c = next(base, {
      holds_at_pod_terminal: [{ name: 'customs', status: 'hold', description: 'CBP exam' }],
    });
    expect(kinds(c)).toEqual(['hold_placed']);
    c = next(c, { holds_at_pod_terminal: [] });
    expect(kinds(c)).toEqual(['hold_cleared']);
    c = next(c, { available_for_pickup: true, current_status: 'available' });
    expect(kinds(c)).toEqual(['ready_for_pickup']);
    c = next(c, { pickup_appointment_at: '2026-03-05T16:00:00.000Z' });
    expect(kinds(c)).toEqual(['appointment_changed']);
    c = next(c, { ind_eta_at: '2026-03-20T00:00:00.000Z' });
    expect(kinds(c)).toEqual([]);
    c = next(c, { ind_eta_at: '2026-03-20T06:00:00.000Z' });
    expect(kinds(c)).toEqual([]);
    c = next(c, { ind_eta_at: '2026-03-21T06:00:00.000Z' });
    expect(kinds(c)).toEqual(['eta_changed']);
    c = next(c, { current_status: 'picked_up', pod_full_out_at: '2026-03-06T10:00:00.000Z' });
    expect(kinds(c)).toEqual(['picked_up']);
    c = next(c, {
      current_status: 'empty_returned',
      empty_terminated_at: '2026-03-08T10:00:00.000Z',
    });
    expect(kinds(c)).toEqual(['empty_returned']);
    expect(notifier.notifications.map((n) => n.kind)).toEqual([
      'hold_placed',
      'hold_cleared',
      'ready_for_pickup',
      'appointment_changed',
      'eta_changed',
      'picked_up',
      'empty_returned',
    ]);
  });

  it('raises a shipment ETA move beyond the threshold', () => {
    write(base);
    const later = shipment({ ...s.attributes, pod_eta_at: at(130), updated_at: at(2) }, s.id);
    const outcome = cache.applyPage({ shipments: [later] }, at(0), center.detect);
    expect(outcome.alerts.map((a) => a.kind)).toEqual(['eta_changed']);
    expect(outcome.alerts[0]!.title).toBe('ETA moved later for MAEU900000001');
    expect(outcome.alerts[0]!.containerId).toBe(base.id);
    const small = shipment({ ...later.attributes, pod_eta_at: at(135), updated_at: at(3) }, s.id);
    expect(cache.applyPage({ shipments: [small] }, at(0), center.detect).alerts).toEqual([]);
  });

  it('stores alerts with read state and respects the notification switches', () => {
    write(base);
    prefs.kinds = { hold_placed: false };
    const held = next(base, {
      holds_at_pod_terminal: [{ name: 'customs', status: 'hold', description: null }],
    });
    write(held);
    prefs.desktopNotifications = false;
    write(next(held, { pickup_appointment_at: '2026-03-05T16:00:00.000Z' }));
    expect(notifier.notifications).toEqual([]);
    const list = cache.listAlerts();
    expect(list).toMatchObject({ total: 2, unread: 2 });
    expect(cache.unnotifiedAlerts()).toEqual([]);
    expect(cache.markAlertsRead(at(1), [list.alerts[0]!.id])).toBe(1);
    expect(cache.listAlerts({ unreadOnly: true }).total).toBe(1);
    expect(cache.markAlertsRead(at(1))).toBe(1);
    expect(cache.listAlerts()).toMatchObject({ total: 2, unread: 0 });
  });

  it('notifies alerts stored by a run that stopped before notifying', () => {
    write(base);
    const c = next(base, { pickup_appointment_at: '2026-03-05T16:00:00.000Z' });
    // Stored in the transaction, then the process "dies" before delivering.
    cache.applyPage({ containers: [c] }, at(0), center.detect);
    expect(notifier.notifications).toHaveLength(0);
    center.deliverPending();
    center.deliverPending();
    expect(notifier.notifications.map((n) => n.kind)).toEqual(['appointment_changed']);
  });
});

describe('LFD approaching', () => {
  it('fires 48 h and 24 h before free time ends (local midnight after the LFD), once each', () => {
    // 04:00 PST on 4 Mar: the last free day is 4 Mar, free time ends at 00:00 PST on 5 Mar.
    const lfd = START + 72 * H;
    const endsAt = Date.parse('2026-03-05T08:00:00Z');
    const c = container(
      {
        number: 'MSKU2222220',
        pickup_lfd: new Date(lfd).toISOString(),
        current_status: 'available',
      },
      { shipmentId: s.id },
    );
    write(c);
    center.start();
    expect(notifier.notifications).toEqual([]);
    clock.advance(endsAt - 48 * H - START - 1000);
    expect(notifier.notifications).toEqual([]);
    clock.advance(1000);
    expect(notifier.notifications.map((n) => n.title)).toEqual(['LFD tomorrow for MSKU2222220']);
    clock.advance(23 * H);
    expect(notifier.notifications).toHaveLength(1);
    clock.advance(1 * H);
    expect(notifier.notifications.map((n) => n.title)).toEqual([
      'LFD tomorrow for MSKU2222220',
      'LFD today for MSKU2222220',
    ]);
    expect(notifier.notifications[1]!.body).toBe(
      'LFD: Wed 4 Mar 2026 PST (free time ends at midnight, 1d 0h left).',
    );
    clock.advance(48 * H);
    expect(notifier.notifications).toHaveLength(2);
    expect(cache.listAlerts().total).toBe(2);
  });

  it('stays silent for deadlines already inside a threshold when first synced, and for picked-up containers', () => {
    write(container({ number: 'OLDU0000001', pickup_lfd: at(30) }, { shipmentId: s.id }));
    write(
      container(
        {
          number: 'GONE0000001',
          pickup_lfd: at(60),
          current_status: 'picked_up',
          pod_full_out_at: at(-1),
        },
        { shipmentId: s.id },
      ),
    );
    center.start();
    // LFD 2 Mar (PST), free time ends 08:00Z on 3 Mar. Already inside 48 h when first seen: no
    // "48 h" alert.
    clock.advance(20 * H - 1000);
    expect(notifier.notifications).toEqual([]);
    // The 24 h crossing (00:00 PST on the day) happens after it was first seen: that one is news.
    clock.advance(1000);
    expect(notifier.notifications.map((n) => n.title)).toEqual(['LFD today for OLDU0000001']);
    clock.advance(60 * H);
    expect(notifier.notifications).toHaveLength(1);
  });

  it('formats in the given zone and falls back to UTC for unknown zones', () => {
    expect(formatInZone('2026-07-01T12:00:00Z', 'Asia/Shanghai')).toBe('1 Jul 2026 20:00 GMT+8');
    expect(formatInZone('2026-07-01T12:00:00Z', 'Not/AZone')).toBe('1 Jul 2026 12:00 UTC');
    expect(formatInZone(null, 'UTC')).toBe('none');
  });
});

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
    let loading = true;
    center = new AlertCenter(
      cache,
      notifier,
      clock,
      () => prefs,
      () => loading,
    );
    const box = container(
      { number: 'MSKU4444440', current_status: 'not_available', pickup_lfd: at(100) },
      { shipmentId: s.id },
    );
    write(box);
    const moved = container(
      { ...box.attributes, pickup_lfd: at(124), updated_at: at(1) },
      { id: box.id, shipmentId: s.id },
    );
    // A later page of the same first sync changes the box: still the baseline, not news.
    expect(write(moved)).toEqual([]);
    loading = false;
    const movedAgain = container(
      { ...box.attributes, pickup_lfd: at(148), updated_at: at(2) },
      { id: box.id, shipmentId: s.id },
    );
    expect(write(movedAgain).map((a) => a.title)).toEqual(['LFD changed for MSKU4444440']);
  });
});
