import { describe, expect, it } from 'vitest';
import {
  chargesStatement,
  disputeBy,
  disputeReminderOn,
  passThroughStatement,
  type ChargesContainer,
  type ChargesInput,
} from '../../src/shared/charges/statement';
import { lfdDeadlines } from '../../src/shared/container';
import { demurrageClock, type CostTables } from '../../src/shared/cost-clock';

const LA = 'America/Los_Angeles';

/** Fenix: 100 a day for charged days 1-3, 250 from day 4; per diem 4 free days at 150 (MAEU). */
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
    { scac: 'MAEU', freeDays: 4, currency: 'USD', perDay: 150 },
  ],
};

/** Discharged Tue 1 Dec 2026 06:00 PST, terminal LFD Thu 3 Dec, still at the terminal. */
const container = (extra: Partial<ChargesContainer> = {}): ChargesContainer => ({
  number: 'MAEU1234565',
  current_status: 'available',
  pod_timezone: LA,
  pod_discharged_at: '2026-12-01T14:00:00Z',
  import_deadlines: { pickup_lfd_terminal: '2026-12-03' },
  availability_known: true,
  available_for_pickup: true,
  holds_at_pod_terminal: [],
  fees_at_pod_terminal: [],
  pod_full_out_at: null,
  empty_terminated_at: null,
  ...extra,
});

const input = (extra: Partial<ChargesInput> = {}): ChargesInput => ({
  container: container(),
  shipment: {
    bill_of_lading_number: 'MAEU240012345',
    shipping_line_scac: 'MAEU',
    shipping_line_name: 'Maersk',
    port_of_discharge_name: 'Los Angeles',
    customer_name: 'Acme Imports',
  },
  terminalName: 'Fenix Marine Services',
  events: [],
  holdHistory: [],
  tables: TABLES,
  now: Date.parse('2026-12-08T20:00:00Z'), // Tue 8 Dec 12:00 PST
  ...extra,
});

const dates = (days: readonly { date: string }[]) => days.map((d) => d.date);
const flagged = (days: readonly { date: string; dispute: unknown }[]) =>
  days.filter((d) => d.dispute).map((d) => d.date);

