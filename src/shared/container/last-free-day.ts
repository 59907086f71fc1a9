/**
 * Last free days: which deadline acts first where the box is, in which zone each is read, how far away it is, and how a dispatcher reads it.
 */
import { DateTime } from 'luxon';
import { kept } from '../kept';

export const LFD_SOURCES = ['line', 'terminal', 'rail'] as const;
export type LfdSource = (typeof LFD_SOURCES)[number];

/** The three pickup deadlines a container can have; absent and null both mean "none". */
export type LfdDeadlines = Partial<Record<LfdSource, string | null | undefined>>;

export interface BindingLfd {
  date: string | null;
  source: LfdSource | null;
}

/**
 * The last free day that binds, and whose it is: the line's deadline wins, then the terminal's,
 * then the rail carrier's (the reference API's precedence for `pickup_lfd`).
 */
export function bindingLfd(deadlines: LfdDeadlines | null | undefined): BindingLfd {
  for (const source of LFD_SOURCES) {
    const date = deadlines?.[source];
    if (date) return { date, source };
  }
  return { date: null, source: null };
}

/**
 * Where each deadline's calendar day is read: the line's and the terminal's at the port of
 * discharge, the rail carrier's at the destination ramp (`final_destination_timezone`).
 */
export interface LfdZones {
  port: string | null | undefined;
  destination?: string | null | undefined;
}

/**
 * Zone names and the first instants of calendar days are fixed for the life of the process, and
 * asking the time zone database each time is most of a sync's projection work: both are kept.
 */
const validZones = new Map<string, boolean>();
const dayStarts = new Map<string, number>();
const localDates = new Map<string, string>();

const isValidZone = (zone: string) =>
  kept(validZones, zone, () => DateTime.local().setZone(zone).isValid);

/** The first instant (epoch ms) of the calendar day `shiftDays` after `localDate` in `zone`. */
function dayStart(localDate: string, zone: string, shiftDays: number): number {
  return kept(dayStarts, `${localDate} ${zone} ${shiftDays}`, () =>
    DateTime.fromISO(localDate, { zone }).plus({ days: shiftDays }).startOf('day').toMillis(),
  );
}

/** The zone a deadline of `source` is read in; the port's when the ramp's is unknown, else UTC. */
export function lfdZone(source: LfdSource, zones: LfdZones): string {
  const candidates = source === 'rail' ? [zones.destination, zones.port] : [zones.port];
  return candidates.find((zone): zone is string => Boolean(zone) && isValidZone(zone!)) ?? 'UTC';
}

const BARE_DATE = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MS = 86_400_000;

/**
 * The last free day as a calendar date (`yyyy-MM-dd`) in its zone. A bare date is taken as it is;
 * an instant (the feeds send the first moment of the day) is read in the zone.
 */
export function lfdLocalDate(value: string, zone: string): string | null {
  // '' stands for "no date" among the kept answers (a kept value must not be undefined).
  const date = kept(localDates, `${value} ${zone}`, () => {
    if (BARE_DATE.test(value)) {
      return DateTime.fromISO(value, { zone }).isValid ? value : '';
    }
    const at = DateTime.fromISO(value, { setZone: true });
    return (at.isValid ? at.setZone(zone).toISODate() : null) ?? '';
  });
  return date || null;
}

/** Free time runs through the whole last free day: it ends at the next midnight in the zone. */
export function lfdEndsAt(localDate: string, zone: string): number {
  return dayStart(localDate, zone, 1);
}

export interface LfdDeadline {
  /** Null for a service that reports only the coalesced `pickup_lfd`, without saying whose. */
  source: LfdSource | null;
  zone: string;
  /** Calendar date of the last free day in `zone`. */
  date: string;
  /** The instant free time ends (epoch ms): the end of `date` in `zone`. */
  endsAt: number;
  /**
   * The deadline the wire's line/terminal/rail precedence reports as `pickup_lfd`. Not what a
   * dispatcher acts on first: that is `headlineDeadline`.
   */
  binding: boolean;
}

/**
 * Every deadline a container has, earliest first, each in its own zone. `pickupLfd` (the
 * coalesced date) stands in, read at the port, when no source is reported.
 */
