import { describe, expect, it } from 'vitest';
import {
  ALERT_KINDS,
  ALERT_KIND_LABELS,
  CONTAINER_STATUSES,
  CONTAINER_STATUS_LABELS,
  DEFAULT_ALERT_THRESHOLDS,
  LEFT_TERMINAL_STATUSES,
  activeHolds,
  bindingLfd,
  describeNotReady,
  feesSum,
  hasLeftTerminal,
  holdDescription,
  holdLabel,
  pendingHolds,
  readiness,
  statusLabel,
  type ContainerStatus,
  type ReadinessFacts,
} from '../../src/shared/container';
import { CONTAINER_STATUSES as API_STATUSES } from '../../src/shared/api/resources';

/** The expected answer for every status: has the box left the terminal? */
const LEFT: Record<ContainerStatus, boolean> = {
  new: false,
  on_ship: false,
  available: false,
  not_available: false,
  grounded: false,
  on_rail: false,
  picked_up: true,
  off_dock: true,
  delivered: true,
  dropped: true,
  loaded: true,
  empty_returned: true,
  awaiting_inland_transfer: false,
};

describe('container statuses', () => {
  it('are the API schema statuses, each with a label', () => {
    expect(API_STATUSES).toBe(CONTAINER_STATUSES);
    expect(Object.keys(LEFT).sort()).toEqual([...CONTAINER_STATUSES].sort());
    for (const status of CONTAINER_STATUSES) {
      expect(statusLabel(status)).toBe(CONTAINER_STATUS_LABELS[status]);
    }
    expect(statusLabel('gate_out_pending')).toBe('Gate out pending');
  });

  it.each(CONTAINER_STATUSES)('%s: left the terminal or not', (status) => {
    expect(hasLeftTerminal(status)).toBe(LEFT[status]);
    expect((LEFT_TERMINAL_STATUSES as readonly string[]).includes(status)).toBe(LEFT[status]);
  });

  it('counts loaded as gone (six statuses)', () => {
    expect(LEFT_TERMINAL_STATUSES).toHaveLength(6);
    expect(hasLeftTerminal('loaded')).toBe(true);
    expect(hasLeftTerminal('something_new')).toBe(false);
  });
});

describe('bindingLfd', () => {
  const L = '2026-03-05T00:00:00Z';
  const T = '2026-03-06T00:00:00Z';
  const R = '2026-03-07T00:00:00Z';
  const cases: [
    string,
    { line?: string | null; terminal?: string | null; rail?: string | null },
    string | null,
    string | null,
  ][] = [
    ['none', {}, null, null],
    ['line only', { line: L }, L, 'line'],
    ['terminal only', { terminal: T }, T, 'terminal'],
    ['rail only', { rail: R }, R, 'rail'],
    ['line and terminal', { line: L, terminal: T }, L, 'line'],
    ['line and rail', { line: L, rail: R }, L, 'line'],
    ['terminal and rail', { terminal: T, rail: R }, T, 'terminal'],
    ['all three', { line: L, terminal: T, rail: R }, L, 'line'],
    ['nulls', { line: null, terminal: null, rail: null }, null, null],
  ];
  it.each(cases)('%s', (_name, deadlines, date, source) => {
    expect(bindingLfd(deadlines)).toEqual({ date, source });
  });

  it('names the source even when two deadlines are the same instant', () => {
    expect(bindingLfd({ line: null, terminal: L, rail: L })).toEqual({
      date: L,
      source: 'terminal',
    });
  });

  it('accepts no deadlines at all', () => {
    expect(bindingLfd(null)).toEqual({ date: null, source: null });
  });
});

