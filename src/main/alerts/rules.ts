/**
 * The alert rules: what a dispatcher must hear about, worked out by comparing a record before
 * and after a write. A record seen for the first time raises nothing (no alert storm on the
 * initial sync of old data), nor does history older than the source's baseline. Dedupe keys name the container, the record version and the change,
 * so the same change applied twice is stored once.
 */
import type { AlertDraft } from '../../shared/desktop';
import type { StoredDeliveryOrder, StoredInvoice, UpcomingDeadline } from '../cache/interface';
import type { ContainerDetail } from '../../shared/desktop';
import {
  changedFacts,
  factText,
  orderFacts,
  outdatedOrderSentence,
} from '../../shared/delivery-order';
import { disputeBy, disputeReminderOn } from '../../shared/charges/statement';
import { contentHash, containerDeadlines, containerReadiness } from '../cache/projection';
import {
  activeHolds,
  hasLeftTerminal,
  headlineDeadline,
  holdDescription,
  holdLabel,
  lfdCountdown,
  lfdDayPhrase,
  lfdLocalDate,
  lfdSourceLabel,
  lfdZone,
  placeKind,
} from '../../shared/container';
import { formatLocalDate } from '../../shared/date-style';
import type { CachedContainer, CachedShipment } from '../../shared/cached-resources';
import { formatInZone } from './format';

const HOUR = 3_600_000;

export interface RuleOptions {
  /** An ETA moving by more than this raises an alert. */
  etaChangeThresholdHours: number;
  /**
   * The source's baseline (epoch ms): when the app first looked at this service. A pickup or
   * empty return that happened before it is history, shown on the board but never alerted.
   */
  since?: number | null;
}

/** Whether a fact stamped `at` happened before the source's baseline. */
const beforeBaseline = (at: string | null | undefined, options: RuleOptions): boolean => {
  const t = instant(at);
  return t !== null && options.since != null && t < options.since;
};

const instant = (iso: string | null | undefined): number | null => {
  if (!iso) return null;
  const t = Date.parse(iso);
  return Number.isNaN(t) ? null : t;
};
const sameInstant = (a: string | null | undefined, b: string | null | undefined) =>
  instant(a) === instant(b);

/** The record's version: the server's `updated_at`, or a content hash where there is none. */
const versionOf = (r: CachedContainer | CachedShipment) =>
  r.attributes.updated_at ?? contentHash(r);

const isPickedUp = (a: CachedContainer['attributes']) =>
  Boolean(a.pod_full_out_at) || hasLeftTerminal(a.current_status ?? '');
const isEmptyReturned = (a: CachedContainer['attributes']) =>
  Boolean(a.empty_terminated_at) || a.current_status === 'empty_returned';

const LFD_FIELDS = [
  ['pickup_lfd', 'Last free day', (a: CachedContainer['attributes']) => a.pickup_lfd],
  ['line', 'Line LFD', (a: CachedContainer['attributes']) => a.import_deadlines?.pickup_lfd_line],
  [
    'terminal',
    'Terminal LFD',
    (a: CachedContainer['attributes']) => a.import_deadlines?.pickup_lfd_terminal,
  ],
  ['rail', 'Rail LFD', (a: CachedContainer['attributes']) => a.import_deadlines?.pickup_lfd_rail],
] as const;

