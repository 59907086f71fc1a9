/**
 * The D&D statement: a container's demurrage (at the terminal, after the last free day) and
 * detention (per diem, after the line's free days to return the empty) day by day, each charged
 * day with its rate and the facts of that day, and the days a reasonable importer would dispute
 * flagged with the reason and the evidence. It carries every field 46 CFR 541.6 requires of a
 * D&D invoice, so that it can be set beside the invoice received.
 *
 * Built on the cost clock's tariffs and counting (../cost-clock.ts) and the container rules'
 * deadlines and holds (../container/): a day is a calendar day of the deadline's zone.
 * The same input comes from the service's store and the desktop cache.
 * No Node imports: the renderer bundles this file.
 */
import { DateTime } from 'luxon';
import {
  feesSum,
  hasLeftTerminal,
  holdLabel,
  holdPlacedBy,
  HOLD_PARTY_LABELS,
  isActiveHold,
  lfdDeadlines,
  lfdLocalDate,
  lfdSourceLabel,
  lfdZone,
  type FeeLike,
  type LfdDeadline,
  type LfdSource,
} from '../container';
import {
  chargedDays,
  demurrageDeadline,
  perDiemFor,
  perDiemFreeTime,
  rateOnDay,
  sumMoney,
  tariffFor,
  type CostTables,
  type TariffTier,
} from '../cost-clock';

/** 46 CFR 541.7: the billed party has at least 30 days from the invoice to dispute it. */
export const DISPUTE_WINDOW_DAYS = 30;
/** The reminder comes this many days before the dispute window closes. */
export const DISPUTE_REMINDER_DAYS = 5;

/**
 * Holds the importer (or its broker) clears itself: customs release and the port's fees. Days
 * under any other hold (the line's, the terminal's, an exam) are outside its control.
 */
const IMPORTER_CLEARS = new Set(['customs', 'tmf', 'ctf']);

// ---------------------------------------------------------------------------------------------
// Input: what the service's store and the desktop cache both hold

/** The container attributes the statement reads (the /v2 names; the cache's looser types fit). */
export interface ChargesContainer {
  number: string | null;
  current_status: string | null;
  pickup_lfd?: string | null;
  import_deadlines?: {
    pickup_lfd_line?: string | null;
    pickup_lfd_terminal?: string | null;
    pickup_lfd_rail?: string | null;
  } | null;
  pod_timezone?: string | null;
  final_destination_timezone?: string | null;
  pod_arrived_at?: string | null;
  pod_discharged_at?: string | null;
  pod_full_out_at?: string | null;
  empty_terminated_at?: string | null;
  availability_known?: boolean | null;
  available_for_pickup?: boolean | null;
  pickup_appointment_at?: string | null;
  holds_at_pod_terminal?: readonly { name: string; status: string }[] | null;
  fees_at_pod_terminal?: readonly FeeLike[] | null;
  terminal_checked_at?: string | null;
}

export interface ChargesShipment {
  bill_of_lading_number?: string | null;
  shipping_line_scac?: string | null;
  shipping_line_name?: string | null;
  port_of_discharge_name?: string | null;
  port_of_discharge_locode?: string | null;
  customer_name?: string | null;
}

/** A transport event of the container (withdrawn ones are skipped). */
export interface ChargesEvent {
  event: string | null;
  timestamp: string | null;
  invalidated_at?: string | null;
}

/** A hold as seen over time: `to` null while it still stands. */
export interface HoldPeriod {
  name: string;
  from: string;
  to: string | null;
}

/** One change of a last free day; `from`/`to` null when only the moment is known. */
export interface LfdChange {
  at: string;
  source: LfdSource | null;
  from: string | null;
  to: string | null;
}

/** The invoice received for the container, as the user entered it. */
export interface ReceivedInvoice {
  amount: number;
  currency: string;
  /** `yyyy-MM-dd`: the invoice date. */
  date: string;
}

export interface ChargesInput {
  container: ChargesContainer;
  shipment: ChargesShipment | null;
  terminalName: string | null;
  events: readonly ChargesEvent[];
  /** Holds with when they were placed and released; absent: the current holds from the last check. */
  holdHistory?: readonly HoldPeriod[] | undefined;
  lfdChanges?: readonly LfdChange[] | undefined;
  invoice?: ReceivedInvoice | null | undefined;
  tables: CostTables;
  now: number;
}

