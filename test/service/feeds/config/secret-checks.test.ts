/**
 * The two rules behind "no credential in output": what a credential may hold for where it goes
 * (checked at load, described without quoting it) and how an error text is cleaned of one.
 */
import { describe, expect, it } from 'vitest';
import {
  MAX_SECRET_BYTES,
  redactCredentials,
  secretProblem,
} from '../../../../src/service/feeds/config/secret';

describe('credential checks', () => {
  it('say what is wrong for the use, never quoting the value', () => {
    const cases: [string, Parameters<typeof secretProblem>[1], RegExp | null][] = [
      ['abc.DEF-123_~+/=', 'bearer', null],
      ['two\nlines', 'bearer', /line break/],
      ['tab\there', 'header', /control character/],
      ['"quoted"', 'encoded', /wrapped in quotes/],
      ['päss', 'header', /outside visible ASCII/],
      ['päss wörd', 'encoded', null],
      ['with space', 'bearer', /contains a space/],
      [' padded', 'header', /starts or ends with a space/],
      ['user:name', 'basic_username', /colon/],
      ['x'.repeat(MAX_SECRET_BYTES + 1), 'encoded', /at most 8192/],
    ];
    for (const [value, use, expected] of cases) {
      const problem = secretProblem(value, use);
      if (expected === null) expect(problem).toBeNull();
      else {
        expect(problem).toMatch(expected);
        expect(problem).not.toContain(value.slice(0, 8));
      }
    }
  });

  it('take a credential out of a text in every form a message may quote it', () => {
    const secret = 'PART-one-1234\nPART-two-5678';
    const text = [
      `Headers.append: "Bearer ${JSON.stringify(secret).slice(1, -1)}" is an invalid header value`,
      `raw ${secret}`,
      `query token=${encodeURIComponent(secret)}`,
      'the Bearer scheme is no secret',
    ].join(' | ');
    const cleaned = redactCredentials(text, [secret]);
    expect(cleaned).not.toMatch(/PART-(one|two)/);
    expect(cleaned).toContain('Headers.append: "Bearer [redacted]" is an invalid header value');
    expect(cleaned).toContain('the Bearer scheme is no secret');
  });
});