describe('D&D statement: demurrage', () => {
  it('charges each calendar day after the last free day at the tier of that day, while the box waits', () => {
    const s = chargesStatement(input());
    const d = s.demurrage!;
    expect(d.freeTimeStart).toBe('2026-12-01');
    expect(d.freeTimeEnd).toBe('2026-12-03');
    expect(d.freeDays).toBe(3);
    expect(d.deadlineSource).toBe('terminal');
    expect(d.running).toBe(true);
    expect(dates(d.days)).toEqual([
      '2026-12-04',
      '2026-12-05',
      '2026-12-06',
      '2026-12-07',
      '2026-12-08',
    ]);
    expect(d.days.map((x) => x.amount)).toEqual([100, 100, 100, 250, 250]);
    expect(d.days.map((x) => x.tier)).toEqual([1, 1, 1, 4, 4]);
    expect(d.estimate).toBe(800);
    expect(d.total).toBe(800);
    expect(d.totalSource).toBe('tariff');
    expect(flagged(d.days)).toEqual([]);
    expect(s.total).toEqual({ amount: 800, currency: 'USD' });
  });

  it('counts the same days as the cost clock over a weekend, in the terminal zone', () => {
    // Free time ends Fri 4 Dec; picked up Tue 8 Dec 03:00 UTC = Mon 7 Dec 19:00 PST.
    const pickedUp = '2026-12-08T03:00:00Z';
    const c = container({
      import_deadlines: { pickup_lfd_terminal: '2026-12-04' },
      pod_full_out_at: pickedUp,
      current_status: 'picked_up',
    });
    const s = chargesStatement(input({ container: c }));
    const d = s.demurrage!;
    expect(d.days.map((x) => `${x.weekday} ${x.date} ${x.weekend}`)).toEqual([
      'Sat 2026-12-05 true',
      'Sun 2026-12-06 true',
      'Mon 2026-12-07 false',
    ]);
    // Weekend days are charged like any other: the tariffs count calendar days.
    expect(flagged(d.days)).toEqual([]);
    expect(d.days[2]!.facts.join(' ')).toMatch(/Out-gate \(picked up\) 7 Dec 19:00 PST/);
    expect(d.running).toBe(false);
    const clock = demurrageClock(
      {
        status: 'picked_up',
        terminalName: 'Fenix Marine Services',
        deadlines: lfdDeadlines({ terminal: '2026-12-04' }, { port: LA }),
        feesAmount: null,
        feesCurrency: null,
        pickedUpAt: pickedUp,
      },
      TABLES,
      Date.parse('2026-12-20T00:00:00Z'),
    );
    expect(clock!.daysCharged).toBe(d.days.length);
    expect(clock!.accrued).toBe(d.estimate);
  });

  it('flags days under a hold by the line or the terminal, not a customs hold the importer clears', () => {
    const s = chargesStatement(
      input({
        container: container({ import_deadlines: { pickup_lfd_terminal: '2026-12-01' } }),
        holdHistory: [
          // The line held the box for freight 2 Dec 08:00 to 4 Dec 14:00 PST.
          { name: 'freight', from: '2026-12-02T16:00:00Z', to: '2026-12-04T22:00:00Z' },
          // Customs held it 5-6 Dec: the broker's to clear.
          { name: 'customs', from: '2026-12-05T16:00:00Z', to: '2026-12-06T20:00:00Z' },
          // A hold the terminal does not explain, 7 Dec.
          { name: 'yard_block', from: '2026-12-07T17:00:00Z', to: '2026-12-07T23:00:00Z' },
        ],
      }),
    );
    const d = s.demurrage!;
    expect(flagged(d.days)).toEqual(['2026-12-02', '2026-12-03', '2026-12-04', '2026-12-07']);
    const dec2 = d.days.find((x) => x.date === '2026-12-02')!;
    expect(dec2.dispute!.reasons).toEqual(['Freight hold by the line']);
    expect(dec2.dispute!.evidence).toEqual([
      'Freight hold placed 2 Dec 08:00 PST, released 4 Dec 14:00 PST',
    ]);
    const dec5 = d.days.find((x) => x.date === '2026-12-05')!;
    expect(dec5.dispute).toBeNull();
    expect(dec5.facts).toContain('Customs hold by customs (CBP)');
    expect(d.disputes.map((r) => r.summary)).toEqual([
      'Freight hold by the line 2–4 Dec',
      'Yard block hold by the terminal 7 Dec',
    ]);
    // Days 1-3 at 100, day 6 (7 Dec) at 250.
    expect(d.disputes.map((r) => r.amount)).toEqual([300, 250]);
    expect(d.disputedAmount).toBe(550);
    expect(s.disputed).toEqual({ amount: 550, currency: 'USD' });
  });

  it('flags the days the terminal did not make the box available after discharge', () => {
    const s = chargesStatement(
      input({
        container: container({ import_deadlines: { pickup_lfd_terminal: '2026-12-02' } }),
        events: [
          { event: 'container.transport.vessel_discharged', timestamp: '2026-12-01T14:00:00Z' },
          // Available only on Sat 5 Dec 09:00 PST, then not available again Mon 7 Dec 10:00 until 16:00.
          { event: 'container.transport.available', timestamp: '2026-12-05T17:00:00Z' },
          { event: 'container.transport.not_available', timestamp: '2026-12-07T18:00:00Z' },
          { event: 'container.transport.available', timestamp: '2026-12-08T00:00:00Z' },
          // A withdrawn report counts for nothing.
          {
            event: 'container.transport.not_available',
            timestamp: '2026-12-06T18:00:00Z',
            invalidated_at: '2026-12-06T19:00:00Z',
          },
        ],
      }),
    );
    const d = s.demurrage!;
    expect(flagged(d.days)).toEqual(['2026-12-03', '2026-12-04', '2026-12-05', '2026-12-07']);
    expect(d.disputes[0]!.summary).toBe('Not available after discharge 3–5 Dec');
    expect(d.disputes[0]!.evidence).toEqual([
      'Discharged 1 Dec 06:00 PST; available 5 Dec 09:00 PST',
    ]);
    expect(d.disputes[1]!.summary).toBe('Not available 7 Dec');
    expect(d.days.find((x) => x.date === '2026-12-05')!.facts).toContain(
      'Available 5 Dec 09:00 PST',
    );
    // FMC's availability date is the day the terminal first said available.
    expect(d.invoiceFields.find((f) => f.key === 'availability_date')!.value).toBe('5 Dec 2026');
    expect(d.freeTimeStart).toBe('2026-12-05');
  });

  it('flags a box the terminal still reports not available when no history is known', () => {
    const s = chargesStatement(
      input({ container: container({ available_for_pickup: false }), holdHistory: undefined }),
    );
    expect(flagged(s.demurrage!.days)).toEqual(dates(s.demurrage!.days));
    expect(s.demurrage!.disputes[0]!.reason).toBe('Not available after discharge');
  });

  it('applies current holds from the last check when no hold history is known', () => {
    const s = chargesStatement(
      input({
        container: container({
          holds_at_pod_terminal: [
            { name: 'freight', status: 'hold' },
            { name: 'usda', status: 'pending' },
          ],
          terminal_checked_at: '2026-12-07T18:00:00Z',
        }),
        holdHistory: undefined,
      }),
    );
    expect(flagged(s.demurrage!.days)).toEqual(['2026-12-07', '2026-12-08']);
    expect(s.demurrage!.disputes[0]!.evidence[0]).toMatch(/still on at the last check/);
  });

  it('flags the days that had been free before the last free day moved earlier', () => {
    // Terminal LFD was Mon 7 Dec; on Sun 6 Dec it moved back to Thu 3 Dec.
    const s = chargesStatement(
      input({
        lfdChanges: [
          {
            at: '2026-11-30T18:00:00Z',
            source: 'terminal',
            from: null,
            to: '2026-12-07',
          },
          { at: '2026-12-06T18:00:00Z', source: 'terminal', from: '2026-12-07', to: '2026-12-03' },
        ],
      }),
    );
    const d = s.demurrage!;
    expect(d.freeTimeEnd).toBe('2026-12-03');
    expect(flagged(d.days)).toEqual(['2026-12-04', '2026-12-05', '2026-12-06', '2026-12-07']);
    expect(d.disputes[0]!.summary).toBe('Last free day moved earlier 4–7 Dec');
    expect(d.disputes[0]!.evidence).toEqual([
      'Terminal LFD moved from 7 Dec to 3 Dec on 6 Dec 10:00 PST',
    ]);
    expect(d.days.find((x) => x.date === '2026-12-06')!.facts).toContain(
      'Terminal LFD changed 6 Dec 10:00 PST',
    );
    expect(s.lfdChanges).toHaveLength(2);
  });

  it('charges nothing before a last free day that moved later', () => {
    const s = chargesStatement(
      input({
        container: container({ import_deadlines: { pickup_lfd_terminal: '2026-12-06' } }),
        lfdChanges: [
          { at: '2026-12-02T18:00:00Z', source: 'terminal', from: '2026-12-03', to: '2026-12-06' },
        ],
      }),
    );
    expect(dates(s.demurrage!.days)).toEqual(['2026-12-07', '2026-12-08']);
    expect(flagged(s.demurrage!.days)).toEqual([]);
  });

  it('runs demurrage from the earliest deadline, whoever set it', () => {
    const s = chargesStatement(
      input({
        container: container({
          import_deadlines: { pickup_lfd_line: '2026-12-06', pickup_lfd_terminal: '2026-12-05' },
        }),
      }),
    );
    expect(s.demurrage!.deadlineSource).toBe('terminal');
    expect(dates(s.demurrage!.days)).toEqual(['2026-12-06', '2026-12-07', '2026-12-08']);
  });

  it('totals what the terminal reports over the tariff estimate', () => {
    const s = chargesStatement(
      input({
        container: container({
          fees_at_pod_terminal: [
            { type: 'demurrage', amount: 640, currency_code: 'USD' },
            { type: 'total', amount: 640, currency_code: 'USD' },
          ],
        }),
      }),
    );
    expect(s.demurrage!.total).toBe(640);
    expect(s.demurrage!.totalSource).toBe('terminal');
    expect(s.demurrage!.estimate).toBe(800);
  });
});