export function lfdDeadlines(
  deadlines: LfdDeadlines | null | undefined,
  zones: LfdZones,
  pickupLfd?: string | null,
): LfdDeadline[] {
  const bindingSource = bindingLfd(deadlines).source;
  if (!bindingSource && pickupLfd) {
    const zone = lfdZone('line', zones);
    const date = lfdLocalDate(pickupLfd, zone);
    return date ? [{ source: null, zone, date, endsAt: lfdEndsAt(date, zone), binding: true }] : [];
  }
  const out: LfdDeadline[] = [];
  for (const source of LFD_SOURCES) {
    const value = deadlines?.[source];
    if (!value) continue;
    const zone = lfdZone(source, zones);
    const date = lfdLocalDate(value, zone);
    if (!date) continue;
    out.push({
      source,
      zone,
      date,
      endsAt: lfdEndsAt(date, zone),
      binding: source === bindingSource,
    });
  }
  return out.sort((a, b) => a.endsAt - b.endsAt);
}

/** The calendar windows the board filters on: due within 1 (today), 2, 3 or 7 days. */
export const LFD_DUE_DAYS = [1, 2, 3, 7] as const;
export type LfdDueDays = (typeof LFD_DUE_DAYS)[number];

/**
 * From when a deadline counts as due within `days` calendar days of its zone: the start of the
 * day `days - 1` before it (so 1 = from the morning of the day itself).
 */
export function lfdDueFrom(localDate: string, zone: string, days: number): number {
  return dayStart(localDate, zone, -(days - 1));
}

/** Where the box is, as the deadline rule reads it (the `kind` of `containerLocation`). */
export type DeadlinePlace = 'terminal' | 'rail' | 'ramp';

/**
 * The deadlines that still count where the box is. At the port all of them. Once it left on
 * rail the terminal's storage no longer runs, and where the ramp has a rail LFD that is the
 * deadline that counts there (the port's are history, still listed but not the headline).
 */
export function deadlinesThatCount<D extends Pick<LfdDeadline, 'source'>>(
  deadlines: readonly D[],
  place: DeadlinePlace = 'terminal',
): D[] {
  if (place === 'terminal') return [...deadlines];
  const rail = deadlines.filter((d) => d.source === 'rail');
  return rail.length > 0 ? rail : deadlines.filter((d) => d.source !== 'terminal');
}

/**
 * The headline deadline, the one rule every view, export and alert shows: the earliest deadline
 * that counts where the box is and that the box has not met (it is still there). When that one
 * has passed it is shown as passed (charges run from it), never as "next"; the later ones follow.
 * The wire's line-first `pickup_lfd` is not this: the earlier date acts first.
 */
export function headlineDeadline<D extends Pick<LfdDeadline, 'endsAt' | 'source'>>(
  deadlines: readonly D[],
  place: DeadlinePlace = 'terminal',
): D | null {
  const counting = deadlinesThatCount(deadlines, place);
  return counting.reduce<D | null>(
    (first, d) => (!first || d.endsAt < first.endsAt ? d : first),
    null,
  );
}

/** The earliest deadline that counts and has not passed yet: the only one called "next". */
export function nextDeadline<D extends Pick<LfdDeadline, 'endsAt' | 'source'>>(
  deadlines: readonly D[],
  now: number,
  place: DeadlinePlace = 'terminal',
): D | null {
  return headlineDeadline(
    deadlinesThatCount(deadlines, place).filter((d) => d.endsAt > now),
    place,
  );
}

/**
 * The zone a box's pickup and its day are read in: the ramp's once it travels by rail (the
 * appointment is at the ramp), else the port's; UTC when neither is a known zone.
 */
export function placeZone(place: DeadlinePlace, zones: LfdZones): string {
  return lfdZone(place === 'terminal' ? 'terminal' : 'rail', zones);
}

/** Calendar days from today (in `zone`) to the last free day: 0 today, 1 tomorrow, -1 yesterday. */
export function lfdDaysAway(localDate: string, zone: string, now: number): number {
  // Between two calendar dates of one zone the count of days is that of the plain dates (a DST
  // shift between them changes hours, not days): no time zone arithmetic per call, which made
  // a board's cost sum over 100k containers take seconds.
  const todayDate = lfdLocalDate(new Date(now).toISOString(), zone);
  if (todayDate !== null && BARE_DATE.test(localDate)) {
    return Math.round((Date.parse(localDate) - Date.parse(todayDate)) / DAY_MS);
  }
  const today = DateTime.fromMillis(now, { zone }).startOf('day');
  const day = DateTime.fromISO(localDate, { zone }).startOf('day');
  return Math.round(day.diff(today, 'days').days);
}

