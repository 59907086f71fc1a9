/**
 * ISO 6346 container numbers: owner code (3 letters), category (U, J or Z), 6-digit serial and a
 * check digit. The check digit catches most typing mistakes before a request is sent.
 */

/** Letter values skip multiples of 11 (A=10, B=12 ... K=21, L=23 ...). */
function letterValue(letter: string): number {
  let value = 10;
  for (let code = 'A'.charCodeAt(0); code < letter.charCodeAt(0); code += 1) {
    value += 1;
    if (value % 11 === 0) value += 1;
  }
  return value;
}

export function checkDigit(first10: string): number {
  let sum = 0;
  for (let i = 0; i < 10; i += 1) {
    const ch = first10[i] ?? '0';
    const value = /[A-Z]/.test(ch) ? letterValue(ch) : Number(ch);
    sum += value * 2 ** i;
  }
  return (sum % 11) % 10;
}

/** Four letters and seven digits: the shape of a container number, check digit aside. */
export const CONTAINER_NUMBER_SHAPE = /^[A-Z]{4}\d{7}$/;

/** null when valid, else a message saying what is wrong in plain words. */
export function containerNumberProblem(raw: string): string | null {
  const number = raw.replace(/[\s-]/g, '').toUpperCase();
  if (!CONTAINER_NUMBER_SHAPE.test(number)) {
    return 'A container number is 4 letters and 7 digits, e.g. MSCU1234565.';
  }
  if (!/^[A-Z]{3}[UJZ]/.test(number)) {
    return 'The fourth letter of a container number is U, J or Z.';
  }
  const expected = checkDigit(number.slice(0, 10));
  if (Number(number[10]) !== expected) {
    return `Check digit does not match: ${number.slice(0, 10)} should end in ${expected}. Check for a typo.`;
  }
  return null;
}

export function normalizeNumber(raw: string): string {
  return raw.replace(/[\s-]/g, '').toUpperCase();
}
