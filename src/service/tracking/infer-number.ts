/**
 * Infers what a tracking number is (container, bill of lading, booking) and which shipping line
 * issued it, from the number alone: ISO 6346 owner codes with their check digit for containers,
 * and the lines' bill of lading / booking prefixes otherwise.
 *
 * Decision bands on the best candidate's confidence: >= 0.9 `auto_select`, >= 0.5
 * `needs_confirmation`, below (or no candidate) `no_prediction`.
 */
import type { InferNumberResult } from '../../shared/api/resources';
import {
  checkDigit,
  CONTAINER_NUMBER_SHAPE,
  CONTAINER_OWNER_AND_CATEGORY,
  isValidContainerNumber,
} from '../../shared/iso6346';
import type { ShippingLinesTable } from '../store/schema';

export const AUTO_SELECT_THRESHOLD = 0.9;
export const CONFIRMATION_THRESHOLD = 0.5;

const list = (text: string) => JSON.parse(text) as string[];
const round = (n: number) => Math.round(n * 100) / 100;

function decide(candidates: { scac: string; name: string; confidence: number }[]) {
  const sorted = [...candidates].sort(
    (a, b) => b.confidence - a.confidence || a.scac.localeCompare(b.scac),
  );
  const best = sorted[0];
  const decision: 'auto_select' | 'needs_confirmation' | 'no_prediction' = !best
    ? 'no_prediction'
    : best.confidence >= AUTO_SELECT_THRESHOLD
      ? 'auto_select'
      : best.confidence >= CONFIRMATION_THRESHOLD
        ? 'needs_confirmation'
        : 'no_prediction';
  return { decision, selected: decision === 'no_prediction' ? null : best!, candidates: sorted };
}

/** Returns null when the input cannot be a tracking number at all. */
export function inferNumber(raw: string, lines: ShippingLinesTable[]): InferNumberResult | null {
  const number = raw.toUpperCase().replace(/[\s-]/g, '');
  if (!/^[A-Z0-9]{4,30}$/.test(number)) return null;
  const id = `infer_${number}`;

  if (CONTAINER_NUMBER_SHAPE.test(number)) {
    const formatOk = CONTAINER_OWNER_AND_CATEGORY.test(number);
    const checkPassed = isValidContainerNumber(number);
    const owner = number.slice(0, 4);
    const owners = lines.filter((l) => list(l.container_prefixes).includes(owner));
    // A failed check digit usually means a typo: keep the owner's line but ask to confirm.
    const base = checkPassed ? 1 : 0.6;
    const candidates = owners.map((l) => ({
      scac: l.scac,
      name: l.name,
      confidence: round(base / owners.length),
    }));
    return {
      id,
      type: 'infer_number_results',
      attributes: {
        number_type: 'container',
        validation: {
          is_valid: checkPassed,
          type: 'container',
          check_digit_passed: formatOk ? checkPassed : false,
          parsed_number: null,
          reason: checkPassed
            ? null
            : formatOk
              ? `check digit should be ${checkDigit(number.slice(0, 10))}`
              : 'the fourth letter of a container number is U, J or Z',
        },
        shipping_line: decide(candidates),
      },
    };
  }

  // Longest matching prefix wins; ties between lines share the confidence.
  let best: {
    length: number;
    kind: 'bill_of_lading' | 'booking';
    lines: ShippingLinesTable[];
  } | null = null;
  for (const line of lines) {
    const options: [string, 'bill_of_lading' | 'booking'][] = [
      ...list(line.bill_of_lading_prefixes).map(
        (p) => [p, 'bill_of_lading'] as [string, 'bill_of_lading'],
      ),
      ...list(line.booking_prefixes).map((p) => [p, 'booking'] as [string, 'booking']),
    ];
    for (const [prefix, kind] of options) {
      if (!prefix || !number.startsWith(prefix) || number.length <= prefix.length) continue;
      if (!best || prefix.length > best.length)
        best = { length: prefix.length, kind, lines: [line] };
      else if (prefix.length === best.length && !best.lines.includes(line)) best.lines.push(line);
    }
  }
  const numberType = best?.kind ?? (/^[0-9]+$/.test(number) ? 'booking' : 'bill_of_lading');
  // Four or more letters of prefix (usually the SCAC) are a strong signal; short ones are not.
  const strength = best ? (best.length >= 4 ? 0.95 : 0.7) : 0;
  const candidates = (best?.lines ?? []).map((l) => ({
    scac: l.scac,
    name: l.name,
    confidence: round(strength / best!.lines.length),
  }));
  return {
    id,
    type: 'infer_number_results',
    attributes: {
      number_type: numberType,
      validation: {
        is_valid: best ? true : null,
        type: 'shipment',
        check_digit_passed: null,
        parsed_number: number,
        reason: best ? null : 'no shipping line uses this number format',
      },
      shipping_line: decide(candidates),
    },
  };
}
