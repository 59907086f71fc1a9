/** Identifier rules of the trade: ISO 6346 container numbers, chassis numbers, IMO numbers. */
import type { Rng } from './prng';

/** ISO 6346 letter values skip multiples of 11 (A=10, B=12, ..., K=21, L=23, ...). */
const LETTER_VALUES: Record<string, number> = (() => {
  const values: Record<string, number> = {};
  let v = 10;
  for (const letter of 'ABCDEFGHIJKLMNOPQRSTUVWXYZ') {
    if (v % 11 === 0) v++;
    values[letter] = v++;
  }
  return values;
})();

/** Check digit of the first 10 characters of an ISO 6346 code (owner + category + serial). */
export function iso6346CheckDigit(first10: string): number {
  if (!/^[A-Z]{4}[0-9]{6}$/.test(first10))
    throw new RangeError(`not an ISO 6346 prefix: ${first10}`);
  let sum = 0;
  for (let i = 0; i < 10; i++) {
    const ch = first10[i]!;
    const value = i < 4 ? LETTER_VALUES[ch]! : Number(ch);
    sum += value * 2 ** i;
  }
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

export function isValidImo(imo: string): boolean {
  if (!/^[0-9]{7}$/.test(imo)) return false;
  let sum = 0;
  for (let i = 0; i < 6; i++) sum += Number(imo[i]) * (7 - i);
  return sum % 10 === Number(imo[6]);
}
