import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import {
  LFD_SOURCES,
  appointmentAfterLfd,
  containerLocation,
  deadlineMissedByAppointment,
  headlineDeadline,
  nextDeadline,
  placeZone,
  lfdCountdown,
  lfdDayPhrase,
  lfdDaysAway,
  lfdDeadlines,
  lfdDueFrom,
  lfdEndsAt,
  lfdLocalDate,
  lfdUrgencyOf,
  lfdZone,
  type LfdDeadlines,
  type LfdSource,
} from '../../src/shared/container';

const LA = 'America/Los_Angeles';
const NY = 'America/New_York';
const CHI = 'America/Chicago';
const at = (iso: string): number => Date.parse(iso);

describe('the last free day is a calendar day of its zone', () => {
  it('reads the first instant of the day sent by the feeds as that local date', () => {
    expect(lfdLocalDate('2026-11-23T08:00:00.000Z', LA)).toBe('2026-11-23');
    // The rail box: 06:00Z is 22:00 PST on the 18th but midnight CST on the 19th.
    expect(lfdLocalDate('2026-11-19T06:00:00.000Z', LA)).toBe('2026-11-18');
    expect(lfdLocalDate('2026-11-19T06:00:00.000Z', CHI)).toBe('2026-11-19');
    expect(lfdLocalDate('2026-11-19', CHI)).toBe('2026-11-19');
    expect(lfdLocalDate('not a date', CHI)).toBeNull();
  });

  it('ends at the following local midnight', () => {
    expect(lfdEndsAt('2026-11-23', LA)).toBe(at('2026-11-24T08:00:00Z'));
    expect(lfdEndsAt('2026-11-24', NY)).toBe(at('2026-11-25T05:00:00Z'));
  });

  it('is 23 or 25 hours long on the days the clocks change', () => {
    // US spring forward 8 Mar 2026, fall back 1 Nov 2026.
    expect(lfdEndsAt('2026-03-08', LA) - at('2026-03-08T08:00:00Z')).toBe(23 * 3_600_000);
    expect(lfdEndsAt('2026-11-01', LA) - at('2026-11-01T07:00:00Z')).toBe(25 * 3_600_000);
    expect(lfdLocalDate('2026-11-01T07:00:00Z', LA)).toBe('2026-11-01');
    expect(lfdLocalDate('2026-03-08T08:00:00Z', LA)).toBe('2026-03-08');
  });

  it('counts down through the whole day and is overdue from the next morning', () => {
    // 05:30 PST on the LFD day: not overdue, 18h 30m left.
    expect(lfdCountdown('2026-11-23', LA, at('2026-11-23T13:30:00Z'))).toBe('18h 30m left');
    expect(lfdUrgencyOf('2026-11-23', LA, at('2026-11-23T13:30:00Z'))).toBe('today');
    // 05:30 PST the next morning.
    expect(lfdCountdown('2026-11-23', LA, at('2026-11-24T13:30:00Z'))).toBe('overdue 5h 30m');
    expect(lfdUrgencyOf('2026-11-23', LA, at('2026-11-24T13:30:00Z'))).toBe('overdue');
    expect(lfdUrgencyOf('2026-11-23', LA, at('2026-11-24T08:00:00Z'))).toBe('overdue');
    expect(lfdUrgencyOf('2026-11-23', LA, at('2026-11-24T07:59:59Z'))).toBe('today');
  });

  it('judges urgency by calendar days of the zone, not rolling hours', () => {
    // 23:00 PST on the 22nd: the 24th is two calendar days away although only 25 h remain.
    const late = at('2026-11-23T07:00:00Z');
    expect(lfdUrgencyOf('2026-11-23', LA, late)).toBe('soon');
    expect(lfdUrgencyOf('2026-11-24', LA, late)).toBe('soon');
    expect(lfdUrgencyOf('2026-11-26', LA, late)).toBe('later');
    // The same instant is already the 23rd in New York.
    expect(lfdUrgencyOf('2026-11-23', NY, late)).toBe('today');
  });

  it('phrases alerts by calendar day', () => {
    const morning = at('2026-11-23T13:30:00Z');
    expect(lfdDayPhrase('2026-11-23', LA, morning)).toBe('LFD today');
    expect(lfdDayPhrase('2026-11-24', LA, morning)).toBe('LFD tomorrow');
    expect(lfdDayPhrase('2026-11-26', LA, morning)).toBe('LFD in 3 days');
    expect(lfdDayPhrase('2026-11-22', LA, morning)).toBe('LFD passed yesterday');
  });
});

