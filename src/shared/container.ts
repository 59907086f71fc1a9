/**
 * The container rules, in one place: which statuses exist and which mean the box has left the
 * terminal, which last free day binds, which holds block pickup, whether a box is ready (and why
 * not), what its fees add up to, and the alert kinds with their thresholds. The service, the
 * desktop cache, the alert rules and the renderer all read these; none keeps its own copy.
 * No Node imports: the renderer bundles this file.
 */
import { DateTime } from 'luxon';
import { kept } from './kept';

// ---------------------------------------------------------------------------------------------
// Statuses

/** Every `current_status` the /v2 API can report (the service derives a subset of them). */
export const CONTAINER_STATUSES = [
  'new',
  'on_ship',
  'available',
  'not_available',
  'grounded',
  'on_rail',
  'picked_up',
  'off_dock',
  'delivered',
  'dropped',
  'loaded',
  'empty_returned',
  'awaiting_inland_transfer',
] as const;
export type ContainerStatus = (typeof CONTAINER_STATUSES)[number];

/** Readable name of each status. */
export const CONTAINER_STATUS_LABELS: Record<ContainerStatus, string> = {
  new: 'Booked',
  on_ship: 'On vessel',
  available: 'Available',
  not_available: 'Not available',
  grounded: 'Grounded',
  on_rail: 'On rail',
  picked_up: 'Picked up',
  off_dock: 'Off dock',
  delivered: 'Delivered',
  dropped: 'Dropped',
  loaded: 'Loaded',
  empty_returned: 'Empty returned',
  awaiting_inland_transfer: 'Awaiting inland transfer',
};

/**
 * Statuses after which the container has left the port terminal: no pickup left to plan, its
 * last free day no longer matters. `loaded` counts: a Terminal49-style service reports it for a
 * box loaded onto the trucker's chassis or the outbound rail.
 */
export const LEFT_TERMINAL_STATUSES = [
  'picked_up',
  'off_dock',
  'delivered',
  'dropped',
  'loaded',
  'empty_returned',
] as const satisfies readonly ContainerStatus[];

const LEFT_TERMINAL = new Set<string>(LEFT_TERMINAL_STATUSES);

/**
 * Statuses after which nothing is left to do for the box: the empty is back. A picked-up box is
 * not complete yet: its empty return (per diem) still runs.
 */
export const COMPLETED_STATUSES = ['empty_returned'] as const satisfies readonly ContainerStatus[];

const COMPLETED = new Set<string>(COMPLETED_STATUSES);

/** Whether a container's work is done (views hide these unless "Show completed" is on). */
export const isCompleted = (status: string): boolean => COMPLETED.has(status);

/** Whether a status (any string, as a remote service may report new ones) means "left the terminal". */
export const hasLeftTerminal = (status: string): boolean => LEFT_TERMINAL.has(status);

/**
 * The readable name of a status; an unknown one is spelled out from its code, and a missing one
 * (a sparse record from a compatible service) is a dash.
 */
export function statusLabel(status: string): string {
  if (!status) return '—';
  return (CONTAINER_STATUS_LABELS as Record<string, string>)[status] ?? spellOut(status);
}

