/** Identifier rules of the trade: ISO 6346 container numbers, chassis numbers, IMO numbers. */
import { checkDigit } from '../shared/iso6346';
import type { Rng } from './prng';

/** A container number with the given owner prefix (e.g. `MSCU`) and a valid check digit. */
export function makeContainerNumber(prefix: string, rng: Rng): string {
  const first10 = `${prefix}${rng.chars(6)}`;
  return `${first10}${checkDigit(first10)}`;
}

/**
 * The same box number with its serial moved, within its run of `modulus` serials (the run below
 * where the last one is cut off at 999999), to the one whose remainder by `modulus` is
 * `remainder`, and the check digit made again: a number of a given class from one draw, where
 * drawing until one fits takes `modulus` draws on average.
 */
export function withSerialRemainder(number: string, modulus: number, remainder: number): string {
  const serial = Number(number.slice(4, 10));
  let moved = serial - (serial % modulus) + remainder;
  if (moved > 999_999) moved -= modulus;
  const first10 = `${number.slice(0, 4)}${String(moved).padStart(6, '0')}`;
  return `${first10}${checkDigit(first10)}`;
}

/** Chassis numbers use the same scheme with equipment category `Z`. */
export function makeChassisNumber(rng: Rng): string {
  const first10 = `${rng.pick(['DCLZ', 'TRAZ', 'FLXZ', 'MCHZ'])}${rng.chars(6)}`;
  return `${first10}${checkDigit(first10)}`;
}
