/** Time helpers that need no date library: local midnight in an IANA zone, durations. */
import { kept } from '../shared/kept';

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

const formatters = new Map<string, Intl.DateTimeFormat>();

const QUARTER = 15 * MINUTE;

/**
 * Offsets by zone and quarter hour: every zone's offset is a whole number of quarter hours and
 * changes at a whole local minute on a quarter hour of UTC, so one answer holds for its quarter.
 */
const offsets = new Map<string, number>();

/**
 * Offsets by zone and UTC day, for the days whose first and last quarter hours have the same
 * offset (all but a zone's one or two change days a year; no zone changes twice in a day), or
 * NaN for a change day, whose quarters are then looked up one by one.
 */
const dayOffsets = new Map<string, number>();

/** Offset of `zone` from UTC at instant `at`, in milliseconds (e.g. -7 h for Los Angeles in summer). */
export function zoneOffsetMs(zone: string, at: number): number {
  const day = Math.floor(at / DAY);
  const wholeDay = kept(dayOffsets, `${zone} ${day}`, () => {
    const first = quarterOffsetMs(zone, day * DAY);
    return quarterOffsetMs(zone, (day + 1) * DAY - QUARTER) === first ? first : NaN;
  });
  return Number.isNaN(wholeDay) ? quarterOffsetMs(zone, at) : wholeDay;
}

function quarterOffsetMs(zone: string, at: number): number {
  const quarter = Math.floor(at / QUARTER);
  return kept(offsets, `${zone} ${quarter}`, () => formattedOffsetMs(zone, quarter * QUARTER));
}

/** The offset read from Intl's parts of the local time at `at` (a few microseconds a call). */
function formattedOffsetMs(zone: string, at: number): number {
  let fmt = formatters.get(zone);
  if (!fmt) {
    fmt = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(zone, fmt);
  }
  const parts: Record<string, number> = {};
  for (const p of fmt.formatToParts(new Date(at))) {
    if (p.type !== 'literal') parts[p.type] = Number(p.value);
  }
  const asUtc = Date.UTC(
    parts.year!,
    parts.month! - 1,
    parts.day!,
    parts.hour!,
    parts.minute!,
    parts.second!,
  );
  return asUtc - Math.floor(at / 1000) * 1000;
}

/** The UTC instant of local midnight, `days` days after the local day containing `at`. */
export function localMidnight(zone: string, at: number, days = 0): number {
  const offset = zoneOffsetMs(zone, at);
  const local = at + offset;
  const midnightLocal = Math.floor(local / DAY) * DAY + days * DAY;
  // Re-evaluate the offset at the target day (DST may differ).
  const guess = midnightLocal - offset;
  return midnightLocal - zoneOffsetMs(zone, guess);
}