const spellOut = (code: string): string => {
  const words = code.replace(/[._]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
};

// ---------------------------------------------------------------------------------------------
// Last free day

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

export function lfdZone(source: LfdSource, zones: LfdZones): string {
  const zone = source === 'rail' ? (zones.destination ?? zones.port) : zones.port;
  return zone && isValidZone(zone) ? zone : 'UTC';
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
  /** The deadline the line/terminal/rail precedence picks as `pickup_lfd`. */
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

/** The deadline that drives urgency: the earliest one not yet past, else the latest past one. */
export function drivingDeadline<D extends Pick<LfdDeadline, 'endsAt'>>(
  deadlines: readonly D[],
  now: number,
): D | null {
  const sorted = [...deadlines].sort((a, b) => a.endsAt - b.endsAt);
  return sorted.find((d) => d.endsAt > now) ?? sorted[sorted.length - 1] ?? null;
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

/** "terminal storage starts first": why an earlier deadline than the binding one matters. */
/** "Terminal LFD", or plain "LFD" when the service did not say whose. */
export const lfdSourceLabel = (source: LfdSource | null): string =>
  source ? `${LFD_SOURCE_LABELS[source]} LFD` : 'LFD';

export const LFD_SOURCE_LABELS: Record<LfdSource, string> = {
  line: 'Line',
  terminal: 'Terminal',
  rail: 'Rail',
};
export const LFD_FIRST_NOTES: Record<LfdSource, string> = {
  line: 'line demurrage starts first',
  terminal: 'terminal storage starts first',
  rail: 'rail storage starts first',
};

/**
 * The first deadline whose free time is over by the time of the appointment (binding or not:
 * storage or demurrage runs from it), or null when the appointment meets them all.
 */
export function deadlineMissedByAppointment<D extends Pick<LfdDeadline, 'endsAt'>>(
  appointmentAt: string | null | undefined,
  deadlines: readonly D[],
): D | null {
  return (
    [...deadlines]
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

// ---------------------------------------------------------------------------------------------
// Where the box is

export interface LocationFacts {
  status: string;
  terminalName: string | null;
  podName: string | null;
  /** The inland destination (the rail ramp for a rail move). */
  destinationName: string | null;
  railDepartedAt: string | null;
  railUnloadedAt: string | null;
}

export interface ContainerLocation {
  /** `terminal` at the port, `rail` travelling to the ramp, `ramp` at the ramp. */
  kind: 'terminal' | 'rail' | 'ramp';
  name: string | null;
}

/** Where the box sits: the port terminal until it goes on rail, then the destination ramp. */
export function containerLocation(f: LocationFacts): ContainerLocation {
  const ramp = f.destinationName;
  if (f.railUnloadedAt && ramp) return { kind: 'ramp', name: ramp };
  if ((f.status === 'on_rail' || f.railDepartedAt) && ramp) return { kind: 'rail', name: ramp };
  return { kind: 'terminal', name: f.terminalName ?? f.podName };
}

// ---------------------------------------------------------------------------------------------
// Holds

export interface HoldLike {
  name: string;
  /** `hold` blocks pickup; `pending` is announced; a remote service may send others. */
  status: string;
}

/** The hold status that blocks pickup; `pending` is announced but not (yet) a hold. */
export const ACTIVE_HOLD_STATUS = 'hold';

export const isActiveHold = (hold: HoldLike): boolean => hold.status === ACTIVE_HOLD_STATUS;

/** Holds that block pickup now. */
export const activeHolds = <H extends HoldLike>(holds: readonly H[]): H[] =>
  holds.filter(isActiveHold);

/** Announced holds that do not block pickup yet. */
export const pendingHolds = <H extends HoldLike>(holds: readonly H[]): H[] =>
  holds.filter((h) => h.status === 'pending');

/**
 * The hold codes terminals report, each with a readable name and what it means for the
 * dispatcher: who must clear it before the box can go. Unknown codes are spelled out.
 */
export const HOLD_KINDS: Readonly<
  Record<string, { label: string; description: string; action: string }>
> = {
  customs: {
    label: 'Customs',
    description: 'Customs (CBP) has not released the cargo.',
    action: 'Ask the customs broker for the release',
  },
  freight: {
    label: 'Freight',
    description: 'The line holds the box until freight charges are paid.',
    action: 'Pay the freight and get the line release',
  },
  usda: {
    label: 'USDA',
    description: 'USDA agriculture inspection must release the cargo.',
    action: 'Chase the USDA inspection release',
  },
  vacis: {
    label: 'VACIS exam',
    description: 'CBP selected the box for a VACIS X-ray exam.',
    action: 'Ask the broker when the exam is scheduled',
  },
  tmf: {
    label: 'Traffic mitigation fee',
    description: 'The port traffic mitigation fee (TMF) is unpaid.',
    action: 'Pay the traffic mitigation fee',
  },
  ctf: {
    label: 'Clean truck fee',
    description: 'The port clean truck fee is unpaid.',
    action: 'Pay the clean truck fee',
  },
  line: {
    label: 'Line',
    description: 'The shipping line holds the box.',
    action: 'Ask the line to release the box',
  },
  other: {
    label: 'Other',
    description: 'The terminal reports a hold of another kind.',
    action: 'Ask the terminal what clears the hold',
  },
};

const holdKind = (code: string) =>
  Object.hasOwn(HOLD_KINDS, code.toLowerCase()) ? HOLD_KINDS[code.toLowerCase()] : undefined;

export function holdLabel(code: string): string {
  return holdKind(code)?.label ?? spellOut(code);
}

export function holdDescription(code: string): string {
  return holdKind(code)?.description ?? `Hold reported by the terminal: ${holdLabel(code)}.`;
}

/** What the dispatcher does to clear a hold: "Ask the customs broker for the release". */
export function holdAction(code: string): string {
  return holdKind(code)?.action ?? `Ask the terminal what clears the ${holdLabel(code)} hold`;
}

// ---------------------------------------------------------------------------------------------
// Readiness

/** What decides whether a container can be picked up. */
export interface ReadinessFacts {
  status: string;
  activeHoldCount: number;
  /** When the box (or its vessel) arrived at the port of discharge. */
  arrivedAt: string | null;
  dischargedAt: string | null;
  /** Set once the full box went out of the terminal gate. */
  fullOutAt: string | null;
  availabilityKnown: boolean;
  availableForPickup: boolean | null;
}

export const NOT_READY_REASONS = [
  'left_terminal',
  'on_hold',
  'not_arrived',
  'not_discharged',
  'availability_unknown',
  'not_available',
] as const;
export type NotReadyReason = (typeof NOT_READY_REASONS)[number];

export type Readiness = { ready: true } | { ready: false; reason: NotReadyReason };

/**
 * Ready for pickup means: still at the terminal, no active hold, and the terminal says available.
 * Otherwise the first reason that applies, in the order a planner would clear them.
 */
export function readiness(f: ReadinessFacts): Readiness {
  if (hasLeftTerminal(f.status) || f.fullOutAt) return { ready: false, reason: 'left_terminal' };
  if (f.activeHoldCount > 0) return { ready: false, reason: 'on_hold' };
  if (f.availabilityKnown && f.availableForPickup === true) return { ready: true };
  if (!f.arrivedAt) return { ready: false, reason: 'not_arrived' };
  if (!f.dischargedAt) return { ready: false, reason: 'not_discharged' };
  if (!f.availabilityKnown) return { ready: false, reason: 'availability_unknown' };
  return { ready: false, reason: 'not_available' };
}

/** A not-ready reason in a few words, e.g. "on hold", "2 holds", "picked up". */
export function describeNotReady(
  reason: NotReadyReason,
  f: Pick<ReadinessFacts, 'status' | 'activeHoldCount'>,
): string {
  switch (reason) {
    case 'left_terminal':
      return hasLeftTerminal(f.status) ? statusLabel(f.status).toLowerCase() : 'picked up';
    case 'on_hold':
      return f.activeHoldCount === 1 ? 'on hold' : `${f.activeHoldCount} holds`;
    case 'not_arrived':
      return 'not arrived';
    case 'not_discharged':
      return 'not discharged';
    case 'availability_unknown':
      return 'availability unknown';
    case 'not_available':
      return 'not available';
  }
}

/** A board row's readiness facts, as the cache projects them. */
export interface ReadinessRow {
  ready: boolean;
  status: string;
  holdsCount: number;
  ataAt: string | null;
  dischargedAt: string | null;
  availabilityKnown: boolean;
  availableForPickup: boolean | null;
}

/** "Ready", or "Not ready: 2 holds": a board row's readiness in words. */
export function readinessText(row: ReadinessRow): string {
  if (row.ready) return 'Ready';
  const facts = {
    status: row.status,
    activeHoldCount: row.holdsCount,
    arrivedAt: row.ataAt,
    dischargedAt: row.dischargedAt,
    fullOutAt: null,
    availabilityKnown: row.availabilityKnown,
    availableForPickup: row.availableForPickup,
  };
  const state = readiness(facts);
  // The cache's verdict stands; a row it holds back for a reason the row does not show is unreleased.
  return `Not ready: ${state.ready ? 'not released' : describeNotReady(state.reason, facts)}`;
}

// ---------------------------------------------------------------------------------------------
// Fees

export interface FeeLike {
  type: string;
  amount: number;
  currency_code: string;
}

/** Sum of the itemised fees; `total` would double count. Mixed currencies leave the sum unset. */
export function feesSum(fees: readonly FeeLike[]): {
  amount: number | null;
  currency: string | null;
} {
  const items = fees.filter((f) => f.type !== 'total');
  if (items.length === 0) return { amount: null, currency: null };
  const currencies = new Set(items.map((f) => f.currency_code));
  if (currencies.size > 1) return { amount: null, currency: null };
  const amount = items.reduce((sum, f) => sum + f.amount, 0);
  return { amount: Math.round(amount * 100) / 100, currency: items[0]!.currency_code };
}

// ---------------------------------------------------------------------------------------------
// Alerts

export const ALERT_KINDS = [
  'lfd_changed',
  'lfd_approaching',
  'ready_for_pickup',
  'hold_placed',
  'hold_cleared',
  'appointment_changed',
  'eta_changed',
  'picked_up',
  'empty_returned',
  'empty_return_due',
  'daily_digest',
  'source_summary',
] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

/** Alerts about the whole day (the digest, a source's summary) open the worklist, not a box. */
export const opensWorklist = (kind: string | undefined): boolean =>
  kind === 'daily_digest' || kind === 'source_summary';

export const ALERT_KIND_LABELS: Record<AlertKind, string> = {
  lfd_changed: 'LFD changed',
  lfd_approaching: 'LFD approaching',
  ready_for_pickup: 'Ready for pickup',
  hold_placed: 'Hold placed',
  hold_cleared: 'Hold cleared',
  appointment_changed: 'Appointment changed',
  eta_changed: 'ETA changed',
  picked_up: 'Picked up',
  empty_returned: 'Empty returned',
  empty_return_due: 'Empty return due (per diem)',
  daily_digest: 'Daily digest',
  source_summary: 'Summary on connecting',
};

/** Bounds of the alert thresholds a user can set, in hours. */
export const ALERT_THRESHOLD_LIMITS = { minHours: 1, maxHours: 720, maxLfdThresholds: 5 } as const;

export interface AlertThresholds {
  /** Hours before the LFD at which "LFD approaching" alerts fire. */
  lfdThresholdsHours: readonly number[];
  /** An ETA moving by more than this many hours raises an alert. */
  etaChangeThresholdHours: number;
}

export const DEFAULT_ALERT_THRESHOLDS = {
  lfdThresholdsHours: [48, 24],
  etaChangeThresholdHours: 12,
} as const satisfies AlertThresholds;
