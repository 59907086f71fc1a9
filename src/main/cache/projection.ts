/**
 * Projects /v2 resources onto the cache's sortable, filterable columns. The full resource is
 * stored alongside as JSON; these columns exist only so the board can filter and sort in SQL.
 */
import { createHash } from 'node:crypto';
import type { TerminalHold } from '../../shared/api/resources';
import type {
  CachedContainer as ContainerResource,
  CachedShipment as ShipmentResource,
} from '../../shared/cached-resources';

export type LfdSource = 'line' | 'terminal' | 'rail';

/** Statuses after which the container has left the port terminal: no more pickup to plan. */
export const PICKED_UP_STATUSES = [
  'picked_up',
  'off_dock',
  'delivered',
  'dropped',
  'loaded',
  'empty_returned',
] as const;

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

export const contentHash = (value: unknown): string =>
  createHash('sha256').update(canonicalJson(value)).digest('base64url').slice(0, 22);

/** Sortable UTC form (`toISOString`), so that SQL string comparison orders instants correctly. */
export function normIso(value: string | null | undefined): string | null {
  if (!value) return null;
  const t = Date.parse(value);
  return Number.isNaN(t) ? null : new Date(t).toISOString();
}

const ms = (iso: string | null | undefined): number | null => {
  if (!iso) return null;
  const t = Date.parse(iso);
  return Number.isNaN(t) ? null : t;
};

/** The binding last free day and where it comes from; the line's deadline wins. */
export function bindingLfd(c: ContainerResource['attributes']): {
  lfd: string | null;
  source: LfdSource | null;
} {
  const d = c.import_deadlines;
  const candidates: [LfdSource, string | null | undefined][] = [
    ['line', d?.pickup_lfd_line],
    ['terminal', d?.pickup_lfd_terminal],
    ['rail', d?.pickup_lfd_rail],
  ];
  if (c.pickup_lfd) {
    const at = ms(c.pickup_lfd);
    const match = candidates.find(([, value]) => value && ms(value) === at);
    return { lfd: c.pickup_lfd, source: match ? match[0] : null };
  }
  const first = candidates.find(([, value]) => value);
  return first ? { lfd: first[1]!, source: first[0] } : { lfd: null, source: null };
}

/** Holds that block pickup; `pending` entries are not (yet) holds. */
export const activeHolds = (holds: readonly TerminalHold[]): TerminalHold[] =>
  holds.filter((h) => h.status === 'hold');

export function isReady(c: ContainerResource['attributes']): boolean {
  return (
    c.availability_known &&
    c.available_for_pickup === true &&
    activeHolds(c.holds_at_pod_terminal).length === 0 &&
    !c.pod_full_out_at
  );
}

/** Sum of the itemised fees; `total` would double count. Mixed currencies leave the sum unset. */
export function feesSum(c: ContainerResource['attributes']): {
  amount: number | null;
  currency: string | null;
} {
  const items = c.fees_at_pod_terminal.filter((f) => f.type !== 'total');
  if (items.length === 0) return { amount: null, currency: null };
  const currencies = new Set(items.map((f) => f.currency_code));
  if (currencies.size > 1) return { amount: null, currency: null };
  const amount = items.reduce((sum, f) => sum + f.amount, 0);
  return { amount: Math.round(amount * 100) / 100, currency: items[0]!.currency_code };
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
  pickup_appointment_at: string | null;
  picked_up_at: string | null;
  empty_returned_at: string | null;
  terminal_checked_at: string | null;
  updated_at: string | null;
  pod_timezone: string | null;
  hash: string;
  json: string;
}

export function containerRow(resource: ContainerResource): ContainerRow {
  const a = resource.attributes;
  const { lfd, source } = bindingLfd(a);
  const fees = feesSum(a);
  return {
    id: resource.id,
    shipment_id: resource.relationships?.shipment?.data?.id ?? null,
    number: a.number,
    ref_numbers: a.ref_numbers.join(' '),
    current_status: a.current_status,
    pod_terminal_id: resource.relationships?.pod_terminal?.data?.id ?? null,
    pod_arrived_at: normIso(a.pod_arrived_at),
    pod_discharged_at: normIso(a.pod_discharged_at),
    availability_known: a.availability_known ? 1 : 0,
    available_for_pickup: a.available_for_pickup === null ? null : a.available_for_pickup ? 1 : 0,
    ready: isReady(a) ? 1 : 0,
    holds_count: activeHolds(a.holds_at_pod_terminal).length,
    fees_amount: fees.amount,
    fees_currency: fees.currency,
    lfd: normIso(lfd),
    lfd_source: source,
    pickup_appointment_at: normIso(a.pickup_appointment_at),
    picked_up_at: normIso(a.pod_full_out_at ?? a.final_destination_full_out_at),
    empty_returned_at: normIso(a.empty_terminated_at),
    terminal_checked_at: normIso(a.terminal_checked_at),
    updated_at: normIso(a.updated_at),
    pod_timezone: a.pod_timezone,
    hash: contentHash(resource),
    json: JSON.stringify(resource),
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
    hash: contentHash(resource),
    json: JSON.stringify(resource),
  };
}