// ---------------------------------------------------------------------------------------------
// Output

export interface ChargeDispute {
  /** "Freight hold by the line", "Not available after discharge". */
  reasons: string[];
  /** What shows it: "Freight hold placed 2 Dec 08:00 PST, released 4 Dec 14:00 PST". */
  evidence: string[];
}

export interface ChargeDay {
  /** `yyyy-MM-dd` in the section's zone. */
  date: string;
  weekday: string;
  weekend: boolean;
  /** 1 = the first day after free time. */
  dayNumber: number;
  /** The tier's first day (the rate that applies from that charged day on). */
  tier: number;
  rate: number;
  amount: number;
  /** What happened that day: holds and who placed them, availability, appointment, gate. */
  facts: string[];
  dispute: ChargeDispute | null;
}

/** Consecutive disputed days with the same first reason: "Freight hold by the line 2–4 Dec". */
export interface DisputeRun {
  reason: string;
  from: string;
  to: string;
  days: number;
  amount: number;
  summary: string;
  evidence: string[];
}

export interface InvoiceField {
  key: string;
  label: string;
  /** What Quayside knows; null: only the invoice can say (check it is there). */
  value: string | null;
}

export interface ChargeSection {
  kind: 'demurrage' | 'detention';
  /** Who bills it: the terminal (or the line) for demurrage, the line for detention. */
  billedBy: string;
  zone: string;
  /** The first free day (`yyyy-MM-dd`); the availability date for demurrage. */
  freeTimeStart: string | null;
  /** The last free day. */
  freeTimeEnd: string | null;
  freeDays: number | null;
  /** Whose deadline ends demurrage's free time. */
  deadlineSource: LfdSource | null;
  /** Charges still run (the box is still there / the empty not returned). */
  running: boolean;
  days: ChargeDay[];
  tariffRule: string;
  currency: string;
  /** The tariff's sum of the days. */
  estimate: number;
  /** What the terminal reports as owed, when it does. */
  reported: number | null;
  /** Reported fees first, else the tariff's estimate. */
  total: number;
  totalSource: 'terminal' | 'tariff';
  disputedAmount: number;
  disputes: DisputeRun[];
  /** 46 CFR 541.6's invoice contents, this section's values. */
  invoiceFields: InvoiceField[];
  /** What the statement could not know (e.g. a pickup time that was never reported). */
  notes: string[];
}

export interface InvoiceCheck extends ReceivedInvoice {
  /** `yyyy-MM-dd`: the last day to dispute (invoice date + 30 days). */
  disputeBy: string;
  /** `yyyy-MM-dd`: when the reminder is due. */
  remindOn: string;
  /** Calendar days left to dispute (negative once closed), counted in the statement's zone. */
  daysLeft: number;
  /** Invoice amount minus the statement's total, when both are in one currency. */
  difference: number | null;
}

/** What the desktop shows: the statement and the invoice entered for the container. */
export interface ContainerCharges {
  statement: ChargesStatement;
  invoice: ReceivedInvoice | null;
}

export interface ChargesStatement {
  containerNumber: string | null;
  billOfLading: string | null;
  lineScac: string | null;
  lineName: string | null;
  terminalName: string | null;
  portOfDischarge: string | null;
  customer: string | null;
  zone: string;
  generatedAt: string;
  demurrage: ChargeSection | null;
  detention: ChargeSection | null;
  /** Demurrage and detention together; null when their currencies differ. */
  total: { amount: number; currency: string } | null;
  disputed: { amount: number; currency: string } | null;
  lfdChanges: { at: string; source: LfdSource | null; from: string | null; to: string | null }[];
  invoice: InvoiceCheck | null;
}

// ---------------------------------------------------------------------------------------------
// Building it

const WEEKEND = new Set([6, 7]);

const ms = (iso: string | null | undefined): number | null => {
  if (!iso) return null;
  const t = Date.parse(iso);
  return Number.isFinite(t) ? t : null;
};

const round = (n: number) => Math.round(n * 100) / 100;

/** "3 Dec 08:00 PST" in the zone. */
const when = (t: number, zone: string) => {
  const at = DateTime.fromMillis(t, { zone });
  return `${at.toFormat('d LLL HH:mm')} ${at.offsetNameShort ?? zone}`;
};

