/**
 * The cost clock: what waiting costs. At the terminal, demurrage/storage accrues for every
 * calendar day (of the deadline's zone) after free time ends, at the terminal's tariff; after
 * pickup, the line's per diem (detention) runs once the free days for returning the empty are
 * used up. The tariffs are a table the user edits (seeded below, kept in the app's settings);
 * the fees a terminal reports win over the estimate for what has already accrued.
 * The deadlines themselves are the container rules' (./container/).
 * No Node imports: the renderer bundles this file.
 */
import { DateTime } from 'luxon';
import { Type, type Static } from 'typebox';
import {
  hasLeftTerminal,
  isCompleted,
  lfdCountdown,
  lfdDaysAway,
  lfdEndsAt,
  type LfdDeadline,
} from './container';

const Money = Type.Number({ minimum: 0, maximum: 100_000 });
const Currency = Type.String({ pattern: '^[A-Z]{3}$' });

/** From which charged day a rate applies: day 1 is the first day after free time. */
export const TariffTier = Type.Object(
  { fromDay: Type.Integer({ minimum: 1, maximum: 365 }), perDay: Money },
  { additionalProperties: false },
);

/** A terminal's storage tariff; `terminal` is its name as the board shows it, `*` any other. */
export const TerminalTariff = Type.Object(
  {
    terminal: Type.String({ minLength: 1, maxLength: 120 }),
    currency: Currency,
    tiers: Type.Array(TariffTier, { minItems: 1, maxItems: 10 }),
  },
  { additionalProperties: false },
);

/** A line's per diem: free days after pickup to return the empty, then a rate per day. */
export const LinePerDiem = Type.Object(
  {
    /** The line's SCAC, or `*` for any other line. */
    scac: Type.String({ pattern: '^([A-Z]{4}|\\*)$' }),
    freeDays: Type.Integer({ minimum: 0, maximum: 60 }),
    currency: Currency,
    perDay: Money,
  },
  { additionalProperties: false },
);

export const CostTables = Type.Object(
  {
    terminals: Type.Array(TerminalTariff, { maxItems: 200 }),
    lines: Type.Array(LinePerDiem, { maxItems: 200 }),
  },
  { additionalProperties: false },
);

export type TariffTier = Static<typeof TariffTier>;
export type TerminalTariff = Static<typeof TerminalTariff>;
export type LinePerDiem = Static<typeof LinePerDiem>;
export type CostTables = Static<typeof CostTables>;

/** Plausible US port tariffs to start from; every dispatcher replaces them with their own. */
export const DEFAULT_COST_TABLES: CostTables = {
  terminals: [
    {
      terminal: '*',
      currency: 'USD',
      tiers: [
        { fromDay: 1, perDay: 150 },
        { fromDay: 5, perDay: 225 },
        { fromDay: 9, perDay: 325 },
      ],
    },
    {
      terminal: 'APM Terminals Pier 400',
      currency: 'USD',
      tiers: [
        { fromDay: 1, perDay: 175 },
        { fromDay: 5, perDay: 275 },
      ],
    },
    {
      terminal: 'Maher Terminals',
      currency: 'USD',
      tiers: [
        { fromDay: 1, perDay: 160 },
        { fromDay: 4, perDay: 260 },
      ],
    },
  ],
  lines: [
    { scac: '*', freeDays: 4, currency: 'USD', perDay: 125 },
    { scac: 'MAEU', freeDays: 4, currency: 'USD', perDay: 150 },
    { scac: 'MSCU', freeDays: 5, currency: 'USD', perDay: 130 },
    { scac: 'ONEY', freeDays: 4, currency: 'USD', perDay: 140 },
  ],
};

/** The tariff for a terminal: its own row, else the `*` row. */
export function tariffFor(tables: CostTables, terminal: string | null): TerminalTariff | null {
  const name = terminal?.trim().toLowerCase();
  return (
    (name ? tables.terminals.find((t) => t.terminal.trim().toLowerCase() === name) : undefined) ??
    tables.terminals.find((t) => t.terminal === '*') ??
    null
  );
}

export function perDiemFor(tables: CostTables, scac: string | null): LinePerDiem | null {
  const code = scac?.toUpperCase();
  return (
    (code ? tables.lines.find((l) => l.scac === code) : undefined) ??
    tables.lines.find((l) => l.scac === '*') ??
    null
  );
}

/** The rate of the `day`-th charged day (1 = first day after free time). */
export function rateOnDay(tiers: readonly TariffTier[], day: number): number {
  return rateIn(byFirstDay(tiers), day);
}

