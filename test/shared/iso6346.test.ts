import { describe, expect, it } from 'vitest';
import {
  checkDigit,
  containerNumberProblem,
  isValidContainerNumber,
} from '../../src/shared/iso6346';

/** ISO 6346's table of letter values, as printed in the standard (multiples of 11 left out). */
const LETTER_VALUES: Record<string, number> = {
  A: 10, B: 12, C: 13, D: 14, E: 15, F: 16, G: 17, H: 18, I: 19, J: 20, K: 21, L: 23, M: 24,
  N: 25, O: 26, P: 27, Q: 28, R: 29, S: 30, T: 31, U: 32, V: 34, W: 35, X: 36, Y: 37, Z: 38,
}; // prettier-ignore

/** The standard's method, step by step: weights 2^position, the sum modulo 11, 10 read as 0. */
function byTheStandard(first10: string): number {
  let sum = 0;
  [...first10].forEach((ch, i) => (sum += (LETTER_VALUES[ch] ?? Number(ch)) * 2 ** i));
  return (sum % 11) % 10;
}

describe('ISO 6346 container numbers', () => {
  it("computes the standard's worked example", () => {
    expect(checkDigit('CSQU305438')).toBe(3);
    expect(isValidContainerNumber('CSQU3054383')).toBe(true);
    expect(isValidContainerNumber('CSQU3054384')).toBe(false);
  });

  it("agrees with the standard's table across every letter in every position and many serials", () => {
    for (let i = 0; i < 26 * 40; i++) {
      const letter = (k: number) => String.fromCharCode(65 + ((i * k) % 26));
      const first10 = `${letter(1)}${letter(7)}${letter(11)}${letter(5)}${String((i * 7919) % 1_000_000).padStart(6, '0')}`;
      expect(checkDigit(first10), first10).toBe(byTheStandard(first10));
    }
  });

  it('refuses what is not four capital letters and six digits', () => {
    for (const bad of ['CSQ3054383', 'csqu305438', 'CSQU30543', 'CSQU3054388', 'CSQU30543A'])
      expect(() => checkDigit(bad), bad).toThrow(RangeError);
  });

  it('takes only the categories U, J and Z as valid, and says what is wrong in words', () => {
    const body = 'CSQX305438';
    expect(isValidContainerNumber(`${body}${byTheStandard(body)}`)).toBe(false);
    expect(containerNumberProblem('csqu 305438-3')).toBeNull();
    // The example the shape's message gives is itself a valid number.
    const example = /e\.g\. ([A-Z]{4}\d{7})/.exec(containerNumberProblem('MSCU12') ?? '')?.[1];
    expect(example && isValidContainerNumber(example)).toBe(true);
    expect(containerNumberProblem('CSQU3054384')).toMatch(/should end in 3/);
    expect(containerNumberProblem(`${body}${byTheStandard(body)}`)).toMatch(/U, J or Z/);
  });
});