const dayText = (date: string, zone: string) => DateTime.fromISO(date, { zone }).toFormat('d LLL');

/** "2–4 Dec", "30 Nov–2 Dec", "5 Dec". */
export function dayRange(from: string, to: string): string {
  const a = DateTime.fromISO(from);
  const b = DateTime.fromISO(to);
  if (from === to) return a.toFormat('d LLL');
  return a.month === b.month && a.year === b.year
    ? `${a.toFormat('d')}–${b.toFormat('d LLL')}`
    : `${a.toFormat('d LLL')}–${b.toFormat('d LLL')}`;
}

const localDay = (t: number, zone: string) => DateTime.fromMillis(t, { zone }).toISODate() ?? '';

/** Something that stopped the box from moving for a while. */
interface Block {
  from: number;
  to: number;
  reason: string;
  evidence: string;
  /** Outside the importer's control: days under it are disputed. */
  disputable: boolean;
}

/** The terminal's availability over time, from its reports, after discharge. */
function availabilityBlocks(input: ChargesInput, zone: string, until: number): Block[] {
  const c = input.container;
  const discharged = ms(c.pod_discharged_at) ?? eventAt(input.events, 'vessel_discharged');
  const stillThere = !leftTerminal(c);
  const blocks: Block[] = [];
  if (discharged === null) {
    if (stillThere && c.available_for_pickup !== true) {
      blocks.push({
        from: -Infinity,
        to: until,
        reason: 'Not discharged',
        evidence: 'No discharge reported',
        disputable: true,
      });
    }
    return blocks;
  }
  blocks.push({
    from: -Infinity,
    to: discharged,
    reason: 'Not discharged',
    evidence: `Discharged ${when(discharged, zone)}`,
    disputable: true,
  });
  const reports = input.events
    .filter((e) => !e.invalidated_at && e.timestamp)
    .map((e) => ({ t: ms(e.timestamp), name: e.event ?? '' }))
    .filter(
      (e): e is { t: number; name: string } =>
        e.t !== null &&
        (e.name === 'container.transport.available' ||
          e.name === 'container.transport.not_available'),
    )
    .sort((a, b) => a.t - b.t);
  if (reports.length === 0) {
    // No history: the current report stands for the whole time since discharge.
    if (stillThere && c.availability_known && c.available_for_pickup === false) {
      blocks.push({
        from: discharged,
        to: until,
        reason: 'Not available after discharge',
        evidence: `Discharged ${when(discharged, zone)}; the terminal still reports it not available`,
        disputable: true,
      });
    }
    return blocks;
  }
  // Until the terminal first says available, the box is not available after discharge.
  let unavailableSince: number | null = discharged;
  let firstWindow = true;
  for (const r of reports) {
    if (r.name === 'container.transport.available' && unavailableSince !== null) {
      if (r.t > unavailableSince) {
        blocks.push({
          from: unavailableSince,
          to: r.t,
          reason: firstWindow ? 'Not available after discharge' : 'Not available',
          evidence: firstWindow
            ? `Discharged ${when(discharged, zone)}; available ${when(r.t, zone)}`
            : `Not available ${when(unavailableSince, zone)}; available again ${when(r.t, zone)}`,
          disputable: true,
        });
      }
      unavailableSince = null;
      firstWindow = false;
    } else if (r.name === 'container.transport.not_available' && unavailableSince === null) {
      unavailableSince = r.t;
    }
  }
  if (unavailableSince !== null && stillThere) {
    blocks.push({
      from: unavailableSince,
      to: until,
      reason: firstWindow ? 'Not available after discharge' : 'Not available',
      evidence: `Not available since ${when(unavailableSince, zone)}`,
      disputable: true,
    });
  }
  return blocks;
}

const eventAt = (events: readonly ChargesEvent[], suffix: string): number | null => {
  const hit = events.find(
    (e) => !e.invalidated_at && e.timestamp && (e.event ?? '').endsWith(`.${suffix}`),
  );
  return hit ? ms(hit.timestamp) : null;
};

const leftTerminal = (c: ChargesContainer) =>
  Boolean(c.pod_full_out_at) || hasLeftTerminal(c.current_status ?? '');

