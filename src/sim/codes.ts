/** Identifier rules of the trade: ISO 6346 container numbers, chassis numbers, IMO numbers. */
import type { Rng } from './prng';

/** ISO 6346 letter values by letter (A..Z), skipping multiples of 11 (A=10, B=12, ..., L=23). */
const LETTER_VALUES: number[] = (() => {
  const values: number[] = [];
  let v = 10;
  for (let letter = 0; letter < 26; letter++) {
    if (v % 11 === 0) v++;
    values.push(v++);
  }
  return values;
})();

/**
 * Check digit of the first 10 characters of an ISO 6346 code (owner + category + serial). Read
 * by character code: the booking stream draws about a thousand numbers for every box it keeps.
 */
export function iso6346CheckDigit(first10: string): number {
  // Four capital letters, then six digits; each weighted by 2^position.
  let ok = first10.length === 10;
  let sum = 0;
  for (let i = 0; i < 4; i++) {
    const letter = first10.charCodeAt(i) - 65;
    ok &&= letter >= 0 && letter < 26;
    sum += (LETTER_VALUES[letter] ?? 0) << i;
  }
  for (let i = 4; i < 10; i++) {
    const digit = first10.charCodeAt(i) - 48;
    ok &&= digit >= 0 && digit <= 9;
    sum += digit << i;
  }
  if (!ok) throw new RangeError(`not an ISO 6346 prefix: ${first10}`);
  return (sum % 11) % 10;
}

export function isValidContainerNumber(number: string): boolean {
  return (
    /^[A-Z]{3}[UJZ][0-9]{7}$/.test(number) &&
    iso6346CheckDigit(number.slice(0, 10)) === Number(number[10])
  );
}

/** A container number with the given owner prefix (e.g. `MSCU`) and a valid check digit. */
export function makeContainerNumber(prefix: string, rng: Rng): string {
  const first10 = `${prefix}${rng.chars(6)}`;
  return `${first10}${iso6346CheckDigit(first10)}`;
}

/** Chassis numbers use the same scheme with equipment category `Z`. */
export function makeChassisNumber(rng: Rng): string {
  const first10 = `${rng.pick(['DCLZ', 'TRAZ', 'FLXZ', 'MCHZ'])}${rng.chars(6)}`;
  return `${first10}${iso6346CheckDigit(first10)}`;
}
