/**
 * A delivery order: what it tells the trucker about one container (the one home of its fields),
 * the facts it states that can later turn out wrong (LFD, terminal, appointment, holds), and the
 * words of the alert when one of them has changed since the order was made.
 */
import type { ContainerDetail, TruckerRecord } from './desktop';
import {
  LFD_SOURCE_LABELS,
  activeHolds,
  headlineDeadline,
  holdLabel,
  type LfdSource,
} from './container';
import { formatDateTime, formatLocalDay } from './date-style';
import { Value } from 'typebox/value';
import { DeliveryOrderAttribute } from './api/delivery-order';

/** The facts an order states that the terminal or the line may change afterwards. */
export interface DeliveryOrderFacts {
  /** The headline LFD (a calendar day in `zone`) and whose it is. */
  lfd: { date: string; zone: string; source: LfdSource | null } | null;
  terminal: string | null;
  appointmentAt: string | null;
  /** Active hold names, sorted. */
  holds: string[];
}

export const ORDER_FACTS = ['lfd', 'terminal', 'appointment', 'holds'] as const;
export type OrderFact = (typeof ORDER_FACTS)[number];

export interface DeliveryOrder {
  containerNumber: string;
  billOfLading: string | null;
  sizeType: string | null;
  sealNumber: string | null;
  weightLbs: number | null;
  terminalFirmsCode: string | null;
  /** The terminal's pickup number where its feed gives one (`pickup_number`); else null. */
  pickupNumber: string | null;
  deliverTo: string | null;
  referenceNumbers: string[];
  lineScac: string | null;
  vessel: string | null;
  trucker: TruckerRecord;
  facts: DeliveryOrderFacts;
  /** When the order was made (ISO). */
  madeAt: string;
}

/** The facts of the container as the cache holds it now. */
export function orderFacts(detail: Pick<ContainerDetail, 'row' | 'holds'>): DeliveryOrderFacts {
  const { row } = detail;
  const lfd = headlineDeadline(row.deadlines, row.location.kind);
  return {
    lfd: lfd ? { date: lfd.date, zone: lfd.zone, source: lfd.source } : null,
    terminal: row.terminalName,
    appointmentAt: row.pickupAppointmentAt,
    holds: activeHolds(detail.holds)
      .map((h) => h.name ?? 'hold')
      .sort(),
  };
}

/** The order for a container, from the cached container, its shipment and the trucker. */
export function deliveryOrder(
  detail: ContainerDetail,
  trucker: TruckerRecord,
  terminalFirmsCode: string | null,
  madeAt: string,
): DeliveryOrder {
  const a = detail.container.attributes;
  const s = detail.shipment?.attributes;
  const size = [
    a.equipment_length ? `${a.equipment_length}'` : null,
    a.equipment_type,
    a.equipment_height,
  ]
    .filter(Boolean)
    .join(' ');
  const refs = [...(s?.ref_numbers ?? []), ...(a.ref_numbers ?? [])];
  return {
    containerNumber: detail.row.number,
    billOfLading: detail.row.billOfLading,
    sizeType: size || null,
    sealNumber: a.seal_number ?? null,
    weightLbs: a.weight_in_lbs ?? null,
    terminalFirmsCode,
    pickupNumber: a.pickup_number ?? null,
    deliverTo: s?.customer_name ?? detail.row.customer,
    referenceNumbers: [...new Set(refs)],
    lineScac: detail.row.lineScac,
    vessel: [detail.row.vessel, detail.row.voyage].filter(Boolean).join(' / ') || null,
    trucker,
    facts: orderFacts(detail),
    madeAt,
  };
}

/** An order's fact as the order and the alert word it. */
export function factText(fact: OrderFact, facts: DeliveryOrderFacts): string {
  switch (fact) {
    case 'lfd':
      return facts.lfd
        ? `${formatLocalDay(facts.lfd.date, facts.lfd.zone)}${facts.lfd.source ? ` (${LFD_SOURCE_LABELS[facts.lfd.source]} LFD)` : ''}`
        : 'no LFD';
    case 'terminal':
      return facts.terminal ?? 'no terminal';
    case 'appointment':
      return facts.appointmentAt ? formatDateTime(facts.appointmentAt, 'UTC') : 'no appointment';
    case 'holds':
      return facts.holds.length ? facts.holds.map((h) => holdLabel(h)).join(', ') : 'no holds';
  }
}