const byFirstDay = (tiers: readonly TariffTier[]) =>
  [...tiers].sort((a, b) => a.fromDay - b.fromDay);

/** The rate of `day` among tiers sorted by their first day. */
function rateIn(sorted: readonly TariffTier[], day: number): number {
  let rate = 0;
  for (const tier of sorted) if (day >= tier.fromDay) rate = tier.perDay;
  return rate;
}

/** Charges for days 1..`days`. */
export function chargeForDays(tiers: readonly TariffTier[], days: number): number {
  const sorted = byFirstDay(tiers);
  let sum = 0;
  for (let day = 1; day <= days; day++) sum += rateIn(sorted, day);
  return sum;
}

/** Calendar days already charged after a deadline (the current day counts once it has begun). */
export const chargedDays = (
  deadline: Pick<LfdDeadline, 'date' | 'zone' | 'endsAt'>,
  now: number,
) => (now < deadline.endsAt ? 0 : -lfdDaysAway(deadline.date, deadline.zone, now));

export interface DemurrageFacts {
  status: string;
  terminalName: string | null;
  /** Every deadline, earliest first (the shared LFD rule). */
  deadlines: readonly LfdDeadline[];
  /** What the terminal reports as owed (itemised fees summed), if anything. */
  feesAmount: number | null;
  feesCurrency: string | null;
  /** When the full box left the terminal: charges stop there. */
  pickedUpAt?: string | null;
}

export interface DemurrageClock {
  /** Owed for the days already past free time. */
  accrued: number;
  /** `terminal` when the terminal reported fees, else the tariff's estimate. */
  accruedSource: 'terminal' | 'tariff';
  /** What one more day adds (0 once the box has left the terminal). */
  tomorrow: number;
  currency: string;
  /** Calendar days charged so far. */
  daysCharged: number;
}

/** The deadline demurrage runs from: the earliest, whichever source (it starts costing first). */
export function demurrageDeadline<D extends Pick<LfdDeadline, 'endsAt'>>(
  deadlines: readonly D[],
): D | null {
  return deadlines.reduce<D | null>(
    (earliest, d) => (earliest === null || d.endsAt < earliest.endsAt ? d : earliest),
    null,
  );
}

/**
 * Demurrage at the terminal. Charges run from the earliest deadline (whichever source: it is the
 * one that starts costing money); tomorrow's charge is the rate of the next charged day, which
 * is the first one when free time ends tonight.
 */
export function demurrageClock(
  facts: DemurrageFacts,
  tables: CostTables,
  now: number,
): DemurrageClock | null {
  if (isCompleted(facts.status)) return null;
  const first = demurrageDeadline(facts.deadlines);
  const tariff = tariffFor(tables, facts.terminalName);
  const reported = facts.feesAmount !== null && facts.feesAmount > 0 ? facts.feesAmount : null;
  if (!first || !tariff) {
    return reported === null
      ? null
      : {
          accrued: reported,
          accruedSource: 'terminal',
          tomorrow: 0,
          currency: facts.feesCurrency ?? 'USD',
          daysCharged: 0,
        };
  }
  const left = facts.pickedUpAt ? Date.parse(facts.pickedUpAt) : NaN;
  const stillThere = !hasLeftTerminal(facts.status) && !Number.isFinite(left);
  // Charges stop when the box leaves; gone at an unknown time, only reported fees are known.
  const until = stillThere ? now : Number.isFinite(left) ? Math.min(now, left) : null;
  const days = until === null ? 0 : chargedDays(first, until);
  const endsTonight = days === 0 && lfdDaysAway(first.date, first.zone, now) === 0;
  const tomorrow = stillThere && (days > 0 || endsTonight) ? rateOnDay(tariff.tiers, days + 1) : 0;
  return {
    accrued: reported ?? chargeForDays(tariff.tiers, days),
    accruedSource: reported !== null ? 'terminal' : 'tariff',
    tomorrow,
    currency: reported !== null ? (facts.feesCurrency ?? tariff.currency) : tariff.currency,
    daysCharged: days,
  };
}

export interface PerDiemFacts {
  status: string;
  lineScac: string | null;
  /** When the full box left the terminal. */
  pickedUpAt: string | null;
  /** The zone whose calendar the free days count in (the port's). */
  zone: string | null;
}

export interface PerDiemClock {
  /** The last free day to return the empty, `yyyy-MM-dd` in `zone`. */
  date: string;
  zone: string;
  endsAt: number;
  /** "2d 5h left", "overdue 1d 3h". */
  countdown: string;
  accrued: number;
  perDay: number;
  currency: string;
  scac: string;
}

