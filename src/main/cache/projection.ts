/**
 * Projects /v2 resources onto the cache's sortable, filterable columns. The full resource is
 * stored alongside as JSON; these columns exist only so the board can filter and sort in SQL.
 */
import { createHash } from 'node:crypto';
import {
  activeHolds,
  bindingLfd,
  feesSum,
  LEFT_TERMINAL_STATUSES,
  LFD_DUE_DAYS,
  lfdDeadlines,
  lfdDueFrom,
  lfdZone,
  readiness,
  type BindingLfd,
  type LfdDeadline,
  type LfdSource,
} from '../../shared/container';
import { DateTime } from 'luxon';
import {
  truckerIdOf,
  type CachedContainer as ContainerResource,
  type CachedShipment as ShipmentResource,
} from '../../shared/cached-resources';

/**
 * SQL condition: the container (alias `c`) is still at the terminal. Built from the shared status
 * set so the board, the deadline alerts and the renderer agree on what "gone" means.
 */
export const STILL_AT_TERMINAL_SQL = `(c.picked_up_at IS NULL AND c.current_status NOT IN (${LEFT_TERMINAL_STATUSES.map((s) => `'${s}'`).join(', ')}))`;

/** JSON with object keys sorted, so that equal resources hash equally whatever the key order. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      const sorted: Record<string, unknown> = {};
      for (const k of Object.keys(v as object).sort())
        sorted[k] = (v as Record<string, unknown>)[k];
      return sorted;
    }
    return v;
  });
}

export const textHash = (text: string): string =>
  createHash('sha256').update(text).digest('base64url').slice(0, 22);

/** A hash of the resource that ignores key order (for alert keys of records without a stamp). */
export const contentHash = (value: unknown): string => textHash(canonicalJson(value));

/**
 * A row's change check: the hash of the JSON text it stores. The same service writes a resource's
 * keys in the same order, and a reordering would only cost one rewrite without alerts (the rules
 * compare fields), so the text is hashed as it is rather than with sorted keys, which costs more
 * than the rest of the projection together.
 */
function stored(resource: ContainerResource | ShipmentResource): { hash: string; json: string } {
  const json = JSON.stringify(resource);
  return { hash: textHash(json), json };
}

/** Sortable UTC form (`toISOString`), so that SQL string comparison orders instants correctly. */
export function normIso(value: string | null | undefined): string | null {
  if (!value) return null;
  const t = Date.parse(value);
  return Number.isNaN(t) ? null : new Date(t).toISOString();
}

/**
 * A container's binding LFD from its three deadlines. A service that reports only the coalesced
 * `pickup_lfd` (no `import_deadlines`) gives the date without saying whose it is.
 */
export function containerLfd(c: ContainerResource['attributes']): BindingLfd {
  const d = c.import_deadlines;
  const binding = bindingLfd({
    line: d?.pickup_lfd_line,
    terminal: d?.pickup_lfd_terminal,
    rail: d?.pickup_lfd_rail,
  });
  return binding.date ? binding : { date: c.pickup_lfd ?? null, source: null };
}

/**
 * A deadline as the cache stores it (JSON in `containers.lfd_deadlines`): the shared rule's
 * deadline plus, per calendar window of LFD_DUE_DAYS, the instant from which it counts as due
 * in it, so that SQL can filter by the calendar day of each deadline's own zone.
 */
export interface StoredDeadline extends LfdDeadline {
  dueFrom: Record<string, number>;
}

/** Every deadline of a container, earliest first, each a calendar day of its own zone. */
export function containerDeadlines(c: ContainerResource['attributes']): LfdDeadline[] {
  const d = c.import_deadlines;
  return lfdDeadlines(
    { line: d?.pickup_lfd_line, terminal: d?.pickup_lfd_terminal, rail: d?.pickup_lfd_rail },
    { port: c.pod_timezone, destination: c.final_destination_timezone },
    c.pickup_lfd,
  );
}

const storedDeadline = (d: LfdDeadline): StoredDeadline => ({
  ...d,
  dueFrom: Object.fromEntries(LFD_DUE_DAYS.map((n) => [n, lfdDueFrom(d.date, d.zone, n)])),
});

/** The start of the appointment's calendar day at the terminal: "today" for the board's views. */
function appointmentDayStart(c: ContainerResource['attributes']): number | null {
  if (!c.pickup_appointment_at) return null;
  const at = DateTime.fromISO(c.pickup_appointment_at, {
    zone: lfdZone('line', { port: c.pod_timezone }),
  });
  return at.isValid ? at.startOf('day').toMillis() : null;
}

/** Whether the container can be picked up, judged from the resource alone. */
export function containerReadiness(c: ContainerResource['attributes']) {
  return readiness({
    status: c.current_status ?? '',
    activeHoldCount: activeHolds(c.holds_at_pod_terminal ?? []).length,
    arrivedAt: c.pod_arrived_at,
    dischargedAt: c.pod_discharged_at,
    fullOutAt: c.pod_full_out_at,
    availabilityKnown: c.availability_known === true,
    availableForPickup: c.available_for_pickup,
  });
}