/** Holds over time; without a history, the holds of the last check from that check on. */
function holdPeriods(input: ChargesInput): HoldPeriod[] {
  if (input.holdHistory) return [...input.holdHistory];
  const c = input.container;
  const seen = c.terminal_checked_at ?? new Date(input.now).toISOString();
  return (c.holds_at_pod_terminal ?? [])
    .filter(isActiveHold)
    .map((h) => ({ name: h.name, from: seen, to: null }));
}

function holdBlocks(input: ChargesInput, zone: string, until: number): Block[] {
  return holdPeriods(input).flatMap((h) => {
    const from = ms(h.from);
    if (from === null) return [];
    const to = ms(h.to) ?? until;
    const party = holdPlacedBy(h.name);
    const label = holdLabel(h.name);
    const reason = `${label} hold by ${HOLD_PARTY_LABELS[party]}`;
    const evidence =
      `${label} hold placed ${when(from, zone)}` +
      (h.to ? `, released ${when(to, zone)}` : ', still on at the last check');
    return [{ from, to, reason, evidence, disputable: !IMPORTER_CLEARS.has(h.name.toLowerCase()) }];
  });
}

/** A deadline moved earlier: the days between the new and the old date had been free. */
function lfdBlocks(changes: readonly LfdChange[], zone: string): Block[] {
  return changes.flatMap((c) => {
    const from = c.from ? lfdLocalDate(c.from, zone) : null;
    const to = c.to ? lfdLocalDate(c.to, zone) : null;
    const at = ms(c.at);
    if (!from || !to || to >= from || at === null) return [];
    const start = DateTime.fromISO(to, { zone }).plus({ days: 1 }).toMillis();
    const end = DateTime.fromISO(from, { zone }).plus({ days: 1 }).toMillis();
    return [
      {
        from: start,
        to: end,
        reason: 'Last free day moved earlier',
        evidence: `${lfdSourceLabel(c.source)} moved from ${dayText(from, zone)} to ${dayText(to, zone)} on ${when(at, zone)}`,
        disputable: true,
      },
    ];
  });
}

/** The day's own facts: gate moves, the appointment, LFD changes. */
function dayFacts(input: ChargesInput, zone: string, start: number, end: number): string[] {
  const c = input.container;
  const inDay = (t: number | null): t is number => t !== null && t >= start && t < end;
  const facts: string[] = [];
  const discharged = ms(c.pod_discharged_at);
  if (inDay(discharged)) facts.push(`Discharged ${when(discharged, zone)}`);
  for (const e of input.events) {
    const t = ms(e.timestamp);
    if (e.invalidated_at || !inDay(t)) continue;
    if (e.event === 'container.transport.available') facts.push(`Available ${when(t, zone)}`);
    if (e.event === 'container.transport.not_available')
      facts.push(`Not available ${when(t, zone)}`);
    if (e.event === 'container.pickup_appointment.changed')
      facts.push(`Appointment changed ${when(t, zone)}`);
    if (!input.lfdChanges?.length && e.event?.startsWith('container.pickup_lfd'))
      facts.push(`LFD changed ${when(t, zone)}`);
  }
  for (const change of input.lfdChanges ?? []) {
    const t = ms(change.at);
    if (inDay(t)) facts.push(`${lfdSourceLabel(change.source)} changed ${when(t, zone)}`);
  }
  const appointment = ms(c.pickup_appointment_at);
  if (inDay(appointment)) facts.push(`Pickup appointment ${when(appointment, zone)}`);
  const out = ms(c.pod_full_out_at);
  if (inDay(out)) facts.push(`Out-gate (picked up) ${when(out, zone)}`);
  const back = ms(c.empty_terminated_at);
  if (inDay(back)) facts.push(`Empty returned ${when(back, zone)}`);
  return facts;
}

const tierOf = (tiers: readonly TariffTier[], day: number) =>
  tiers.reduce((best, t) => (t.fromDay <= day && t.fromDay > best ? t.fromDay : best), 1);

