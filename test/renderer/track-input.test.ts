import { describe, expect, it } from 'vitest';
import { planNumbers, resolveScac, trackInputProblems } from '../../src/renderer/lib/track-input';
import { checkDigit } from '../../src/shared/iso6346';

const LINES = [
  { scac: 'MAEU', name: 'Maersk Line', shortName: 'Maersk' },
  { scac: 'HLCU', name: 'Hapag-Lloyd', shortName: 'Hapag-Lloyd' },
  { scac: 'MSCU', name: 'Mediterranean Shipping Company', shortName: 'MSC' },
  { scac: 'MATS', name: 'Matson', shortName: 'Matson' },
];

describe('the Track form', () => {
  it('maps a line name, short name or unique start of a name to its SCAC', () => {
    expect(resolveScac('maeu', LINES)).toBe('MAEU');
    expect(resolveScac('Hapag-Lloyd', LINES)).toBe('HLCU');
    expect(resolveScac('msc', LINES)).toBe('MSCU');
    expect(resolveScac('Mediterranean', LINES)).toBe('MSCU');
    // "Ma" starts two lines: ambiguous, and not a SCAC either.
    expect(resolveScac('Ma', LINES)).toBeNull();
    expect(resolveScac('ZZZZ', LINES)).toBe('ZZZZ');
    expect(resolveScac('  ', LINES)).toBeNull();
  });

  it('refuses over-long numbers, references and tags before sending', () => {
    expect(trackInputProblems({ numbers: ['MSCU1234565'], refs: ['PO-1'], tags: [] })).toEqual([]);
    const problems = trackInputProblems({
      numbers: ['X'.repeat(65)],
      refs: ['R'.repeat(101)],
      tags: Array.from({ length: 21 }, (_, i) => `t${i}`),
    });
    expect(problems).toHaveLength(3);
    expect(problems[0]).toMatch(/longer than 64 characters$/);
    expect(problems).toContain('At most 20 tags per request');
  });

  it('sets a typo aside and sends the rest; a B/L or booking in container mode is recognised', () => {
    const valid = Array.from({ length: 19 }, (_, i) => {
      const base = `MSCU${String(400_000 + i).padStart(6, '0')}`;
      return `${base}${checkDigit(base)}`;
    });
    const typo = `${valid[0]!.slice(0, 10)}${(Number(valid[0]![10]) + 1) % 10}`;
    const plan = planNumbers(
      [...valid.slice(0, 10), typo, ...valid.slice(10), 'MEDUAA0001'],
      'container',
    );
    expect(plan.filter((p) => p.status === 'ready')).toHaveLength(19);
    expect(plan.find((p) => p.number === typo)).toMatchObject({
      status: 'set-aside',
      reason: expect.stringContaining('Check digit'),
    });
    expect(plan.find((p) => p.number === 'MEDUAA0001')).toEqual({
      number: 'MEDUAA0001',
      status: 'recognise',
    });
    // A wrong owner letter on a container-shaped number is a typo too, not a B/L.
    expect(planNumbers(['MSCX1234565'], 'container')[0]!.status).toBe('set-aside');
    // In B/L mode every number goes as a B/L.
    expect(planNumbers(['MEDUAA0001', 'MSCU1234565'], 'bill_of_lading')).toEqual([
      { number: 'MEDUAA0001', status: 'ready', requestType: 'bill_of_lading' },
      { number: 'MSCU1234565', status: 'ready', requestType: 'bill_of_lading' },
    ]);
  });
});
