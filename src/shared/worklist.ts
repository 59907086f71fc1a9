/**
 * The morning worklist: which containers a dispatcher acts on today, most urgent first (overdue
 * and money, then today), with the places (the terminal, or the ramp for a rail move) as
 * sub-headings read in their own calendar day, each box with the reason it is listed and the
 * next thing to do. Pure functions over board rows; the LFD,
 * hold, readiness and "left the terminal" rules are the container rules' (./container/).
 * No Node imports: the renderer bundles this file.
 */
import { DateTime } from 'luxon';
import {
  deadlineMissedByAppointment,
  hasLeftTerminal,
  holdAction,
  holdLabel,
  isCompleted,
  lfdDayPhrase,
  lfdSourceLabel,
  lfdUrgencyOf,
  rowHeadlineDeadline,
  rowPlaceZone,
  type LfdDeadline,
} from './container';
import { formatLocalDate, formatShortDateTime } from './date-style';
import type { BoardRow } from './desktop';

/** The worklist's sections, by urgency: money running first, then what must move today. */
export const WORKLIST_SECTIONS = [
  'overdue_accruing',
  'move_today',
  'blocked_lfd_soon',
  'needs_appointment',
  'arriving_next',
] as const;
export type WorklistSection = (typeof WORKLIST_SECTIONS)[number];

export const WORKLIST_SECTION_LABELS: Record<WorklistSection, string> = {
  move_today: 'Move today',
  needs_appointment: 'Needs an appointment',
  blocked_lfd_soon: 'Blocked by a hold, LFD soon',
  overdue_accruing: 'Overdue — accruing',
  arriving_next: 'Arriving next',
};

/** "Arriving next" looks this many calendar days ahead of today at the terminal. */
export const ARRIVING_NEXT_DAYS = 3;

/** The board row facts the worklist reads. */
export type WorklistRow = Pick<
  BoardRow,
  | 'id'
  | 'number'
  | 'status'
  | 'ready'
  | 'holdNames'
  | 'holdsCount'
  | 'deadlines'
  | 'location'
  | 'podTimezone'
  | 'destinationTimezone'
  | 'pickupAppointmentAt'
  | 'etaAt'
  | 'ataAt'
  | 'dischargedAt'
  | 'vessel'
> &
  Partial<Pick<BoardRow, 'truckerId'>>;

export interface WorklistOptions {
  /**
   * Whether a box due for pickup without a trucker says "assign a trucker": on when the account
   * keeps truckers (a service without them would say it of every box).
   */
  askForTrucker?: boolean;
}

/** Sections whose boxes must be picked up soon: these need a trucker assigned. */
const PICKUP_SOON: readonly WorklistSection[] = [
  'overdue_accruing',
  'move_today',
  'blocked_lfd_soon',
  'needs_appointment',
];

const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);

export interface WorklistEntry {
  section: WorklistSection;
  /** Why the box is on the list, e.g. "Customs hold, LFD tomorrow". */
  reason: string;
  /** What to do next, e.g. "Ask the customs broker for the release". */
  nextAction: string;
  /** The deadline that drives it (null: none known yet). */
  deadline: LfdDeadline | null;
}

/** Where the box's day is read: the ramp's zone once it travels by rail, else the port's. */
export const worklistZone = (
  row: Pick<WorklistRow, 'location' | 'podTimezone' | 'destinationTimezone'>,
): string => rowPlaceZone({ ...row, deadlines: [] });

const dayOf = (ms: number, zone: string) => DateTime.fromMillis(ms, { zone }).startOf('day');

const holdsText = (names: readonly string[], count: number): string => {
  if (names.length === 0) return count === 1 ? 'On hold' : `${count} holds`;
  const labels = names.map(holdLabel);
  return names.length === 1 ? `${labels[0]} hold` : `${labels.join(' and ')} holds`;
};

/** "Terminal LFD tomorrow", "Line LFD passed yesterday": a deadline's day, named by its source. */
function deadlinePhrase(deadline: LfdDeadline, now: number): string {
  const phrase = lfdDayPhrase(deadline.date, deadline.zone, now); // "LFD tomorrow"
  return deadline.source ? phrase.replace(/^LFD/, lfdSourceLabel(deadline.source)) : phrase;
}