/** Charged days after `lastFree` through the day of `until`, each with rate, facts and flags. */
function chargedDayList(
  input: ChargesInput,
  last: Pick<LfdDeadline, 'date' | 'zone' | 'endsAt'>,
  until: number | null,
  tiers: readonly TariffTier[],
  blocks: readonly Block[],
): ChargeDay[] {
  if (until === null) return [];
  const count = chargedDays(last, until);
  const days: ChargeDay[] = [];
  for (let n = 1; n <= count; n++) {
    const day = DateTime.fromISO(last.date, { zone: last.zone }).plus({ days: n });
    const start = day.toMillis();
    const end = day.plus({ days: 1 }).toMillis();
    const hits = blocks.filter(
      (b) => b.disputable && b.from < Math.min(end, until) && b.to > start,
    );
    const rate = rateOnDay(tiers, n);
    days.push({
      date: day.toISODate() ?? '',
      weekday: day.toFormat('ccc'),
      weekend: WEEKEND.has(day.weekday),
      dayNumber: n,
      tier: tierOf(tiers, n),
      rate,
      amount: rate,
      facts: [
        ...new Set(blocks.filter((b) => b.from < end && b.to > start).map((b) => b.reason)),
        ...dayFacts(input, last.zone, start, end),
      ],
      dispute:
        hits.length === 0
          ? null
          : {
              reasons: [...new Set(hits.map((h) => h.reason))],
              evidence: [...new Set(hits.map((h) => h.evidence))],
            },
    });
  }
  return days;
}

function disputeRuns(days: readonly ChargeDay[]): DisputeRun[] {
  const runs: DisputeRun[] = [];
  let previous: ChargeDay | null = null;
  for (const day of days) {
    const reason = day.dispute?.reasons[0];
    const last = runs.at(-1);
    if (!reason) {
      previous = day;
      continue;
    }
    if (last && previous?.dispute && last.reason === reason) {
      last.to = day.date;
      last.days += 1;
      last.amount = round(last.amount + day.amount);
      for (const e of day.dispute!.evidence) if (!last.evidence.includes(e)) last.evidence.push(e);
    } else {
      runs.push({
        reason,
        from: day.date,
        to: day.date,
        days: 1,
        amount: day.amount,
        summary: '',
        evidence: [...day.dispute!.evidence],
      });
    }
    previous = day;
  }
  for (const run of runs) run.summary = `${run.reason} ${dayRange(run.from, run.to)}`;
  return runs;
}

const money = (amount: number, currency: string) =>
  `${currency} ${amount.toLocaleString('en-US', { minimumFractionDigits: 0, maximumFractionDigits: 2 })}`;

const tiersText = (tiers: readonly TariffTier[], currency: string) =>
  [...tiers]
    .sort((a, b) => a.fromDay - b.fromDay)
    .map((t) => `${money(t.perDay, currency)}/day from day ${t.fromDay}`)
    .join('; ');

const chargedText = (days: readonly ChargeDay[]) =>
  days.length === 0
    ? 'none'
    : `${dayRange(days[0]!.date, days.at(-1)!.date)} ${days[0]!.date.slice(0, 4)} (${days.length} day${days.length === 1 ? '' : 's'})`;

function invoiceFields(
  input: ChargesInput,
  kind: 'demurrage' | 'detention',
  s: Omit<ChargeSection, 'invoiceFields'>,
  availability: string | null,
  endOfUse: string | null,
): InvoiceField[] {
  const sh = input.shipment;
  const invoice = input.invoice ?? null;
  const full = (d: string | null) => (d ? DateTime.fromISO(d).toFormat('d LLL yyyy') : null);
  return [
    { key: 'bill_of_lading', label: 'Bill of lading', value: sh?.bill_of_lading_number ?? null },
    { key: 'container_number', label: 'Container', value: input.container.number },
    {
      key: 'port_of_discharge',
      label: 'Port of discharge',
      value: sh?.port_of_discharge_name ?? sh?.port_of_discharge_locode ?? null,
    },
    {
      key: 'billed_party_basis',
      label: 'Why the billed party is liable',
      value: sh?.customer_name ? `Customer: ${sh.customer_name}` : null,
    },
    { key: 'invoice_date', label: 'Invoice date', value: full(invoice?.date ?? null) },
    { key: 'invoice_due_date', label: 'Invoice due date', value: null },
    { key: 'availability_date', label: 'Container availability date', value: full(availability) },
    { key: 'free_days', label: 'Free time (days)', value: s.freeDays?.toString() ?? null },
    { key: 'free_time_start', label: 'Free time start', value: full(s.freeTimeStart) },
    { key: 'free_time_end', label: 'Free time end', value: full(s.freeTimeEnd) },
    {
      key: kind === 'demurrage' ? 'pickup_date' : 'return_date',
      label: kind === 'demurrage' ? 'Picked up' : 'Empty returned',
      value: full(endOfUse),
    },
    { key: 'charged_dates', label: 'Dates charged', value: chargedText(s.days) },
    { key: 'rates', label: 'Rates', value: s.tariffRule },
    {
      key: 'tariff_rule',
      label: 'Tariff or service contract rule',
      value: null,
    },
    { key: 'total', label: 'Total amount due', value: money(s.total, s.currency) },
    { key: 'dispute_contact', label: 'Contact for disputes and mitigation', value: null },
    { key: 'dispute_url', label: 'Web page describing the dispute process', value: null },
    {
      key: 'compliance_statement',
      label: 'Statement that the charges follow 46 CFR 545.4/545.5',
      value: null,
    },
    {
      key: 'dispute_by',
      label: `Dispute by (invoice date + ${DISPUTE_WINDOW_DAYS} days)`,
      value: invoice ? full(disputeBy(invoice.date)) : null,
    },
  ];
}