export type LfdUrgency = 'overdue' | 'today' | 'soon' | 'later';

/** Overdue once the day is over; "today" on the day itself; "soon" within the next 2 days. */
export function lfdUrgencyOf(localDate: string, zone: string, now: number): LfdUrgency {
  if (now >= lfdEndsAt(localDate, zone)) return 'overdue';
  const days = lfdDaysAway(localDate, zone, now);
  if (days <= 0) return 'today';
  if (days <= 2) return 'soon';
  return 'later';
}

const HOUR_MS = 3_600_000;

/** "2d 5h left", "5h 32m left", "overdue 1d 3h": counted to the end of the last free day. */
export function lfdCountdown(localDate: string, zone: string, now: number): string {
  const diff = lfdEndsAt(localDate, zone) - now;
  const abs = Math.abs(diff);
  const days = Math.floor(abs / (24 * HOUR_MS));
  const hours = Math.floor((abs % (24 * HOUR_MS)) / HOUR_MS);
  const minutes = Math.floor((abs % HOUR_MS) / 60_000);
  const span =
    days > 0 ? `${days}d ${hours}h` : hours > 0 ? `${hours}h ${minutes}m` : `${minutes}m`;
  return diff <= 0 ? `overdue ${span}` : `${span} left`;
}

/** "LFD today", "LFD tomorrow", "LFD in 3 days", "LFD passed yesterday": for alerts. */
export function lfdDayPhrase(localDate: string, zone: string, now: number): string {
  const days = lfdDaysAway(localDate, zone, now);
  if (days === 0) return now >= lfdEndsAt(localDate, zone) ? 'LFD passed' : 'LFD today';
  if (days === 1) return 'LFD tomorrow';
  if (days > 1) return `LFD in ${days} days`;
  if (days === -1) return 'LFD passed yesterday';
  return `LFD passed ${-days} days ago`;
}

/** "Terminal LFD", or plain "LFD" when the service did not say whose. */
export const lfdSourceLabel = (source: LfdSource | null): string =>
  source ? `${LFD_SOURCE_LABELS[source]} LFD` : 'LFD';

export const LFD_SOURCE_LABELS: Record<LfdSource, string> = {
  line: 'Line',
  terminal: 'Terminal',
  rail: 'Rail',
};

/**
 * The first deadline whose free time is over by the time of the appointment (binding or not:
 * storage or demurrage runs from it), or null when the appointment meets them all.
 */
export function deadlineMissedByAppointment<D extends Pick<LfdDeadline, 'endsAt' | 'source'>>(
  appointmentAt: string | null | undefined,
  deadlines: readonly D[],
  place: DeadlinePlace = 'terminal',
): D | null {
  return (
    deadlinesThatCount(deadlines, place)
      .sort((a, b) => a.endsAt - b.endsAt)
      .find((d) => appointmentAfterLfd(appointmentAt, d)) ?? null
  );
}

/** An appointment booked after free time has ended. */
export function appointmentAfterLfd(
  appointmentAt: string | null | undefined,
  deadline: Pick<LfdDeadline, 'endsAt'> | null,
): boolean {
  if (!appointmentAt || !deadline) return false;
  const at = Date.parse(appointmentAt);
  return Number.isFinite(at) && at >= deadline.endsAt;
}

/** The facts of a board row the deadline and zone rules read. */
export interface PlacedDeadlines<D extends Pick<LfdDeadline, 'endsAt' | 'source'>> {
  deadlines: readonly D[];
  location: { kind: DeadlinePlace };
  podTimezone: string | null;
  destinationTimezone: string | null;
}

/** A row's headline deadline (`headlineDeadline` where the box is). */
export const rowHeadlineDeadline = <D extends Pick<LfdDeadline, 'endsAt' | 'source'>>(
  row: PlacedDeadlines<D>,
): D | null => headlineDeadline(row.deadlines, row.location.kind);

/** The zone of a row's place: its pickup appointment and its day are read there. */
export const rowPlaceZone = (row: PlacedDeadlines<LfdDeadline>): string =>
  placeZone(row.location.kind, { port: row.podTimezone, destination: row.destinationTimezone });