/**
 * Per diem free time: the pickup day (in `zone`, the port's; UTC when unknown) counts as day 0,
 * the empty is free through the `freeDays`-th calendar day after it.
 */
export function perDiemFreeTime(
  pickedUpAt: string,
  zone: string | null,
  freeDays: number,
): { start: string; date: string; zone: string } | null {
  const z = zone && DateTime.local().setZone(zone).isValid ? zone : 'UTC';
  const picked = DateTime.fromISO(pickedUpAt, { zone: 'utc' }).setZone(z);
  if (!picked.isValid) return null;
  const start = picked.toISODate() ?? '';
  const date = picked.startOf('day').plus({ days: freeDays }).toISODate() ?? '';
  return { start, date, zone: z };
}

/**
 * The empty-return countdown after pickup: the pickup day counts as day 0, the empty is free
 * through the `freeDays`-th calendar day after it, per diem runs from the next midnight.
 */
export function perDiemClock(
  facts: PerDiemFacts,
  tables: CostTables,
  now: number,
): PerDiemClock | null {
  if (!facts.pickedUpAt || isCompleted(facts.status)) return null;
  const rule = perDiemFor(tables, facts.lineScac);
  if (!rule) return null;
  const free = perDiemFreeTime(facts.pickedUpAt, facts.zone, rule.freeDays);
  if (!free) return null;
  const { date, zone } = free;
  const endsAt = lfdEndsAt(date, zone);
  const days = chargedDays({ date, zone, endsAt }, now);
  return {
    date,
    zone,
    endsAt,
    countdown: lfdCountdown(date, zone, now),
    accrued: days * rule.perDay,
    perDay: rule.perDay,
    currency: rule.currency,
    scac: rule.scac,
  };
}

/** Sums amounts of one currency; null when they are mixed (no honest total). */
export function sumMoney(
  items: readonly { amount: number; currency: string }[],
): { amount: number; currency: string } | null {
  if (items.length === 0) return { amount: 0, currency: 'USD' };
  const currency = items[0]!.currency;
  if (items.some((i) => i.currency !== currency)) return null;
  return { amount: items.reduce((sum, i) => sum + i.amount, 0), currency };
}

/** The row facts the cost clock reads (a board row has them all). */
export interface CostFacts extends DemurrageFacts {
  lineScac: string | null;
  pickedUpAt: string | null;
  podTimezone: string | null;
}

export interface ContainerCost {
  demurrage: DemurrageClock | null;
  perDiem: PerDiemClock | null;
}

/** Both clocks of one container. */
export function containerCost(facts: CostFacts, tables: CostTables, now: number): ContainerCost {
  return {
    demurrage: demurrageClock(facts, tables, now),
    perDiem: perDiemClock(
      {
        status: facts.status,
        lineScac: facts.lineScac,
        pickedUpAt: facts.pickedUpAt,
        zone: facts.podTimezone,
      },
      tables,
      now,
    ),
  };
}

/** What a view costs: demurrage accrued and tomorrow's increase, per diem accrued. */
export interface CostTotals {
  accrued: number;
  tomorrow: number;
  perDiem: number;
  /** Null when the view mixes currencies (then the sums leave the others out). */
  currency: string | null;
  mixedCurrencies: boolean;
}

export const NO_COST: CostTotals = {
  accrued: 0,
  tomorrow: 0,
  perDiem: 0,
  currency: null,
  mixedCurrencies: false,
};

/** Adds one container's cost to a running total (amounts in another currency stay out). */
export function addCost(totals: CostTotals, cost: ContainerCost): CostTotals {
  let next = totals;
  const add = (
    currency: string,
    change: Partial<Record<'accrued' | 'tomorrow' | 'perDiem', number>>,
  ) => {
    if (next.currency !== null && next.currency !== currency) {
      next = { ...next, mixedCurrencies: true };
      return;
    }
    next = {
      ...next,
      currency,
      accrued: next.accrued + (change.accrued ?? 0),
      tomorrow: next.tomorrow + (change.tomorrow ?? 0),
      perDiem: next.perDiem + (change.perDiem ?? 0),
    };
  };
  const d = cost.demurrage;
  if (d && (d.accrued > 0 || d.tomorrow > 0))
    add(d.currency, { accrued: d.accrued, tomorrow: d.tomorrow });
  // Once per diem runs, every further day costs the line's rate.
  const p = cost.perDiem;
  if (p && p.accrued > 0) add(p.currency, { perDiem: p.accrued, tomorrow: p.perDay });
  return next;
}