describe('every deadline source, each in its zone', () => {
  const zones = { port: LA, destination: CHI };
  const values: Record<LfdSource, string> = {
    line: '2026-11-24T08:00:00.000Z',
    terminal: '2026-11-23T08:00:00.000Z',
    rail: '2026-11-19T06:00:00.000Z',
  };

  it('reads line and terminal at the port and rail at the destination ramp', () => {
    expect(lfdZone('line', zones)).toBe(LA);
    expect(lfdZone('terminal', zones)).toBe(LA);
    expect(lfdZone('rail', zones)).toBe(CHI);
    expect(lfdZone('rail', { port: LA })).toBe(LA);
    expect(lfdZone('line', { port: 'Not/AZone' })).toBe('UTC');
  });

  // All 7 non-empty combinations of the three sources.
  const combos: LfdSource[][] = [];
  for (let mask = 1; mask < 8; mask += 1)
    combos.push(LFD_SOURCES.filter((_, i) => mask & (1 << i)));

  it.each(combos.map((c) => [c.join('+'), c] as const))(
    '%s: shows every source, binds by precedence, sorts earliest first',
    (_name, sources) => {
      const input: LfdDeadlines = Object.fromEntries(sources.map((s) => [s, values[s]]));
      const list = lfdDeadlines(input, zones);
      expect(list.map((d) => d.source).sort()).toEqual([...sources].sort());
      const expectedBinding = LFD_SOURCES.find((s) => sources.includes(s));
      expect(list.filter((d) => d.binding).map((d) => d.source)).toEqual([expectedBinding]);
      for (let i = 1; i < list.length; i += 1) {
        expect(list[i]!.endsAt).toBeGreaterThanOrEqual(list[i - 1]!.endsAt);
      }
    },
  );

  it('heads with the earliest deadline, not the line-first pickup_lfd, and never calls a passed one next', () => {
    // ECMU8363252: terminal LFD 27 Nov, line LFD 28 Nov; pickup_lfd (the wire's) is the line's.
    const list = lfdDeadlines(
      { line: '2026-11-28T08:00:00.000Z', terminal: '2026-11-27T08:00:00.000Z' },
      { port: LA },
    );
    expect(list.find((d) => d.binding)?.source).toBe('line');
    const morning = at('2026-11-27T13:30:00Z');
    expect(headlineDeadline(list)?.source).toBe('terminal');
    expect(nextDeadline(list, morning)?.source).toBe('terminal');
    // The terminal's day is over: it stays the headline, passed; the line's is next.
    const after = at('2026-11-28T13:30:00Z');
    expect(headlineDeadline(list)?.source).toBe('terminal');
    expect(lfdUrgencyOf(list[0]!.date, list[0]!.zone, after)).toBe('overdue');
    expect(nextDeadline(list, after)?.source).toBe('line');
    // All past: none is next.
    expect(nextDeadline(list, at('2026-11-30T00:00:00Z'))).toBeNull();
    expect(headlineDeadline([])).toBeNull();
  });

  it('at a rail ramp the rail LFD counts, read and shown in the ramp zone', () => {
    // CBHU2937722 at St. Louis: rail LFD 21 Nov (CST), line LFD 23 Nov, terminal LFD 20 Nov.
    const list = lfdDeadlines(
      {
        line: '2026-11-23T08:00:00.000Z',
        terminal: '2026-11-20T08:00:00.000Z',
        rail: '2026-11-21T06:00:00.000Z',
      },
      { port: LA, destination: CHI },
    );
    // At the port the terminal's comes first; once the box left on rail, the ramp's rail LFD.
    expect(headlineDeadline(list, 'terminal')?.source).toBe('terminal');
    const atRamp = headlineDeadline(list, 'ramp');
    expect(atRamp).toMatchObject({ source: 'rail', date: '2026-11-21', zone: CHI });
    expect(headlineDeadline(list, 'rail')?.source).toBe('rail');
    const now = at('2026-11-27T15:00:00Z');
    expect(lfdDayPhrase(atRamp!.date, atRamp!.zone, now)).toBe('LFD passed 6 days ago');
    expect(nextDeadline(list, now, 'ramp')).toBeNull();
    // Without a rail LFD, a box on rail still has the line's; the terminal's no longer runs.
    const noRail = list.filter((d) => d.source !== 'rail');
    expect(headlineDeadline(noRail, 'ramp')?.source).toBe('line');
    // The pickup there is read in the ramp's zone.
    expect(placeZone('ramp', { port: LA, destination: CHI })).toBe(CHI);
    expect(placeZone('rail', { port: LA, destination: CHI })).toBe(CHI);
    expect(placeZone('terminal', { port: LA, destination: CHI })).toBe(LA);
    expect(placeZone('ramp', { port: LA, destination: 'Not/AZone' })).toBe(LA);
  });

  it('drops deadlines it cannot read and ignores empty ones', () => {
    expect(lfdDeadlines({ line: null, terminal: 'garbage', rail: undefined }, zones)).toEqual([]);
    expect(lfdDeadlines(null, zones)).toEqual([]);
  });

  it('flags an appointment booked after free time ended', () => {
    const deadline = { endsAt: lfdEndsAt('2026-11-18', LA) };
    expect(appointmentAfterLfd('2026-11-22T17:00:00Z', deadline)).toBe(true);
    expect(appointmentAfterLfd('2026-11-18T23:00:00Z', deadline)).toBe(false);
    expect(appointmentAfterLfd(null, deadline)).toBe(false);
    expect(appointmentAfterLfd('2026-11-22T17:00:00Z', null)).toBe(false);
  });

  it('names the first deadline an appointment misses, binding or not', () => {
    const list = lfdDeadlines(
      { line: '2026-11-24T08:00:00.000Z', terminal: '2026-11-23T08:00:00.000Z' },
      { port: LA },
    );
    // 09:00 PST on the 24th: the terminal's day is over, the line's is not.
    expect(deadlineMissedByAppointment('2026-11-24T17:00:00Z', list)?.source).toBe('terminal');
    expect(deadlineMissedByAppointment('2026-11-23T17:00:00Z', list)).toBeNull();
    expect(deadlineMissedByAppointment(null, list)).toBeNull();
  });
});