/**
 * Whether and where a container belongs on the worklist at `now`; null when there is nothing to
 * do today (completed, gone from the terminal, far from arrival, or planned and on time). A box
 * due for pickup with no trucker (when the account keeps truckers) says "assign a trucker" first.
 */
export function worklistEntry(
  row: WorklistRow,
  now: number,
  options: WorklistOptions = {},
): WorklistEntry | null {
  const entry = pickupEntry(row, now);
  if (!entry || !options.askForTrucker || row.truckerId || !PICKUP_SOON.includes(entry.section)) {
    return entry;
  }
  return {
    ...entry,
    reason: `${entry.reason}; assign a trucker`,
    nextAction: `Assign a trucker, then ${lowerFirst(entry.nextAction)}`,
  };
}

function pickupEntry(row: WorklistRow, now: number): WorklistEntry | null {
  if (isCompleted(row.status) || hasLeftTerminal(row.status)) return null;
  const zone = worklistZone(row);
  const today = dayOf(now, zone);
  const deadline = rowHeadlineDeadline(row);
  const urgency = deadline ? lfdUrgencyOf(deadline.date, deadline.zone, now) : null;
  const arrived = row.ataAt !== null || row.dischargedAt !== null || row.location.kind === 'ramp';

  if (row.location.kind === 'rail') {
    return {
      section: 'arriving_next',
      reason: `On rail to ${row.location.name ?? 'the ramp'}`,
      nextAction: 'Plan the pickup at the ramp for its arrival',
      deadline,
    };
  }

  if (arrived && deadline && urgency === 'overdue') {
    const first = row.holdNames[0];
    return {
      section: 'overdue_accruing',
      reason: `${deadlinePhrase(deadline, now)}, charges accruing`,
      nextAction:
        row.holdsCount > 0
          ? `${first ? holdAction(first) : 'Clear the hold'}, then pick up`
          : row.ready
            ? row.pickupAppointmentAt
              ? `Dispatch the truck for ${formatShortDateTime(row.pickupAppointmentAt, zone)}`
              : 'Book the first pickup appointment'
            : 'Ask the terminal why the box is not available',
      deadline,
    };
  }

  if (row.holdsCount > 0 && deadline && (urgency === 'today' || urgency === 'soon')) {
    const first = row.holdNames[0];
    return {
      section: 'blocked_lfd_soon',
      reason: `${holdsText(row.holdNames, row.holdsCount)}, ${deadlinePhrase(deadline, now)}`,
      nextAction: first ? holdAction(first) : 'Ask the terminal what clears the hold',
      deadline,
    };
  }

  if (row.ready) {
    const appointment = row.pickupAppointmentAt ? Date.parse(row.pickupAppointmentAt) : NaN;
    const appointmentToday = Number.isFinite(appointment) && dayOf(appointment, zone).equals(today);
    const missed = deadlineMissedByAppointment(
      row.pickupAppointmentAt,
      row.deadlines,
      row.location.kind,
    );
    if (appointmentToday && !missed) {
      return {
        section: 'move_today',
        reason: `Appointment ${formatShortDateTime(row.pickupAppointmentAt, zone)}`,
        nextAction: 'Dispatch the truck for the appointment',
        deadline,
      };
    }
    if (urgency === 'today') {
      return {
        section: 'move_today',
        reason: `Ready, ${deadlinePhrase(deadline!, now)}`,
        nextAction: 'Book a slot for today and dispatch a truck',
        deadline,
      };
    }
    if (missed) {
      return {
        section: 'needs_appointment',
        reason: `Appointment is after the ${lfdSourceLabel(missed.source)} (${formatLocalDate(missed.date, missed.zone)})`,
        nextAction: 'Rebook the appointment before the last free day',
        deadline,
      };
    }
    if (!Number.isFinite(appointment)) {
      return {
        section: 'needs_appointment',
        reason: `Ready, no appointment${deadline ? `; ${deadlinePhrase(deadline, now)}` : ''}`,
        nextAction: 'Book a pickup appointment',
        deadline,
      };
    }
    return null; // booked on a later day, in time
  }

  if (!arrived) {
    const eta = row.etaAt ? Date.parse(row.etaAt) : NaN;
    if (!Number.isFinite(eta)) return null;
    const daysAway = Math.round(dayOf(eta, zone).diff(today, 'days').days);
    if (daysAway > ARRIVING_NEXT_DAYS) return null;
    const vessel = row.vessel ? `${row.vessel} ` : '';
    return {
      section: 'arriving_next',
      reason:
        eta < now
          ? `${vessel}due ${formatShortDateTime(row.etaAt, zone)}, not arrived yet`
          : `${vessel}arrives ${formatShortDateTime(row.etaAt, zone)}`,
      nextAction:
        row.holdsCount > 0 && row.holdNames[0]
          ? holdAction(row.holdNames[0])
          : 'Watch for discharge and availability',
      deadline,
    };
  }

  if (row.holdsCount > 0) return null; // held, but free time is not short yet
  return {
    section: 'arriving_next',
    reason: row.dischargedAt ? 'Discharged, not available yet' : 'Arrived, not discharged yet',
    nextAction: 'Watch for availability',
    deadline,
  };
}