/** The last day to dispute an invoice of `date` (`yyyy-MM-dd`). */
export function disputeBy(date: string): string {
  return (
    DateTime.fromISO(date, { zone: 'UTC' }).plus({ days: DISPUTE_WINDOW_DAYS }).toISODate() ?? date
  );
}

/** When the reminder about an invoice of `date` is due (`yyyy-MM-dd`). */
export function disputeReminderOn(date: string): string {
  return (
    DateTime.fromISO(disputeBy(date), { zone: 'UTC' })
      .minus({ days: DISPUTE_REMINDER_DAYS })
      .toISODate() ?? date
  );
}

function finish(
  input: ChargesInput,
  kind: 'demurrage' | 'detention',
  base: Omit<
    ChargeSection,
    'invoiceFields' | 'estimate' | 'total' | 'totalSource' | 'disputedAmount' | 'disputes'
  >,
  reported: number | null,
  availability: string | null,
  endOfUse: string | null,
): ChargeSection {
  const estimate = round(base.days.reduce((sum, d) => sum + d.amount, 0));
  const section = {
    ...base,
    estimate,
    total: reported ?? estimate,
    totalSource: reported !== null ? ('terminal' as const) : ('tariff' as const),
    disputedAmount: round(base.days.reduce((sum, d) => sum + (d.dispute ? d.amount : 0), 0)),
    disputes: disputeRuns(base.days),
  };
  return { ...section, invoiceFields: invoiceFields(input, kind, section, availability, endOfUse) };
}

function demurrageSection(input: ChargesInput): ChargeSection | null {
  const c = input.container;
  const d = c.import_deadlines;
  const deadlines = lfdDeadlines(
    { line: d?.pickup_lfd_line, terminal: d?.pickup_lfd_terminal, rail: d?.pickup_lfd_rail },
    { port: c.pod_timezone, destination: c.final_destination_timezone },
    c.pickup_lfd,
  );
  const first = demurrageDeadline(deadlines);
  const tariff = tariffFor(input.tables, input.terminalName);
  const fees = feesSum(c.fees_at_pod_terminal ?? []);
  const reported = fees.amount !== null && fees.amount > 0 ? fees.amount : null;
  if (!first || !tariff) return null;
  const zone = first.zone;
  const out = ms(c.pod_full_out_at) ?? eventAt(input.events, 'full_out');
  const gone = leftTerminal(c);
  const until = out !== null ? Math.min(out, input.now) : gone ? null : input.now;
  const blockUntil = until ?? input.now;
  const blocks = [
    ...availabilityBlocks(input, zone, blockUntil),
    ...holdBlocks(input, zone, blockUntil),
    ...lfdBlocks(input.lfdChanges ?? [], zone),
  ];
  const days = chargedDayList(input, first, until, tariff.tiers, blocks);
  const discharged = ms(c.pod_discharged_at) ?? eventAt(input.events, 'vessel_discharged');
  const firstAvailable = availabilityDate(input, discharged);
  const freeStart = firstAvailable ?? (discharged !== null ? localDay(discharged, zone) : null);
  const freeDays =
    freeStart !== null
      ? Math.max(
          0,
          Math.round(
            DateTime.fromISO(first.date, { zone }).diff(
              DateTime.fromISO(freeStart, { zone }),
              'days',
            ).days,
          ) + 1,
        )
      : null;
  const notes: string[] = [];
  if (until === null)
    notes.push('The box left the terminal at a time never reported: only reported fees are known.');
  const currency = reported !== null ? (fees.currency ?? tariff.currency) : tariff.currency;
  return finish(
    input,
    'demurrage',
    {
      kind: 'demurrage',
      billedBy:
        first.source === 'line'
          ? (input.shipment?.shipping_line_name ?? 'the line')
          : (input.terminalName ?? 'the terminal'),
      zone,
      freeTimeStart: freeStart,
      freeTimeEnd: first.date,
      freeDays,
      deadlineSource: first.source,
      running: !gone && until !== null && days.length > 0,
      days,
      tariffRule: `${tariff.terminal === '*' ? 'Default terminal tariff' : `${tariff.terminal} tariff`}: ${tiersText(tariff.tiers, tariff.currency)}`,
      currency,
      reported,
      notes,
    },
    reported,
    firstAvailable,
    out !== null ? localDay(out, zone) : null,
  );
}

