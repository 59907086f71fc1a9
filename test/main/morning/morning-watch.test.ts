/**
 * The daily digest and the empty-return reminder on a manual app clock, against a real cache
 * file: each fires once at its time, carries the counts, and never again for the same day.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AlertCenter } from '../../../src/main/alerts/alert-center';
import type { AlertNotification } from '../../../src/main/alerts/notifier';
import { Cache } from '../../../src/main/cache/cache';
import { notificationRoute } from '../../../src/main/desktop/notification-target';
import { MorningWatch } from '../../../src/main/morning/morning-watch';
import { ManualClock } from '../../../src/shared/clock';
import { DEFAULT_SETTINGS, type Settings } from '../../../src/shared/settings';
import { container, shipment, tempDir, terminal } from '../../support/cache-fixtures';

const NY = 'America/New_York';
const HOUR = 3_600_000;
/** 05:00 in New York, Mon 23 Nov 2026. */
const START = Date.parse('2026-11-23T10:00:00Z');

let tmp: ReturnType<typeof tempDir>;
let cache: Cache;
let clock: ManualClock;
let notified: AlertNotification[];
let settings: Settings;
let watch: MorningWatch;

beforeEach(() => {
  tmp = tempDir();
  cache = Cache.open(tmp.dir);
  clock = new ManualClock(START);
  notified = [];
  settings = {
    ...DEFAULT_SETTINGS,
    digest: { enabled: true, time: '07:30' },
    costs: {
      terminals: [{ terminal: '*', currency: 'USD', tiers: [{ fromDay: 1, perDay: 200 }] }],
      lines: [{ scac: '*', freeDays: 3, currency: 'USD', perDay: 150 }],
    },
  };
  const alerts = new AlertCenter(cache, { notify: (n) => notified.push(n) }, clock);
  watch = new MorningWatch(cache, alerts, clock, () => settings, NY);
});
afterEach(() => {
  watch.stop();
  cache.close();
  tmp.remove();
});

/** At Maher (LFDs sent as the first instant of the day): one ready box due today, one due tomorrow, one 2 days past its LFD; one picked up. */
function seed() {
  const maher = terminal('Maher Terminals');
  const s = shipment({
    port_of_discharge_locode: 'USNYC',
    pod_timezone: NY,
    pod_ata_at: '2026-11-18T12:00:00Z',
    shipping_line_scac: 'MSCU',
  });
  const ready = (number: string, lfd: string) =>
    container(
      {
        number,
        current_status: 'available',
        availability_known: true,
        available_for_pickup: true,
        pod_timezone: NY,
        pod_arrived_at: '2026-11-18T12:00:00Z',
        pod_discharged_at: '2026-11-18T20:00:00Z',
        pickup_lfd: lfd,
        import_deadlines: {
          pickup_lfd_line: null,
          pickup_lfd_terminal: lfd,
          pickup_lfd_rail: null,
        },
      },
      { shipmentId: s.id, terminalId: maher.id },
    );
  const pickedUp = container(
    {
      number: 'MSCU4444440',
      current_status: 'picked_up',
      pod_timezone: NY,
      pod_full_out_at: '2026-11-22T15:00:00Z',
    },
    { shipmentId: s.id, terminalId: maher.id },
  );
  cache.applyPage(
    {
      shipments: [s],
      terminals: [maher],
      containers: [
        ready('MSCU1111110', '2026-11-23T05:00:00.000Z'),
        ready('MSCU2222220', '2026-11-24T05:00:00.000Z'),
        ready('MSCU3333330', '2026-11-21T05:00:00.000Z'),
        pickedUp,
      ],
    },
    new Date(START).toISOString(),
  );
  return { pickedUp };
}

const digests = () => notified.filter((n) => n.kind === 'daily_digest');

describe('the daily digest', () => {
  it('fires once at its local time on the app clock, with what to move, what is due and what accrues', () => {
    seed();
    watch.start();
    expect(digests()).toHaveLength(0); // 05:00: not yet
    clock.advance(2 * HOUR + 29 * 60_000); // 07:29
    expect(digests()).toHaveLength(0);
    clock.advance(60_000); // 07:30
    expect(digests()).toHaveLength(1);
    const [digest] = digests();
    expect(digest?.title).toBe('Your morning: Mon 23 Nov EST');
    // LFD 21 Nov: Sun and Mon charged at $200. One box to move today, one due tomorrow.
    expect(digest?.body).toBe('1 to move today, 1 LFD tomorrow, $400 accruing.');
    expect(notificationRoute(digest?.containerId, digest?.kind)).toBe('/worklist');

    // Later checks, a restart and the rest of the day add nothing.
    clock.advance(HOUR);
    expect(watch.check()).toBe(0);
    watch.start();
    clock.advance(12 * HOUR);
    expect(digests()).toHaveLength(1);
    // The next morning brings the next one.
    clock.advance(12 * HOUR);
    expect(digests()).toHaveLength(2);
  });

  it('skips a day it missed by hours, and stays silent when switched off', () => {
    seed();
    clock.advance(6 * HOUR); // 11:00, long after 07:30
    watch.start();
    expect(digests()).toHaveLength(0);
    settings = { ...settings, digest: { enabled: false, time: '07:30' } };
    clock.advance(24 * HOUR);
    expect(digests()).toHaveLength(0);
  });
});

describe('the empty-return reminder', () => {
  it('warns once a day before per diem starts, naming the deadline and the rate', () => {
    const { pickedUp } = seed();
    settings = { ...settings, digest: { ...settings.digest, enabled: false } };
    watch.start();
    // Picked up Sun 22 Nov (NY): 3 free days, free through Wed 25 Nov, per diem from Thursday.
    expect(notified.filter((n) => n.kind === 'empty_return_due')).toHaveLength(0);
    clock.advanceTo(Date.parse('2026-11-25T05:00:00Z') + 60_000); // 00:01 Wed
    const reminders = notified.filter((n) => n.kind === 'empty_return_due');
    expect(reminders).toHaveLength(1);
    expect(reminders[0]).toMatchObject({
      containerId: pickedUp.id,
      title: 'Empty return due today for MSCU4444440',
    });
    expect(reminders[0]?.body).toContain('Wed 25 Nov 2026 EST');
    expect(reminders[0]?.body).toContain('$150 a day per diem to MSCU');
    clock.advance(20 * HOUR);
    expect(notified.filter((n) => n.kind === 'empty_return_due')).toHaveLength(1);
  });
});