export interface ContainerRow {
  id: string;
  shipment_id: string | null;
  number: string;
  ref_numbers: string;
  current_status: string;
  pod_terminal_id: string | null;
  pod_arrived_at: string | null;
  pod_discharged_at: string | null;
  availability_known: number;
  available_for_pickup: number | null;
  ready: number;
  holds_count: number;
  fees_amount: number | null;
  fees_currency: string | null;
  lfd: string | null;
  lfd_source: LfdSource | null;
  /** JSON list of StoredDeadline, earliest first; null without deadlines. */
  lfd_deadlines: string | null;
  /** Epoch ms: the start of the earliest deadline's day (from then on it needs action). */
  lfd_first_due_at: number | null;
  /** Epoch ms: when the earliest and the latest deadline's free time ends. */
  lfd_first_end_at: number | null;
  lfd_last_end_at: number | null;
  /** Epoch ms: the start of the appointment's day at the terminal. */
  appointment_day_at: number | null;
  pickup_appointment_at: string | null;
  picked_up_at: string | null;
  empty_returned_at: string | null;
  terminal_checked_at: string | null;
  updated_at: string | null;
  pod_timezone: string | null;
  /** The trucker party the box is assigned to (a Quayside extension). */
  trucker_id: string | null;
  hash: string;
  json: string;
}

export function containerRow(resource: ContainerResource): ContainerRow {
  const a = resource.attributes;
  const { date: lfd, source } = containerLfd(a);
  const fees = feesSum(a.fees_at_pod_terminal ?? []);
  const deadlines = containerDeadlines(a).map(storedDeadline);
  return {
    id: resource.id,
    shipment_id: resource.relationships?.shipment?.data?.id ?? null,
    // Sparse records: a missing number or status is stored empty (the columns are NOT NULL).
    number: a.number ?? '',
    ref_numbers: (a.ref_numbers ?? []).join(' '),
    current_status: a.current_status ?? '',
    pod_terminal_id: resource.relationships?.pod_terminal?.data?.id ?? null,
    pod_arrived_at: normIso(a.pod_arrived_at),
    pod_discharged_at: normIso(a.pod_discharged_at),
    availability_known: a.availability_known ? 1 : 0,
    available_for_pickup: a.available_for_pickup === null ? null : a.available_for_pickup ? 1 : 0,
    ready: containerReadiness(a).ready ? 1 : 0,
    holds_count: activeHolds(a.holds_at_pod_terminal ?? []).length,
    fees_amount: fees.amount,
    fees_currency: fees.currency,
    lfd: normIso(lfd),
    lfd_source: source,
    lfd_deadlines: deadlines.length > 0 ? JSON.stringify(deadlines) : null,
    lfd_first_due_at:
      deadlines.length > 0 ? Math.min(...deadlines.map((d) => d.dueFrom[1]!)) : null,
    lfd_first_end_at: deadlines[0]?.endsAt ?? null,
    lfd_last_end_at: deadlines[deadlines.length - 1]?.endsAt ?? null,
    appointment_day_at: appointmentDayStart(a),
    pickup_appointment_at: normIso(a.pickup_appointment_at),
    picked_up_at: normIso(a.pod_full_out_at ?? a.final_destination_full_out_at),
    empty_returned_at: normIso(a.empty_terminated_at),
    terminal_checked_at: normIso(a.terminal_checked_at),
    updated_at: normIso(a.updated_at),
    pod_timezone: a.pod_timezone,
    trucker_id: truckerIdOf(resource),
    ...stored(resource),
  };
}

export interface ShipmentRow {
  id: string;
  bill_of_lading: string;
  line_scac: string | null;
  line_name: string | null;
  customer_name: string | null;
  ref_numbers: string;
  pol_locode: string | null;
  pod_locode: string | null;
  pod_name: string | null;
  vessel_name: string | null;
  voyage_number: string | null;
  pol_atd_at: string | null;
  pod_eta_at: string | null;
  pod_ata_at: string | null;
  pod_timezone: string | null;
  updated_at: string | null;
  hash: string;
  json: string;
}

export function shipmentRow(resource: ShipmentResource): ShipmentRow {
  const a = resource.attributes;
  return {
    id: resource.id,
    bill_of_lading: a.bill_of_lading_number,
    line_scac: a.shipping_line_scac,
    line_name: a.shipping_line_name,
    customer_name: a.customer_name,
    ref_numbers: (a.ref_numbers ?? []).join(' '),
    pol_locode: a.port_of_lading_locode,
    pod_locode: a.port_of_discharge_locode,
    pod_name: a.port_of_discharge_name,
    vessel_name: a.pod_vessel_name,
    voyage_number: a.pod_voyage_number,
    pol_atd_at: normIso(a.pol_atd_at),
    pod_eta_at: normIso(a.pod_eta_at),
    pod_ata_at: normIso(a.pod_ata_at),
    pod_timezone: a.pod_timezone,
    updated_at: normIso(a.updated_at),
    ...stored(resource),
  };
}