/** The first day the terminal reported the box available after discharge. */
function availabilityDate(input: ChargesInput, discharged: number | null): string | null {
  const zone = lfdZone('terminal', { port: input.container.pod_timezone });
  const available = input.events
    .filter((e) => !e.invalidated_at && e.event === 'container.transport.available')
    .map((e) => ms(e.timestamp))
    .filter((t): t is number => t !== null && (discharged === null || t >= discharged))
    .sort((a, b) => a - b)[0];
  return available !== undefined ? localDay(available, zone) : null;
}

function detentionSection(input: ChargesInput): ChargeSection | null {
  const c = input.container;
  const pickedUp = c.pod_full_out_at ?? null;
  if (!pickedUp) return null;
  const rule = perDiemFor(input.tables, input.shipment?.shipping_line_scac ?? null);
  if (!rule) return null;
  const free = perDiemFreeTime(pickedUp, c.pod_timezone ?? null, rule.freeDays);
  if (!free) return null;
  const zone = free.zone;
  const back = ms(c.empty_terminated_at);
  const returned = back !== null || (c.current_status ?? '') === 'empty_returned';
  const until = back !== null ? Math.min(back, input.now) : returned ? null : input.now;
  const last = {
    date: free.date,
    zone,
    endsAt: DateTime.fromISO(free.date, { zone }).plus({ days: 1 }).toMillis(),
  };
  const tiers = [{ fromDay: 1, perDay: rule.perDay }];
  const days = chargedDayList(input, last, until, tiers, []);
  const notes: string[] = [];
  if (until === null) notes.push('The empty was returned at a time never reported.');
  return finish(
    input,
    'detention',
    {
      kind: 'detention',
      billedBy:
        input.shipment?.shipping_line_name ?? input.shipment?.shipping_line_scac ?? 'the line',
      zone,
      freeTimeStart: free.start,
      freeTimeEnd: free.date,
      freeDays: rule.freeDays,
      deadlineSource: 'line',
      running: !returned && days.length > 0,
      days,
      tariffRule: `${rule.scac === '*' ? 'Default per diem' : `${rule.scac} per diem`}: ${rule.freeDays} free days, then ${money(rule.perDay, rule.currency)}/day`,
      currency: rule.currency,
      reported: null,
      notes,
    },
    null,
    free.start,
    back !== null ? localDay(back, zone) : null,
  );
}

