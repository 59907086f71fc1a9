import { describe, expect, it } from 'vitest';
import { describeOutcome, type SubmittedRequest } from '../../src/renderer/lib/track-outcome';
import type { TrackingRequestRow } from '../../src/shared/bridge';

const sent = (number: string): SubmittedRequest => ({
  number,
  request: { id: `tr-${number}` } as TrackingRequestRow,
  error: null,
});
const alreadyTracked = (number: string): SubmittedRequest => ({
  number,
  request: null,
  error: 'A tracking request already exists',
  duplicate: true,
});
const refused = (number: string): SubmittedRequest => ({
  number,
  request: null,
  error: 'The line could not be told from the number',
});

describe('what the spreadsheet import says it did', () => {
  it('says how many were sent when all were', () => {
    expect(describeOutcome([sent('A'), sent('B')])).toBe('2 numbers sent: see Submitted.');
  });

  it('counts numbers already tracked apart from those not sent', () => {
    expect(describeOutcome([sent('A'), alreadyTracked('B')])).toBe(
      '1 number sent, 1 number already tracked: see Submitted.',
    );
    expect(describeOutcome([alreadyTracked('A'), refused('B'), refused('C')])).toBe(
      '1 number already tracked, 2 numbers not sent: see Submitted.',
    );
    expect(describeOutcome([refused('A')])).toBe('1 number not sent: see Submitted.');
  });
});