describe('calendar windows for the board', () => {
  it('counts a deadline as due within n days from the local morning n - 1 days before it', () => {
    expect(lfdDueFrom('2026-11-23', LA, 1)).toBe(at('2026-11-23T08:00:00Z'));
    expect(lfdDueFrom('2026-11-23', LA, 3)).toBe(at('2026-11-21T08:00:00Z'));
    // Across the November change: 3 Nov is PST, 1 Nov began in PDT.
    expect(lfdDueFrom('2026-11-03', LA, 3)).toBe(at('2026-11-01T07:00:00Z'));
    // Across the March change: 9 Mar is PDT, 7 Mar is PST.
    expect(lfdDueFrom('2026-03-09', LA, 3)).toBe(at('2026-03-07T08:00:00Z'));
    expect(lfdDueFrom('2026-11-23', 'Asia/Shanghai', 1)).toBe(at('2026-11-22T16:00:00Z'));
  });

  it('reads a coalesced pickup_lfd at the port when no source is reported', () => {
    const [only, ...rest] = lfdDeadlines(null, { port: NY }, '2026-11-24T05:00:00Z');
    expect(rest).toEqual([]);
    expect(only).toMatchObject({ source: null, zone: NY, date: '2026-11-24', binding: true });
    // Reported sources win over the coalesced value.
    expect(
      lfdDeadlines({ terminal: '2026-11-25T05:00:00Z' }, { port: NY }, '2026-11-24T05:00:00Z'),
    ).toMatchObject([{ source: 'terminal', date: '2026-11-25' }]);
  });
});

describe('where the box is', () => {
  const base = {
    status: 'available',
    terminalName: 'Terminal 18',
    podName: 'Seattle',
    destinationName: 'St. Louis ramp',
    railDepartedAt: null,
    railUnloadedAt: null,
  };
  it('is the port terminal until it goes on rail, then the destination ramp', () => {
    expect(containerLocation(base)).toEqual({ kind: 'terminal', name: 'Terminal 18' });
    expect(containerLocation({ ...base, terminalName: null })).toEqual({
      kind: 'terminal',
      name: 'Seattle',
    });
    expect(containerLocation({ ...base, status: 'on_rail' })).toEqual({
      kind: 'rail',
      name: 'St. Louis ramp',
    });
    expect(
      containerLocation({ ...base, status: 'on_rail', railUnloadedAt: '2026-11-19T10:00:00Z' }),
    ).toEqual({ kind: 'ramp', name: 'St. Louis ramp' });
  });
});

describe('lfdDaysAway', () => {
  it('counts calendar days in the zone, across DST changes and year ends, at any time of day', () => {
    const reference = (date: string, zone: string, now: number) =>
      Math.round(
        DateTime.fromISO(date, { zone })
          .startOf('day')
          .diff(DateTime.fromMillis(now, { zone }).startOf('day'), 'days').days,
      );
    const zones = [
      LA,
      'Europe/Berlin',
      'Asia/Shanghai',
      'Pacific/Auckland',
      'America/St_Johns',
      'UTC',
    ];
    const dates = [
      '2026-03-08',
      '2026-03-09',
      '2026-03-29',
      '2026-04-05',
      '2026-11-01',
      '2026-12-31',
      '2027-01-01',
    ];
    // Every 5 hours 7 minutes through DST changes on both hemispheres and a year end.
    for (let now = Date.UTC(2026, 2, 6); now < Date.UTC(2027, 0, 3); now += 307 * 60_000 * 7) {
      for (const zone of zones) {
        for (const date of dates)
          expect(lfdDaysAway(date, zone, now)).toBe(reference(date, zone, now));
      }
    }
    // The last instant of a day and the first of the next, in Los Angeles.
    const midnight = DateTime.fromISO('2026-03-09', { zone: LA }).toMillis();
    expect(lfdDaysAway('2026-03-09', LA, midnight - 1)).toBe(1);
    expect(lfdDaysAway('2026-03-09', LA, midnight)).toBe(0);
  });
});
