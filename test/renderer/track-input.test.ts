import { describe, expect, it } from 'vitest';
import { resolveScac, trackInputProblems } from '../../src/renderer/lib/track-input';

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
});