describe('D&D statement: detention', () => {
  it('charges per diem from the day after the free days to the late empty return', () => {
    // Picked up Tue 8 Dec 10:00 PST; 4 free days: through Sat 12 Dec; returned Tue 15 Dec 11:00 PST.
    const s = chargesStatement(
      input({
        container: container({
          import_deadlines: { pickup_lfd_terminal: '2026-12-09' },
          current_status: 'empty_returned',
          pod_full_out_at: '2026-12-08T18:00:00Z',
          empty_terminated_at: '2026-12-15T19:00:00Z',
        }),
        now: Date.parse('2027-01-05T20:00:00Z'),
      }),
    );
    // Picked up before the LFD: no demurrage; the statement still stands after the return.
    expect(s.demurrage!.days).toEqual([]);
    const t = s.detention!;
    expect(t.freeTimeStart).toBe('2026-12-08');
    expect(t.freeTimeEnd).toBe('2026-12-12');
    expect(t.freeDays).toBe(4);
    expect(t.running).toBe(false);
    expect(t.days.map((d) => `${d.weekday} ${d.date} ${d.amount}`)).toEqual([
      'Sun 2026-12-13 150',
      'Mon 2026-12-14 150',
      'Tue 2026-12-15 150',
    ]);
    expect(t.days[2]!.facts).toContain('Empty returned 15 Dec 11:00 PST');
    expect(t.total).toBe(450);
    expect(t.invoiceFields.find((f) => f.key === 'return_date')!.value).toBe('15 Dec 2026');
    expect(s.total).toEqual({ amount: 450, currency: 'USD' });
  });

  it('keeps running while the empty is out', () => {
    const s = chargesStatement(
      input({
        container: container({
          current_status: 'picked_up',
          pod_full_out_at: '2026-12-02T18:00:00Z',
        }),
      }),
    );
    // Free through Sun 6 Dec; charged 7 and 8 Dec (today) so far.
    expect(dates(s.detention!.days)).toEqual(['2026-12-07', '2026-12-08']);
    expect(s.detention!.running).toBe(true);
  });
});