/** The statement of one container, as of `now`. */
export function chargesStatement(input: ChargesInput): ChargesStatement {
  const demurrage = demurrageSection(input);
  const detention = detentionSection(input);
  const zone =
    demurrage?.zone ??
    detention?.zone ??
    lfdZone('terminal', { port: input.container.pod_timezone });
  const sections = [demurrage, detention].filter((s): s is ChargeSection => s !== null);
  const total = sumMoney(sections.map((s) => ({ amount: s.total, currency: s.currency })));
  const disputed = sumMoney(
    sections.map((s) => ({ amount: s.disputedAmount, currency: s.currency })),
  );
  const invoice = input.invoice ?? null;
  const today = localDay(input.now, zone);
  const sh = input.shipment;
  return {
    containerNumber: input.container.number,
    billOfLading: sh?.bill_of_lading_number ?? null,
    lineScac: sh?.shipping_line_scac ?? null,
    lineName: sh?.shipping_line_name ?? null,
    terminalName: input.terminalName,
    portOfDischarge: sh?.port_of_discharge_name ?? sh?.port_of_discharge_locode ?? null,
    customer: sh?.customer_name ?? null,
    zone,
    generatedAt: new Date(input.now).toISOString(),
    demurrage,
    detention,
    total: total && { amount: round(total.amount), currency: total.currency },
    disputed: disputed && { amount: round(disputed.amount), currency: disputed.currency },
    lfdChanges: (input.lfdChanges ?? []).map((c) => ({ ...c })),
    invoice: invoice && {
      ...invoice,
      disputeBy: disputeBy(invoice.date),
      remindOn: disputeReminderOn(invoice.date),
      daysLeft: Math.round(
        DateTime.fromISO(disputeBy(invoice.date), { zone: 'UTC' }).diff(
          DateTime.fromISO(today, { zone: 'UTC' }),
          'days',
        ).days,
      ),
      difference:
        total && total.currency === invoice.currency ? round(invoice.amount - total.amount) : null,
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Pass-through statement: a customer's containers over a date range

/** What one pass-through statement covers at most: containers, and days of its range. */
export const PASS_THROUGH_LIMITS = { containers: 2000, days: 366 } as const;

export interface PassThroughLine {
  containerId: string;
  containerNumber: string | null;
  billOfLading: string | null;
  currency: string;
  /** Charged days of the range (demurrage and detention). */
  days: number;
  demurrage: number;
  detention: number;
  disputed: number;
  total: number;
}

export interface PassThroughStatement {
  customer: string;
  /** `yyyy-MM-dd`, both included. */
  from: string;
  to: string;
  lines: PassThroughLine[];
  /** One per currency. */
  totals: {
    currency: string;
    demurrage: number;
    detention: number;
    disputed: number;
    total: number;
  }[];
}

/**
 * What to pass through to a customer for the days in [from, to]: each container's charged days of
 * the range summed (at the tariff, day by day: a terminal's reported total has no days to split
 * by range), containers without a charged day left out; totals per currency.
 */
export function passThroughStatement(
  customer: string,
  from: string,
  to: string,
  items: readonly { containerId: string; statement: ChargesStatement }[],
): PassThroughStatement {
  const inRange = (s: ChargeSection | null) =>
    (s?.days ?? []).filter((d) => d.date >= from && d.date <= to);
  const sum = (days: readonly ChargeDay[], disputedOnly = false) =>
    round(days.reduce((n, d) => n + (disputedOnly && !d.dispute ? 0 : d.amount), 0));
  const lines: PassThroughLine[] = [];
  for (const { containerId, statement: s } of items) {
    const demurrage = inRange(s.demurrage);
    const detention = inRange(s.detention);
    if (demurrage.length + detention.length === 0) continue;
    const currency = s.demurrage?.currency ?? s.detention?.currency ?? 'USD';
    // A per diem in another currency than the storage tariff is left to its own line.
    const sameCurrency = !s.detention || s.detention.currency === currency;
    const d = sum(demurrage);
    const t = sameCurrency ? sum(detention) : 0;
    lines.push({
      containerId,
      containerNumber: s.containerNumber,
      billOfLading: s.billOfLading,
      currency,
      days: demurrage.length + (sameCurrency ? detention.length : 0),
      demurrage: d,
      detention: t,
      disputed: round(sum(demurrage, true) + (sameCurrency ? sum(detention, true) : 0)),
      total: round(d + t),
    });
    if (!sameCurrency && detention.length > 0) {
      const amount = sum(detention);
      lines.push({
        containerId,
        containerNumber: s.containerNumber,
        billOfLading: s.billOfLading,
        currency: s.detention!.currency,
        days: detention.length,
        demurrage: 0,
        detention: amount,
        disputed: sum(detention, true),
        total: amount,
      });
    }
  }
  const totals = new Map<string, PassThroughStatement['totals'][number]>();
  for (const line of lines) {
    const t = totals.get(line.currency) ?? {
      currency: line.currency,
      demurrage: 0,
      detention: 0,
      disputed: 0,
      total: 0,
    };
    t.demurrage = round(t.demurrage + line.demurrage);
    t.detention = round(t.detention + line.detention);
    t.disputed = round(t.disputed + line.disputed);
    t.total = round(t.total + line.total);
    totals.set(line.currency, t);
  }
  return { customer, from, to, lines, totals: [...totals.values()] };
}