export function containerAlerts(
  before: CachedContainer | null,
  after: CachedContainer,
  options: RuleOptions,
): AlertDraft[] {
  if (!before) return [];
  const b = before.attributes;
  const a = after.attributes;
  const id = after.id;
  const number = a.number;
  const zone = a.pod_timezone ?? b.pod_timezone;
  const version = versionOf(after);
  const shipmentId = after.relationships?.shipment?.data?.id ?? null;
  const drafts: AlertDraft[] = [];
  const add = (kind: AlertDraft['kind'], detail: string, title: string, body: string) =>
    drafts.push({
      kind,
      dedupeKey: `${kind}:${id}:${version}:${detail}`,
      containerId: id,
      shipmentId,
      title,
      body,
    });

  // One alert for all deadline changes of one write: a new line LFD moves pickup_lfd too.
  const lfdChanges = LFD_FIELDS.filter(([, , get]) => !sameInstant(get(b), get(a)));
  if (lfdChanges.length > 0) {
    // Each deadline is a calendar day of its own zone: the ramp's for rail, the port's otherwise.
    const zones = {
      port: zone,
      destination: a.final_destination_timezone ?? b.final_destination_timezone,
    };
    const day = (field: (typeof LFD_FIELDS)[number][0], value: string | null | undefined) => {
      if (!value) return 'none';
      const inZone = lfdZone(field === 'rail' ? 'rail' : 'line', zones);
      const date = lfdLocalDate(value, inZone);
      return date ? formatLocalDate(date, inZone, true) : value;
    };
    // The wire's line-first pickup_lfd is not the date that acts first: the headline names
    // the earliest deadline that counts where the box is; the coalesced date is shown only
    // when the service reports no sourced deadline.
    const sourced = lfdChanges.filter(([field]) => field !== 'pickup_lfd');
    const shown = sourced.length > 0 ? sourced : lfdChanges;
    const first = headlineDeadline(
      containerDeadlines(a),
      placeKind({
        status: a.current_status ?? '',
        railDepartedAt: a.pod_rail_departed_at ?? null,
        railUnloadedAt: a.ind_rail_unloaded_at ?? null,
      }),
    );
    const lines = [
      ...(first
        ? [
            `Acts first: ${lfdSourceLabel(first.source)} ${formatLocalDate(first.date, first.zone, true)}`,
          ]
        : []),
      ...shown.map(
        ([field, label, get]) => `${label}: ${day(field, get(b))} -> ${day(field, get(a))}`,
      ),
    ];
    const detail = lfdChanges.map(([field, , get]) => `${field}=${get(a) ?? ''}`).join(';');
    add('lfd_changed', detail, `LFD changed for ${number}`, lines.join('\n'));
  }

  if (!containerReadiness(b).ready && containerReadiness(a).ready) {
    add('ready_for_pickup', 'ready', `${number} is ready for pickup`, 'Available, no holds.');
  }

  const heldBefore = new Set(activeHolds(b.holds_at_pod_terminal ?? []).map((h) => h.name));
  const heldAfter = activeHolds(a.holds_at_pod_terminal ?? []);
  for (const hold of heldAfter) {
    if (heldBefore.has(hold.name)) continue;
    add(
      'hold_placed',
      hold.name,
      `Hold placed on ${number}: ${holdLabel(hold.name)}`,
      holdDescription(hold.name) + (hold.description ? ` (${hold.description})` : ''),
    );
  }
  const heldAfterNames = new Set(heldAfter.map((h) => h.name));
  for (const name of heldBefore) {
    if (heldAfterNames.has(name)) continue;
    add(
      'hold_cleared',
      name,
      `Hold cleared on ${number}: ${holdLabel(name)}`,
      `${holdLabel(name)} hold released.`,
    );
  }

  if (!sameInstant(b.pickup_appointment_at, a.pickup_appointment_at)) {
    const body = a.pickup_appointment_at
      ? `Pickup appointment: ${formatInZone(a.pickup_appointment_at, zone)}` +
        (b.pickup_appointment_at ? ` (was ${formatInZone(b.pickup_appointment_at, zone)})` : '')
      : `Pickup appointment ${formatInZone(b.pickup_appointment_at, zone)} cancelled.`;
    add(
      'appointment_changed',
      a.pickup_appointment_at ?? 'none',
      `Appointment changed for ${number}`,
      body,
    );
  }

  const etaBefore = instant(b.ind_eta_at);
  const etaAfter = instant(a.ind_eta_at);
  if (
    etaBefore !== null &&
    etaAfter !== null &&
    Math.abs(etaAfter - etaBefore) > options.etaChangeThresholdHours * HOUR
  ) {
    const inlandZone = a.final_destination_timezone ?? zone;
    add(
      'eta_changed',
      `ind=${a.ind_eta_at}`,
      `Inland ETA moved for ${number}`,
      `${formatInZone(b.ind_eta_at, inlandZone)} -> ${formatInZone(a.ind_eta_at, inlandZone)}`,
    );
  }

  if (!isPickedUp(b) && isPickedUp(a) && !beforeBaseline(a.pod_full_out_at, options)) {
    add(
      'picked_up',
      'picked_up',
      `${number} picked up`,
      a.pod_full_out_at
        ? `Out of the terminal ${formatInZone(a.pod_full_out_at, zone)}.`
        : 'Out of the terminal.',
    );
  }
  if (
    !isEmptyReturned(b) &&
    isEmptyReturned(a) &&
    !beforeBaseline(a.empty_terminated_at, options)
  ) {
    add(
      'empty_returned',
      'empty_returned',
      `${number} empty returned`,
      a.empty_terminated_at
        ? `Returned ${formatInZone(a.empty_terminated_at, a.empty_terminated_timezone ?? zone)}.`
        : 'Empty returned.',
    );
  }
  return drafts;
}