describe('D&D statement: the invoice beside it', () => {
  it('carries every field 46 CFR 541.6 requires, and leaves those only the invoice has empty', () => {
    const s = chargesStatement(input());
    const fields = Object.fromEntries(s.demurrage!.invoiceFields.map((f) => [f.key, f.value]));
    expect(fields).toMatchObject({
      bill_of_lading: 'MAEU240012345',
      container_number: 'MAEU1234565',
      port_of_discharge: 'Los Angeles',
      billed_party_basis: 'Customer: Acme Imports',
      free_days: '3',
      free_time_start: '1 Dec 2026',
      free_time_end: '3 Dec 2026',
      charged_dates: '4–8 Dec 2026 (5 days)',
      rates: 'Fenix Marine Services tariff: USD 100/day from day 1; USD 250/day from day 4',
      total: 'USD 800',
      invoice_date: null,
      invoice_due_date: null,
      tariff_rule: null,
      dispute_contact: null,
      dispute_url: null,
      compliance_statement: null,
    });
  });

  it('gives 30 days from the invoice date to dispute, with a reminder 5 days before', () => {
    expect(disputeBy('2026-12-20')).toBe('2027-01-19');
    expect(disputeReminderOn('2026-12-20')).toBe('2027-01-14');
    const s = chargesStatement(
      input({ invoice: { amount: 1050, currency: 'USD', date: '2026-12-05' } }),
    );
    expect(s.invoice).toMatchObject({
      disputeBy: '2027-01-04',
      remindOn: '2026-12-30',
      daysLeft: 27,
      difference: 250,
    });
    expect(s.demurrage!.invoiceFields.find((f) => f.key === 'dispute_by')!.value).toBe(
      '4 Jan 2027',
    );
  });
});

describe('pass-through statement for a customer', () => {
  it("sums each container's charged days within the range, per currency", () => {
    // A: demurrage 4-8 Dec (100, 100, 100, 250, 250); B: picked up 2 Dec, per diem 7-8 Dec (150 each).
    const a = chargesStatement(input());
    const b = chargesStatement(
      input({
        container: container({
          number: 'MSCU7654321',
          current_status: 'picked_up',
          pod_full_out_at: '2026-12-02T18:00:00Z',
        }),
        holdHistory: [{ name: 'line', from: '2026-12-01T16:00:00Z', to: '2026-12-02T17:00:00Z' }],
      }),
    );
    const pass = passThroughStatement('Acme Imports', '2026-12-05', '2026-12-07', [
      { containerId: 'a', statement: a },
      { containerId: 'b', statement: b },
      // Charged only outside the range: left out.
      {
        containerId: 'c',
        statement: chargesStatement(input({ now: Date.parse('2026-12-04T20:00:00Z') })),
      },
    ]);
    expect(
      pass.lines.map((l) => [l.containerId, l.days, l.demurrage, l.detention, l.total]),
    ).toEqual([
      ['a', 3, 450, 0, 450],
      ['b', 1, 0, 150, 150],
    ]);
    expect(pass.totals).toEqual([
      { currency: 'USD', demurrage: 450, detention: 150, disputed: 0, total: 600 },
    ]);
  });
});
