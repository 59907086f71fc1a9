import { describe, expect, it } from 'vitest';
import { lfdDeadlines } from '../../src/shared/container';
import {
  DEFAULT_COST_TABLES,
  chargeForDays,
  demurrageClock,
  perDiemClock,
  rateOnDay,
  sumMoney,
  tariffFor,
  type CostTables,
} from '../../src/shared/cost-clock';

const LA = 'America/Los_Angeles';
const NY = 'America/New_York';
const at = (iso: string) => Date.parse(iso);

/** A small table: a named terminal with two tiers, the `*` fallback, two lines. */
const TABLES: CostTables = {
  terminals: [
    {
      terminal: 'Fenix Marine Services',
      currency: 'USD',
      tiers: [
        { fromDay: 1, perDay: 100 },
        { fromDay: 4, perDay: 250 },
      ],
    },
    { terminal: '*', currency: 'USD', tiers: [{ fromDay: 1, perDay: 75 }] },
  ],
  lines: [
    { scac: '*', freeDays: 4, currency: 'USD', perDay: 125 },
    { scac: 'CMDU', freeDays: 7, currency: 'USD', perDay: 90 },
  ],
};

const atFenix = (lfd: string, extra: Partial<Parameters<typeof demurrageClock>[0]> = {}) => ({
  status: 'available',
  terminalName: 'Fenix Marine Services',
  deadlines: lfdDeadlines({ terminal: lfd }, { port: LA }),
  feesAmount: null,
  feesCurrency: null,
  ...extra,
});

describe('the tariff table', () => {
  it('charges each day at the rate of its tier', () => {
    const tiers = TABLES.terminals[0]!.tiers;
    expect([1, 2, 3, 4, 5].map((day) => rateOnDay(tiers, day))).toEqual([100, 100, 100, 250, 250]);
    expect(chargeForDays(tiers, 5)).toBe(800);
    expect(chargeForDays(tiers, 0)).toBe(0);
  });

  it('finds a terminal by name, else the * row', () => {
    expect(tariffFor(TABLES, 'fenix marine services')?.tiers[0]?.perDay).toBe(100);
    expect(tariffFor(TABLES, 'Pier 400')?.terminal).toBe('*');
    expect(tariffFor(TABLES, null)?.terminal).toBe('*');
  });

  it('ships plausible defaults with a fallback for every terminal and line', () => {
    expect(tariffFor(DEFAULT_COST_TABLES, 'Anywhere')?.terminal).toBe('*');
    expect(DEFAULT_COST_TABLES.lines.some((line) => line.scac === '*')).toBe(true);
  });
});