/** Who reports each fact now, for the alert's "the terminal now says". */
function teller(fact: OrderFact, now: DeliveryOrderFacts): string {
  if (fact === 'lfd') {
    const source = now.lfd?.source;
    return source === 'line' ? 'the line' : source === 'rail' ? 'the railroad' : 'the terminal';
  }
  return 'the terminal';
}

/** The facts that differ now from what the order said. */
export function changedFacts(said: DeliveryOrderFacts, now: DeliveryOrderFacts): OrderFact[] {
  return ORDER_FACTS.filter((fact) => factText(fact, said) !== factText(fact, now));
}

/** "The delivery order sent to X on 1 Dec says 3 Dec; the terminal now says 2 Dec." */
export function outdatedOrderSentence(
  truckerName: string,
  madeAt: string,
  fact: OrderFact,
  said: DeliveryOrderFacts,
  now: DeliveryOrderFacts,
): string {
  const on = formatDateTime(madeAt, 'UTC');
  return (
    `The delivery order sent to ${truckerName} on ${on} says ${factText(fact, said)}; ` +
    `${teller(fact, now)} now says ${factText(fact, now)}.`
  );
}

/** The order's lines, label and value, in the order the PDF prints them. */
export function orderLines(order: DeliveryOrder): [string, string][] {
  const known = (v: string | number | null | undefined, none = 'not known') =>
    v === null || v === undefined || v === '' ? none : String(v);
  const contact = order.trucker.contacts[0];
  return [
    ['Container', order.containerNumber],
    ['Bill of lading', known(order.billOfLading)],
    ['Size / type', known(order.sizeType)],
    ['Seal', known(order.sealNumber)],
    ['Weight', order.weightLbs === null ? 'not known' : `${order.weightLbs} lbs`],
    ['Line', known(order.lineScac)],
    ['Vessel / voyage', known(order.vessel)],
    ['Terminal', known(order.facts.terminal)],
    ['FIRMS code', known(order.terminalFirmsCode)],
    ['Pickup number', known(order.pickupNumber, 'not given by the terminal')],
    ['Last free day', factText('lfd', order.facts)],
    ['Appointment', factText('appointment', order.facts)],
    ['Holds', factText('holds', order.facts)],
    ['Deliver to', known(order.deliverTo)],
    ['Reference numbers', order.referenceNumbers.join(', ') || 'none'],
    [
      'Trucker',
      `${order.trucker.companyName}${order.trucker.scac ? ` (${order.trucker.scac})` : ''}`,
    ],
    [
      'Trucker contact',
      contact ? [contact.name, contact.email, contact.phone].filter(Boolean).join(', ') : 'none',
    ],
  ];
}

export const deliveryOrderFileName = (order: DeliveryOrder): string =>
  `delivery-order-${order.containerNumber}-${order.madeAt.slice(0, 10)}.pdf`;

/** What an order said, as every desktop records it (from its own make or the service's list). */
export interface RecordedDeliveryOrder {
  containerId: string;
  documentId: string;
  truckerId: string;
  truckerName: string;
  facts: DeliveryOrderFacts;
  madeAt: string;
}

/** The document attribute the service keeps for an order (`delivery_order`, an extension). */
export function orderAttribute(order: DeliveryOrder, containerId: string): DeliveryOrderAttribute {
  const { lfd } = order.facts;
  return {
    container: { id: containerId, number: order.containerNumber },
    trucker: { id: order.trucker.id, name: order.trucker.companyName },
    sent_at: order.madeAt,
    last_free_day: lfd ? { date: lfd.date, time_zone: lfd.zone, source: lfd.source } : null,
    terminal: order.facts.terminal,
    pickup_appointment_at: order.facts.appointmentAt,
    holds: order.facts.holds,
    pickup_number: order.pickupNumber,
  };
}

/**
 * The order a listed document records, from its `delivery_order` attribute; null for other
 * documents and for an attribute that is not a whole order (it is never half-read).
 */
export function recordedOrder(
  documentId: string,
  attribute: unknown,
): RecordedDeliveryOrder | null {
  if (!Value.Check(DeliveryOrderAttribute, attribute)) return null;
  const lfd = attribute.last_free_day;
  return {
    containerId: attribute.container.id,
    documentId,
    truckerId: attribute.trucker.id,
    truckerName: attribute.trucker.name,
    facts: {
      lfd: lfd ? { date: lfd.date, zone: lfd.time_zone, source: lfd.source } : null,
      terminal: attribute.terminal,
      appointmentAt: attribute.pickup_appointment_at,
      holds: [...attribute.holds].sort(),
    },
    madeAt: attribute.sent_at,
  };
}
