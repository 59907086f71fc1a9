/**
 * The shared date style writes times in their own zone with its short name; the name is kept per
 * zone and offset, so it must still follow daylight time and each zone's own abbreviation.
 */
import { describe, expect, it } from 'vitest';
import { DateTime } from 'luxon';
import {
  formatDateTime,
  formatLocalDate,
  formatLocalDay,
  formatShortDateTime,
  localDateZoneName,
  zoneName,
} from '../../src/shared/date-style';

const ZONES = [
  'America/Los_Angeles',
  'America/New_York',
  'Europe/Amsterdam',
  'Europe/London',
  'Asia/Shanghai',
  'Australia/Sydney',
  'America/Sao_Paulo',
  'UTC',
];
// Both sides of the northern and southern daylight-time changes, a year apart.
const INSTANTS = [
  '2026-01-15T12:00:00Z',
  '2026-03-29T00:30:00Z',
  '2026-03-29T01:30:00Z',
  '2026-04-05T15:30:00Z',
  '2026-04-05T16:30:00Z',
  '2026-07-15T12:00:00Z',
  '2026-10-04T15:30:00Z',
  '2026-10-04T16:30:00Z',
  '2026-11-01T08:30:00Z',
  '2026-11-01T09:30:00Z',
  '2027-01-15T12:00:00Z',
];

describe('date style', () => {
  it("names each zone as luxon's ZZZZ does, on both sides of its daylight-time changes", () => {
    for (const zone of ZONES) {
      for (const iso of INSTANTS) {
        const at = DateTime.fromISO(iso, { zone: 'utc' }).setZone(zone);
        expect(zoneName(at), `${zone} at ${iso}`).toBe(at.toFormat('ZZZZ'));
        // Asked again (now from the kept names), and written into the date style.
        expect(formatDateTime(iso, zone)).toBe(at.toFormat('d LLL yyyy HH:mm ZZZZ'));
        expect(formatShortDateTime(iso, zone)).toBe(at.toFormat('d LLL HH:mm ZZZZ'));
      }
    }
  });

  it('writes a last free day with its weekday and the short name of its zone', () => {
    expect(formatLocalDate('2026-07-06', 'America/Los_Angeles')).toBe('Mon 6 Jul PDT');
    expect(formatLocalDate('2026-12-07', 'America/Los_Angeles', true)).toBe('Mon 7 Dec 2026 PST');
    // Asked again: the same text.
    expect(formatLocalDate('2026-07-06', 'America/Los_Angeles')).toBe('Mon 6 Jul PDT');
    expect(formatLocalDay('2026-07-06', 'America/Los_Angeles')).toBe('6 Jul');
    expect(localDateZoneName('2026-07-06', 'America/Los_Angeles')).toBe('PDT');
    expect(localDateZoneName('2026-12-07', 'America/Los_Angeles')).toBe('PST');
    expect(localDateZoneName('2026-12-07', 'Europe/Amsterdam')).toBe('GMT+1');
    expect(formatLocalDay('not a date', 'UTC')).toBe('not a date');
  });

  it('falls back to the local zone for an unknown zone and keeps unreadable text', () => {
    const local = DateTime.fromISO('2026-07-15T12:00:00Z', { zone: 'utc' }).setZone('local');
    expect(formatDateTime('2026-07-15T12:00:00Z', 'Not/AZone')).toBe(
      local.toFormat('d LLL yyyy HH:mm ZZZZ'),
    );
    expect(formatDateTime('not a date', 'UTC')).toBe('not a date');
    expect(formatDateTime(null)).toBe('—');
  });
});