describe('demurrage at the terminal', () => {
  it('costs nothing yet before the last free day, and nothing tomorrow when it is days away', () => {
    // 09:00 PST on Mon 23 Nov; LFD Wed 25 Nov.
    expect(demurrageClock(atFenix('2026-11-25'), TABLES, at('2026-11-23T17:00:00Z'))).toMatchObject(
      {
        accrued: 0,
        tomorrow: 0,
        daysCharged: 0,
        accruedSource: 'tariff',
      },
    );
  });

  it('warns of the first day on the last free day: "+$100 tomorrow"', () => {
    expect(demurrageClock(atFenix('2026-11-23'), TABLES, at('2026-11-23T17:00:00Z'))).toMatchObject(
      {
        accrued: 0,
        tomorrow: 100,
      },
    );
  });

  it('accrues per calendar day of the terminal zone and steps up with the tiers', () => {
    // LFD Fri 20 Nov; Mon 23 Nov 09:00 PST is the third charged day (Sat, Sun, Mon).
    const clock = demurrageClock(atFenix('2026-11-20'), TABLES, at('2026-11-23T17:00:00Z'));
    expect(clock).toMatchObject({ accrued: 300, tomorrow: 250, daysCharged: 3, currency: 'USD' });
    // 23:59 PST the same day is still the third day; one minute later the fourth.
    expect(
      demurrageClock(atFenix('2026-11-20'), TABLES, at('2026-11-24T07:59:00Z'))?.daysCharged,
    ).toBe(3);
    expect(demurrageClock(atFenix('2026-11-20'), TABLES, at('2026-11-24T08:00:00Z'))).toMatchObject(
      { daysCharged: 4, accrued: 550 },
    );
  });

  it('takes the fees the terminal reports over the estimate for what has accrued', () => {
    const reported = atFenix('2026-11-20', { feesAmount: 420, feesCurrency: 'USD' });
    expect(demurrageClock(reported, TABLES, at('2026-11-23T17:00:00Z'))).toMatchObject({
      accrued: 420,
      accruedSource: 'terminal',
      tomorrow: 250,
    });
  });

  it('runs from the earliest deadline, whichever source it is', () => {
    const facts = {
      ...atFenix('2026-11-25'),
      deadlines: lfdDeadlines({ line: '2026-11-25', terminal: '2026-11-21' }, { port: LA }),
    };
    expect(demurrageClock(facts, TABLES, at('2026-11-23T17:00:00Z'))?.daysCharged).toBe(2);
  });

  it('stops at pickup: nothing more tomorrow, the days until the box left stay owed', () => {
    const gone = atFenix('2026-11-20', {
      status: 'picked_up',
      pickedUpAt: '2026-11-22T18:00:00Z',
    });
    expect(demurrageClock(gone, TABLES, at('2026-11-25T17:00:00Z'))).toMatchObject({
      daysCharged: 2,
      accrued: 200,
      tomorrow: 0,
    });
    expect(
      demurrageClock({ ...gone, status: 'empty_returned' }, TABLES, at('2026-11-25T17:00:00Z')),
    ).toBeNull();
  });
});

describe('per diem after pickup', () => {
  it('counts the line free days from the pickup day, then charges per day', () => {
    const facts = {
      status: 'picked_up',
      lineScac: 'CMDU',
      pickedUpAt: '2026-11-20T20:00:00Z',
      zone: NY,
    };
    // Picked up Fri 20 Nov (NY): 7 free days, so the empty is free through Fri 27 Nov.
    const before = perDiemClock(facts, TABLES, at('2026-11-26T17:00:00Z'));
    expect(before).toMatchObject({ date: '2026-11-27', zone: NY, accrued: 0, perDay: 90 });
    expect(before?.countdown).toBe('1d 12h left');
    expect(before?.endsAt).toBe(at('2026-11-28T05:00:00Z'));
    const after = perDiemClock(facts, TABLES, at('2026-11-29T17:00:00Z'));
    expect(after).toMatchObject({ accrued: 180 });
    expect(after?.countdown).toMatch(/^overdue/);
  });

  it('uses the * line for others, and stops once the empty is back', () => {
    const facts = {
      status: 'picked_up',
      lineScac: 'HLCU',
      pickedUpAt: '2026-11-20T20:00:00Z',
      zone: NY,
    };
    expect(perDiemClock(facts, TABLES, at('2026-11-21T17:00:00Z'))?.date).toBe('2026-11-24');
    expect(
      perDiemClock({ ...facts, status: 'empty_returned' }, TABLES, at('2026-11-21T17:00:00Z')),
    ).toBeNull();
    expect(
      perDiemClock({ ...facts, pickedUpAt: null }, TABLES, at('2026-11-21T17:00:00Z')),
    ).toBeNull();
  });
});

describe('sums per view', () => {
  it('adds one currency, and refuses to add mixed ones', () => {
    expect(
      sumMoney([
        { amount: 300, currency: 'USD' },
        { amount: 250, currency: 'USD' },
      ]),
    ).toEqual({
      amount: 550,
      currency: 'USD',
    });
    expect(
      sumMoney([
        { amount: 1, currency: 'USD' },
        { amount: 1, currency: 'EUR' },
      ]),
    ).toBeNull();
  });
});
