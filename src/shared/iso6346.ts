/**
 * ISO 6346 container numbers: owner code (3 letters), category (U, J or Z), 6-digit serial and a
 * check digit. The check digit catches most typing mistakes before a request is sent.
 */

/** Letter values by letter (A..Z): 10 upwards, skipping multiples of 11 (A=10, B=12, ..., L=23). */
const LETTER_VALUES: readonly number[] = (() => {
  const values: number[] = [];
  let value = 10;
  for (let letter = 0; letter < 26; letter++) {
    if (value % 11 === 0) value++;
    values.push(value++);
  }
  return values;
})();

/**
 * The check digit of the first 10 characters (four capital letters, six digits), each weighted
 * by 2^position. Read by character code: the simulated world draws a number for every box it
 * builds, and the document reader checks every number it finds.
 */
export function checkDigit(first10: string): number {
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
  if (!ok) throw new RangeError(`not four capital letters and six digits: ${first10}`);
  return (sum % 11) % 10;
}

/** Four letters and seven digits: the shape of a container number, check digit aside. */
export const CONTAINER_NUMBER_SHAPE = /^[A-Z]{4}\d{7}$/;

/** The owner's three letters, then the category: U (freight), J (detachable equipment) or Z. */
export const CONTAINER_OWNER_AND_CATEGORY = /^[A-Z]{3}[UJZ]/;

/** An owner code, a category of U, J or Z, the serial and a check digit that matches. */
export function isValidContainerNumber(number: string): boolean {
  return (
    CONTAINER_NUMBER_SHAPE.test(number) &&
    CONTAINER_OWNER_AND_CATEGORY.test(number) &&
    checkDigit(number.slice(0, 10)) === Number(number[10])
  );
}

/** null when valid, else a message saying what is wrong in plain words. */
export function containerNumberProblem(raw: string): string | null {
  const number = raw.replace(/[\s-]/g, '').toUpperCase();
  if (!CONTAINER_NUMBER_SHAPE.test(number)) {
    return 'A container number is 4 letters and 7 digits, e.g. MSCU1234566.';
  }
  if (!CONTAINER_OWNER_AND_CATEGORY.test(number)) {
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