describe('holds', () => {
  const holds = [
    { name: 'customs', status: 'hold' },
    { name: 'usda', status: 'pending' },
    { name: 'freight', status: 'hold' },
  ];
  it('splits active from pending', () => {
    expect(activeHolds(holds).map((h) => h.name)).toEqual(['customs', 'freight']);
    expect(pendingHolds(holds).map((h) => h.name)).toEqual(['usda']);
  });
  it('names known codes and spells out others', () => {
    expect(holdLabel('customs')).toBe('Customs');
    expect(holdLabel('USDA')).toBe('USDA');
    expect(holdLabel('port_security')).toBe('Port security');
    expect(holdLabel('vacis')).toBe('VACIS exam');
    expect(holdLabel('tmf')).toBe('Traffic mitigation fee');
    // A code that happens to name an object property is still just an unknown code.
    expect(holdLabel('constructor')).toBe('Constructor');
  });
  it('says what each hold means for the dispatcher', () => {
    expect(holdDescription('freight')).toMatch(/freight charges are paid/);
    expect(holdDescription('VACIS')).toMatch(/X-ray exam/);
    expect(holdDescription('port_security')).toBe('Hold reported by the terminal: Port security.');
  });
});

describe('readiness', () => {
  const ready: ReadinessFacts = {
    status: 'available',
    activeHoldCount: 0,
    arrivedAt: '2026-03-01T00:00:00Z',
    dischargedAt: '2026-03-02T00:00:00Z',
    fullOutAt: null,
    availabilityKnown: true,
    availableForPickup: true,
  };
  const reasonOf = (f: ReadinessFacts) => {
    const r = readiness(f);
    return r.ready ? 'ready' : r.reason;
  };

  it('is ready when at the terminal, not held and available', () => {
    expect(readiness(ready)).toEqual({ ready: true });
  });

  it.each([
    ['left_terminal', { status: 'loaded' }, 'loaded'],
    ['left_terminal', { fullOutAt: '2026-03-03T00:00:00Z' }, 'picked up'],
    ['on_hold', { activeHoldCount: 1, status: 'not_available' }, 'on hold'],
    ['on_hold', { activeHoldCount: 2 }, '2 holds'],
    [
      'not_arrived',
      {
        arrivedAt: null,
        dischargedAt: null,
        availabilityKnown: false,
        availableForPickup: null,
        status: 'on_ship',
      },
      'not arrived',
    ],
    [
      'not_discharged',
      { dischargedAt: null, availabilityKnown: false, availableForPickup: null, status: 'on_ship' },
      'not discharged',
    ],
    [
      'availability_unknown',
      { availabilityKnown: false, availableForPickup: null, status: 'grounded' },
      'availability unknown',
    ],
    ['not_available', { availableForPickup: false, status: 'not_available' }, 'not available'],
  ] as const)('%s (%j)', (reason, change, text) => {
    const facts = { ...ready, ...change };
    expect(reasonOf(facts)).toBe(reason);
    expect(describeNotReady(reason, facts)).toBe(text);
  });

  it.each(CONTAINER_STATUSES)('status %s with an available box', (status) => {
    expect(reasonOf({ ...ready, status })).toBe(LEFT[status] ? 'left_terminal' : 'ready');
  });
});

describe('fees', () => {
  it('sums itemised fees and ignores the total line', () => {
    expect(
      feesSum([
        { type: 'demurrage', amount: 100.1, currency_code: 'USD' },
        { type: 'exam', amount: 50.2, currency_code: 'USD' },
        { type: 'total', amount: 150.3, currency_code: 'USD' },
      ]),
    ).toEqual({ amount: 150.3, currency: 'USD' });
  });
  it('leaves mixed currencies and no fees unset', () => {
    expect(
      feesSum([
        { type: 'demurrage', amount: 1, currency_code: 'USD' },
        { type: 'exam', amount: 1, currency_code: 'EUR' },
      ]),
    ).toEqual({ amount: null, currency: null });
    expect(feesSum([])).toEqual({ amount: null, currency: null });
  });
});

describe('alert kinds and thresholds', () => {
  it('labels every kind', () => {
    expect(Object.keys(ALERT_KIND_LABELS).sort()).toEqual([...ALERT_KINDS].sort());
  });
  it('defaults to 48 h and 24 h before the LFD and a 12 h ETA move', () => {
    expect(DEFAULT_ALERT_THRESHOLDS).toEqual({
      lfdThresholdsHours: [48, 24],
      etaChangeThresholdHours: 12,
    });
  });
});