export interface WorklistItem<R extends WorklistRow = WorklistRow> extends WorklistEntry {
  row: R;
}

export interface WorklistPlace<R extends WorklistRow = WorklistRow> {
  /** The terminal (or ramp) name; "Unknown terminal" when the service did not say. */
  name: string;
  zone: string;
  /** Today's date there, `yyyy-MM-dd`. */
  today: string;
  items: WorklistItem<R>[];
}

export interface WorklistGroup<R extends WorklistRow = WorklistRow> {
  section: WorklistSection;
  /** The places with boxes in this section, the one with the most urgent box first. */
  places: WorklistPlace<R>[];
}

const UNKNOWN_PLACE = 'Unknown terminal';

/**
 * Rows by section (urgency order), then by place; within each the money running first (`moneyOf`,
 * e.g. the demurrage accrued), then the soonest deadline, and places follow their first box.
 */
export function buildWorklist<R extends WorklistRow>(
  rows: readonly R[],
  now: number,
  moneyOf: (row: R) => number = () => 0,
  options: WorklistOptions = {},
): WorklistGroup<R>[] {
  const groups = new Map<WorklistSection, Map<string, WorklistPlace<R>>>();
  for (const row of rows) {
    const entry = worklistEntry(row, now, options);
    if (!entry) continue;
    const name = row.location.name ?? UNKNOWN_PLACE;
    let places = groups.get(entry.section);
    if (!places) groups.set(entry.section, (places = new Map()));
    let place = places.get(name);
    if (!place) {
      const zone = worklistZone(row);
      place = { name, zone, today: dayOf(now, zone).toISODate() ?? '', items: [] };
      places.set(name, place);
    }
    place.items.push({ ...entry, row });
  }
  const money = new Map<R, number>();
  const moneyOfRow = (row: R) => {
    const known = money.get(row);
    if (known !== undefined) return known;
    const value = moneyOf(row);
    money.set(row, value);
    return value;
  };
  const soonest = (item: WorklistItem<R>) =>
    item.deadline?.endsAt ?? (item.row.etaAt ? Date.parse(item.row.etaAt) : Infinity);
  const moreUrgent = (a: WorklistItem<R>, b: WorklistItem<R>) =>
    moneyOfRow(b.row) - moneyOfRow(a.row) ||
    soonest(a) - soonest(b) ||
    a.row.number.localeCompare(b.row.number);
  return WORKLIST_SECTIONS.flatMap((section) => {
    const places = [...(groups.get(section)?.values() ?? [])];
    if (places.length === 0) return [];
    for (const place of places) place.items.sort(moreUrgent);
    places.sort((a, b) => moreUrgent(a.items[0]!, b.items[0]!) || a.name.localeCompare(b.name));
    return [{ section, places }];
  });
}

/** How many boxes each section holds across every place. */
export function worklistCounts(groups: readonly WorklistGroup[]): Record<WorklistSection, number> {
  const counts = Object.fromEntries(WORKLIST_SECTIONS.map((s) => [s, 0])) as Record<
    WorklistSection,
    number
  >;
  for (const group of groups)
    for (const place of group.places) counts[group.section] += place.items.length;
  return counts;
}