export function shipmentAlerts(
  before: CachedShipment | null,
  after: CachedShipment,
  containerIds: readonly string[],
  options: RuleOptions,
): AlertDraft[] {
  if (!before) return [];
  const b = instant(before.attributes.pod_eta_at);
  const a = instant(after.attributes.pod_eta_at);
  if (b === null || a === null) return [];
  if (Math.abs(a - b) <= options.etaChangeThresholdHours * HOUR) return [];
  // Once arrived, the ETA no longer matters.
  if (after.attributes.pod_ata_at) return [];
  const attrs = after.attributes;
  const zone = attrs.pod_timezone;
  const where =
    attrs.port_of_discharge_name ?? attrs.port_of_discharge_locode ?? 'the port of discharge';
  const containers =
    containerIds.length === 1 ? '1 container' : `${containerIds.length} containers`;
  return [
    {
      kind: 'eta_changed',
      dedupeKey: `eta_changed:${after.id}:${versionOf(after)}:pod=${attrs.pod_eta_at}`,
      containerId: containerIds[0] ?? null,
      shipmentId: after.id,
      title: `ETA moved ${a > b ? 'later' : 'earlier'} for ${attrs.bill_of_lading_number}`,
      body:
        `Arrival at ${where}: ${formatInZone(before.attributes.pod_eta_at, zone)} -> ` +
        `${formatInZone(attrs.pod_eta_at, zone)} (${containers}).`,
    },
  ];
}

/**
 * One "LFD approaching" alert per container, deadline (the instant its free time ends) and
 * threshold: whatever the restarts, the same crossing is stored once.
 */
export const lfdApproachingKey = (containerId: string, endsAt: number, hours: number): string =>
  `lfd_approaching:${containerId}:${new Date(endsAt).toISOString()}:${hours}h`;

/**
 * "LFD approaching" alerts due at `now`, one per box: its earliest deadline not yet past speaks
 * (the shared rule's driving deadline) and names the later ones, so a terminal LFD today and a
 * line LFD tomorrow are one alert, not two. For that deadline, the tightest threshold (hours
 * before its free time ends) already crossed. A threshold crossed before the container was first
 * synced is old news and stays silent, and the tightest-only rule keeps a long offline gap from
 * raising one alert per threshold. Titles count calendar days of the deadline's zone ("LFD
 * tomorrow").
 */
export function approachingAlerts(
  deadlines: readonly UpcomingDeadline[],
  now: number,
  thresholdsHours: readonly number[],
  /** Which alert keys are stored already (a deadline past "LFD today" never goes back). */
  stored: (keys: readonly string[]) => Set<string> = () => new Set(),
): AlertDraft[] {
  const thresholds = [...new Set(thresholdsHours)].sort((x, y) => x - y);
  const drafts: AlertDraft[] = [];
  for (const box of unmetByContainer(deadlines, now)) {
    const [{ deadline: d, ...c }, ...later] = box;
    const seen = instant(c.firstSeenAt);
    if (seen === null) continue;
    const crossed = thresholds.find((h) => now >= d.endsAt - h * HOUR);
    if (crossed === undefined || seen > d.endsAt - crossed * HOUR) continue;
    // A tighter threshold already raised for this deadline (the clock or the thresholds moved
    // since): the looser one would be stale news.
    const tighter = thresholds.filter((h) => h < crossed);
    if (stored(tighter.map((h) => lfdApproachingKey(c.id, d.endsAt, h))).size > 0) continue;
    const where = c.terminalName ? ` at ${c.terminalName}` : '';
    const then = later.map(
      ({ deadline: o }) => `${lfdSourceLabel(o.source)} ${formatLocalDate(o.date, o.zone, true)}`,
    );
    drafts.push({
      kind: 'lfd_approaching',
      dedupeKey: lfdApproachingKey(c.id, d.endsAt, crossed),
      containerId: c.id,
      shipmentId: null,
      title: `${lfdDayPhrase(d.date, d.zone, now)} for ${c.number}`,
      body:
        `${lfdSourceLabel(d.source)}${where}: ${formatLocalDate(d.date, d.zone, true)}` +
        ` (free time ends at midnight, ${lfdCountdown(d.date, d.zone, now)}).` +
        (then.length > 0 ? ` Then ${then.join(', ')}.` : ''),
    });
  }
  return drafts;
}

