import { describe, expect, it } from 'vitest';
import { deriveStatus, type StatusFacts } from '../../../src/service/tracking/status';

const base: StatusFacts = {
  previous: 'new',
  emptyTerminatedAt: null,
  finalDestinationFullOutAt: null,
  indAtaAt: null,
  indRailUnloadedAt: null,
  podRailLoadedAt: null,
  podRailDepartedAt: null,
  podFullOutAt: null,
  podDischargedAt: null,
  podArrivedAt: null,
  departedOrigin: false,
  inlandMove: false,
  availabilityKnown: false,
  availableForPickup: null,
};
const T = '2026-02-01T00:00:00.000Z';

describe('container current_status rules', () => {
  const cases: [string, Partial<StatusFacts>, string][] = [
    ['nothing happened yet', {}, 'new'],
    ['loaded at origin', { departedOrigin: true }, 'on_ship'],
    ['arrived, not discharged', { departedOrigin: true, podArrivedAt: T }, 'on_ship'],
    ['discharged, availability unknown', { podDischargedAt: T }, 'grounded'],
    [
      'discharged, not available',
      { podDischargedAt: T, availabilityKnown: true, availableForPickup: false },
      'not_available',
    ],
    [
      'discharged, available',
      { podDischargedAt: T, availabilityKnown: true, availableForPickup: true },
      'available',
    ],
    [
      'discharged, moving inland',
      { podDischargedAt: T, inlandMove: true },
      'awaiting_inland_transfer',
    ],
    ['on the train', { podDischargedAt: T, inlandMove: true, podRailLoadedAt: T }, 'on_rail'],
    [
      'at the ramp, available',
      { podRailDepartedAt: T, indAtaAt: T, availabilityKnown: true, availableForPickup: true },
      'available',
    ],
    ['picked up at the port', { podDischargedAt: T, podFullOutAt: T }, 'picked_up'],
    ['picked up at the ramp', { indAtaAt: T, finalDestinationFullOutAt: T }, 'picked_up'],
    ['empty returned', { podFullOutAt: T, emptyTerminatedAt: T }, 'empty_returned'],
    ['delivered stays delivered', { previous: 'delivered', podFullOutAt: T }, 'delivered'],
    [
      'delivered, then empty returned',
      { previous: 'delivered', emptyTerminatedAt: T },
      'empty_returned',
    ],
    // Non-linear: a terminal's late availability does not pull a picked-up box back.
    [
      'late terminal availability after pickup',
      { podFullOutAt: T, availabilityKnown: true, availableForPickup: true },
      'picked_up',
    ],
  ];
  for (const [title, facts, status] of cases) {
    it(title, () => expect(deriveStatus({ ...base, ...facts })).toBe(status));
  }
});
