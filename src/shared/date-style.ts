/**
 * The one way Quayside writes dates and times for people, shared by the board, the detail views,
 * alerts, tracking requests and exports: always in the zone where the thing happens (a terminal's
 * local time, the ramp's for rail), with the zone's short name; never raw UTC.
 * No Node imports: the renderer bundles this file.
 */
import { DateTime } from 'luxon';
import { kept } from './kept';

/**
 * Short zone names ("PST", "CEST", "GMT+8") by zone, offset and locale. Luxon asks Intl for the
 * name with a new formatter on every call, the costliest part of drawing a board of dates; a
 * zone's name changes only with its offset (standard and daylight time).
 */
const zoneNames = new Map<string, string>();

/** `at`'s short zone name, as luxon's 'ZZZZ' token writes it. */
export function zoneName(at: DateTime): string {
  return kept(
    zoneNames,
    `${at.zoneName ?? ''}|${at.offset}|${at.locale ?? ''}`,
    () => at.offsetNameShort ?? '',
    1024,
  );
}

/**
 * Texts already written, by what they were written from. A board draws the same dates in many
 * rows and again on every sort or scroll; each luxon date costs a zone offset lookup and a
 * format. The texts depend only on their inputs (and the computer's zone and locale).
 */
const texts = new Map<string, string>();

const remembered = (key: string, write: () => string): string => kept(texts, key, write, 20_000);

/** `at` written with `format` (luxon tokens), then its short zone name. */
const withZoneName = (at: DateTime, format: string): string =>
  `${at.toFormat(format)} ${zoneName(at)}`;

const withZoneNameOr = (at: DateTime | null, format: string, fallback: string): string =>
  at ? withZoneName(at, format) : fallback;

const zoned = (iso: string, zone: string | null | undefined): DateTime | null => {
  const at = DateTime.fromISO(iso, { zone: 'utc' });
  if (!at.isValid) return null;
  const inZone = zone ? at.setZone(zone) : at.setZone('local');
  return inZone.isValid ? inZone : at.setZone('local');
};

/** "23 Nov 2026 14:00 PST"; "—" when missing. The local zone when the zone is unknown. */
export function formatDateTime(iso: string | null | undefined, zone?: string | null): string {
  if (!iso) return '—';
  return remembered(`datetime|${iso}|${zone ?? ''}`, () =>
    withZoneNameOr(zoned(iso, zone), 'd LLL yyyy HH:mm', iso),
  );
}

/** "23 Nov 14:00 PST": what a table cell has room for. */
export function formatShortDateTime(iso: string | null | undefined, zone?: string | null): string {
  if (!iso) return '—';
  return remembered(`short|${iso}|${zone ?? ''}`, () =>
    withZoneNameOr(zoned(iso, zone), 'd LLL HH:mm', iso),
  );
}

/** "23 Nov": the day an instant falls on in the zone. */
export function formatDate(iso: string | null | undefined, zone?: string | null): string {
  if (!iso) return '—';
  return remembered(`date|${iso}|${zone ?? ''}`, () => zoned(iso, zone)?.toFormat('d LLL') ?? iso);
}

/**
 * A calendar date (`yyyy-MM-dd`, e.g. a last free day) with its weekday and the zone it is a day
 * of: "Mon 23 Nov PST". `withYear` adds the year for texts read later (alerts, exports).
 */
export function formatLocalDate(localDate: string, zone: string, withYear = false): string {
  return remembered(`local|${localDate}|${zone}|${withYear}`, () => {
    const day = DateTime.fromISO(localDate, { zone });
    if (!day.isValid) return localDate;
    return withZoneName(day, withYear ? 'ccc d LLL yyyy' : 'ccc d LLL');
  });
}

/** A calendar date as day and month: "23 Nov" (a last free day in a table cell). */
export function formatLocalDay(localDate: string, zone: string): string {
  return remembered(`day|${localDate}|${zone}`, () => {
    const day = DateTime.fromISO(localDate, { zone });
    return day.isValid ? day.toFormat('d LLL') : localDate;
  });
}

/** The short name of `zone` on a calendar date ("PST"), as its midnight has it. */
export function localDateZoneName(localDate: string, zone: string): string {
  return remembered(`zone|${localDate}|${zone}`, () => {
    const day = DateTime.fromISO(localDate, { zone });
    return day.isValid ? zoneName(day) : zone;
  });
}