/** Each box's deadlines not yet past at `now`, earliest first (the first one drives). */
function unmetByContainer(
  deadlines: readonly UpcomingDeadline[],
  now: number,
): UpcomingDeadline[][] {
  const boxes = new Map<string, UpcomingDeadline[]>();
  for (const entry of [...deadlines].sort((a, b) => a.deadline.endsAt - b.deadline.endsAt)) {
    if (entry.deadline.endsAt <= now) continue;
    const box = boxes.get(entry.id);
    if (box) box.push(entry);
    else boxes.set(entry.id, [entry]);
  }
  return [...boxes.values()];
}

/** When the next threshold will be crossed (epoch ms), to schedule the next check. */
export function nextCrossing(
  deadlines: readonly UpcomingDeadline[],
  now: number,
  thresholdsHours: readonly number[],
): number | null {
  let next: number | null = null;
  for (const { deadline } of deadlines) {
    for (const h of thresholdsHours) {
      const at = deadline.endsAt - h * HOUR;
      if (at > now && (next === null || at < next)) next = at;
    }
  }
  return next;
}

/**
 * Reminders that a received D&D invoice's dispute window closes soon: from
 * DISPUTE_REMINDER_DAYS before the last day to dispute through that day (calendar days, UTC).
 */
export function invoiceReminderDrafts(
  invoices: readonly StoredInvoice[],
  now: number,
): AlertDraft[] {
  const today = new Date(now).toISOString().slice(0, 10);
  return invoices.flatMap((invoice) => {
    const by = disputeBy(invoice.date);
    if (today < disputeReminderOn(invoice.date) || today > by) return [];
    const number = invoice.containerNumber ?? 'a container';
    return [
      {
        kind: 'invoice_dispute_due' as const,
        dedupeKey: `invoice_dispute_due:${invoice.containerId}:${invoice.date}`,
        containerId: invoice.containerId,
        shipmentId: invoice.shipmentId,
        title: `Dispute window closing for ${number}`,
        body:
          `The D&D invoice of ${invoice.date} (${invoice.currency} ${invoice.amount}) can be ` +
          `disputed until ${by}. Compare it with the statement under Charges.`,
      },
    ];
  });
}

/**
 * A delivery order that a later change made wrong: one alert per fact that now differs from
 * what the order said (LFD, terminal, appointment, holds), keyed by the order, the fact and its
 * new value, so each change is told once and a change back and forth again is told again.
 */
export function outdatedOrderDrafts(
  orders: readonly StoredDeliveryOrder[],
  detailOf: (containerId: string) => ContainerDetail | null,
): AlertDraft[] {
  return orders.flatMap((order) => {
    const detail = detailOf(order.containerId);
    if (!detail) return [];
    const now = orderFacts(detail);
    return changedFacts(order.facts, now).map((fact) => ({
      kind: 'delivery_order_outdated' as const,
      dedupeKey: `delivery_order_outdated:${order.containerId}:${order.documentId}:${fact}:${factText(fact, now)}`,
      containerId: order.containerId,
      shipmentId: detail.row.shipmentId,
      title: `Delivery order for ${detail.row.number} is out of date`,
      body: outdatedOrderSentence(order.truckerName, order.madeAt, fact, order.facts, now),
    }));
  });
}
