/**
 * The container rules, in one place: which statuses exist and which mean the box has left the
 * terminal, which last free day acts first where the box is, which holds block pickup, whether a box is ready (and why
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

/** Which kind of place the box is at, from its rail moves: the port, on rail, or at the ramp. */
export function placeKind(
  f: Pick<LocationFacts, 'status' | 'railDepartedAt' | 'railUnloadedAt'>,
): DeadlinePlace {
  if (f.railUnloadedAt) return 'ramp';
  if (f.status === 'on_rail' || f.railDepartedAt) return 'rail';
  return 'terminal';
}

/** Where the box sits: the port terminal until it goes on rail, then the destination ramp. */
export function containerLocation(f: LocationFacts): ContainerLocation {
  const kind = placeKind(f);
  if (kind !== 'terminal' && f.destinationName) return { kind, name: f.destinationName };
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

/** Who places a hold (and so who must release it). */
export const HOLD_PARTIES = ['line', 'customs', 'government', 'port', 'terminal'] as const;
export type HoldParty = (typeof HOLD_PARTIES)[number];

export const HOLD_PARTY_LABELS: Record<HoldParty, string> = {
  line: 'the line',
  customs: 'customs (CBP)',
  government: 'a government agency',
  port: 'the port',
  terminal: 'the terminal',
};

/**
 * The hold codes terminals report, each with a readable name and what it means for the
 * dispatcher: who must clear it before the box can go. Unknown codes are spelled out.
 */
export const HOLD_KINDS: Readonly<
  Record<string, { label: string; description: string; action: string; placedBy: HoldParty }>
> = {
  customs: {
    label: 'Customs',
    description: 'Customs (CBP) has not released the cargo.',
    action: 'Ask the customs broker for the release',
    placedBy: 'customs',
  },
  freight: {
    label: 'Freight',
    description: 'The line holds the box until freight charges are paid.',
    action: 'Pay the freight and get the line release',
    placedBy: 'line',
  },
  usda: {
    label: 'USDA',
    description: 'USDA agriculture inspection must release the cargo.',
    action: 'Chase the USDA inspection release',
    placedBy: 'government',
  },
  vacis: {
    label: 'VACIS exam',
    description: 'CBP selected the box for a VACIS X-ray exam.',
    action: 'Ask the broker when the exam is scheduled',
    placedBy: 'customs',
  },
  tmf: {
    label: 'Traffic mitigation fee',
    description: 'The port traffic mitigation fee (TMF) is unpaid.',
    action: 'Pay the traffic mitigation fee',
    placedBy: 'port',
  },
  ctf: {
    label: 'Clean truck fee',
    description: 'The port clean truck fee is unpaid.',
    action: 'Pay the clean truck fee',
    placedBy: 'port',
  },
  line: {
    label: 'Line',
    description: 'The shipping line holds the box.',
    action: 'Ask the line to release the box',
    placedBy: 'line',
  },
  other: {
    label: 'Other',
    description: 'The terminal reports a hold of another kind.',
    action: 'Ask the terminal what clears the hold',
    placedBy: 'terminal',
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

/** Who placed a hold; a code the terminal does not explain is taken as its own. */
export function holdPlacedBy(code: string): HoldParty {
  return holdKind(code)?.placedBy ?? 'terminal';
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
  'invoice_dispute_due',
  'delivery_order_outdated',
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
  invoice_dispute_due: 'D&D invoice dispute window closing',
  delivery_order_outdated: 'Delivery order outdated',
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

// ---------------------------------------------------------------------------------------------
// Event history

/** Every event name the /v2 API sends, in words (the `.estimated.` variants share them). */
const EVENT_LABELS: Readonly<Record<string, string>> = {
  'container.created': 'Tracking started',
  'container.updated': 'Details updated',
  'container.pickup_appointment.changed': 'Pickup appointment changed',
  'container.pickup_lfd.changed': 'Last free day changed',
  'container.pickup_lfd_line.changed': 'Line last free day changed',
  'container.pickup_lfd_rail.changed': 'Rail last free day changed',
  'container.pickup_lfd_terminal.changed': 'Terminal last free day changed',
  'container.pod_terminal_changed': 'Discharge terminal changed',
  'container.transport.arrived_at_inland_destination': 'Arrived at inland destination',
  'container.transport.available': 'Available for pickup',
  'container.transport.not_available': 'Not available for pickup',
  'container.transport.delivered': 'Delivered',
  'container.transport.empty_in': 'Empty returned',
  'container.transport.empty_out': 'Empty picked up',
  'container.transport.full_in': 'Full gated in',
  'container.transport.full_out': 'Full gated out (picked up)',
  'container.transport.feeder_arrived': 'Feeder arrived',
  'container.transport.feeder_departed': 'Feeder departed',
  'container.transport.feeder_discharged': 'Discharged from feeder',
  'container.transport.feeder_loaded': 'Loaded on feeder',
  'container.transport.rail_arrived': 'Rail arrived',
  'container.transport.rail_departed': 'Rail departed',
  'container.transport.rail_loaded': 'Loaded on rail',
  'container.transport.rail_unloaded': 'Unloaded from rail',
  'container.transport.transshipment_arrived': 'Arrived at transshipment port',
  'container.transport.transshipment_departed': 'Departed transshipment port',
  'container.transport.transshipment_discharged': 'Discharged at transshipment port',
  'container.transport.transshipment_loaded': 'Loaded at transshipment port',
  'container.transport.vessel_arrived': 'Vessel arrived',
  'container.transport.vessel_berthed': 'Vessel berthed',
  'container.transport.vessel_departed': 'Vessel departed',
  'container.transport.vessel_discharged': 'Discharged from vessel',
  'container.transport.vessel_loaded': 'Loaded on vessel',
  'shipment.estimated.arrival': 'Estimated arrival',
};

/**
 * An event name in words, and whether it is an estimate: "container.transport.rail_loaded" ->
 * "Loaded on rail". A name the table does not know is spelled out from its last parts
 * ("container.customs.released" -> "Customs released"); a missing one is a dash.
 */
export function eventLabel(name: string | null | undefined): { text: string; estimated: boolean } {
  if (!name) return { text: '—', estimated: false };
  const estimated = name.includes('.estimated.');
  const plain = name.replace('.estimated.', '.');
  const known = EVENT_LABELS[plain] ?? EVENT_LABELS[name];
  if (known) return { text: known, estimated };
  return { text: spellOut(plain.replace(/^(container|shipment)\.(transport\.)?/, '')), estimated };
}

/** The facts of one event the history reads. */
export interface HistoryEventFacts {
  event: string | null | undefined;
  timestamp: string | null | undefined;
  timezone: string | null | undefined;
  location_locode?: string | null | undefined;
  /** The source's own name of a place outside the reference data (a depot, a rail ramp). */
  location_name?: string | null | undefined;
}

/** Where the box was, for events that name no place of their own. */
export interface HistoryPlaces {
  /** The port terminal (or the port) with its zone. */
  port: { name: string | null; zone: string | null };
  /** The inland ramp, for rail arrivals and unloading, with its zone. */
  ramp: { name: string | null; zone: string | null };
}

export interface HistoryEntry<E> {
  event: E;
  label: string;
  estimated: boolean;
  /** Never blank: the event's location, else the place it happened (ramp or port), else "—". */
  place: string;
  /** The zone its time is shown in: one per instant, whichever events share it. */
  zone: string | null;
}

const AT_RAMP = /\.(rail_arrived|rail_unloaded|arrived_at_inland_destination)$/;

/** An event's own place: "Name (CODE)" when the source named it, else the code. */
function placeOf(e: HistoryEventFacts): string {
  const code = e.location_locode ?? '';
  const name = e.location_name?.trim() ?? '';
  if (name && code) return `${name} (${code})`;
  return name || code;
}

/**
 * The event history as a dispatcher reads it: in the order things happened (by the instant, not
 * the local wall-clock text, so a 12:21 in one zone and a 15:40 in another sort right; events
 * without a time last), each named in words and placed, and events at one instant written in
 * one zone (that of one naming its location, else the first's) so the same moment never reads as two different times.
 */
export function eventHistory<E extends HistoryEventFacts>(
  events: readonly E[],
  places: HistoryPlaces,
): HistoryEntry<E>[] {
  const instantOf = (e: E) => {
    const t = e.timestamp ? Date.parse(e.timestamp) : NaN;
    return Number.isFinite(t) ? t : Infinity;
  };
  const ordered = events
    .map((event, index) => ({ event, index, at: instantOf(event) }))
    .sort((a, b) => a.at - b.at || a.index - b.index);
  const homeOf = (e: E) =>
    e.event && AT_RAMP.test(e.event) && places.ramp.name ? places.ramp : places.port;
  // One zone per instant: that of an event at it which names its location, else the first's.
  const zoneAt = new Map<number, string | null>();
  for (const { event, at } of ordered) {
    if (!Number.isFinite(at)) continue;
    const zone = event.timezone ?? homeOf(event).zone;
    if (!zoneAt.has(at)) zoneAt.set(at, zone);
  }
  const located = new Set<number>();
  for (const { event, at } of ordered) {
    if (event.location_locode && event.timezone && !located.has(at)) {
      located.add(at);
      zoneAt.set(at, event.timezone);
    }
  }
  return ordered.map(({ event, at }) => {
    const home = homeOf(event);
    const { text, estimated } = eventLabel(event.event);
    return {
      event,
      label: text,
      estimated,
      place: placeOf(event) || home.name || '—',
      zone: zoneAt.get(at) ?? event.timezone ?? home.zone,
    };
  });
}
