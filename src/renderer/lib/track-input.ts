/**
 * What the Track form accepts, checked before anything is sent: the shipping line typed as a
 * SCAC or as the line's name, and numbers, references and tags within the bridge's limits.
 */
export { resolveScac } from '../../shared/line-names';

import type { REQUEST_TYPES } from '../../shared/bridge';
import { TRACK_LIMITS } from '../../shared/bridge';
import { CONTAINER_NUMBER_SHAPE, containerNumberProblem } from '../../shared/iso6346';

/** The bridge's bounds (src/shared/bridge.ts, TrackingRequestDraft). */
export { TRACK_LIMITS };

/** Problems with what the form would send, in words; empty when it can go. */
export function trackInputProblems(input: {
  numbers: readonly string[];
  refs: readonly string[];
  tags: readonly string[];
}): string[] {
  const problems: string[] = [];
  for (const number of input.numbers)
    if (number.length > TRACK_LIMITS.numberLength)
      problems.push(`${number.slice(0, 20)}…: longer than ${TRACK_LIMITS.numberLength} characters`);
  for (const [label, list] of [
    ['reference', input.refs],
    ['tag', input.tags],
  ] as const) {
    if (list.length > TRACK_LIMITS.listItems)
      problems.push(`At most ${TRACK_LIMITS.listItems} ${label}s per request`);
    for (const item of list)
      if (item.length > TRACK_LIMITS.referenceLength)
        problems.push(
          `The ${label} ${item.slice(0, 20)}… is longer than ${TRACK_LIMITS.referenceLength} characters`,
        );
  }
  return problems;
}

/** How one pasted number will be sent, or why it is set aside. */
export type PlannedNumber =
  | { number: string; status: 'ready'; requestType: RequestType }
  /** Not a container number in container mode: the line's answer says whether B/L or booking. */
  | { number: string; status: 'recognise' }
  | { number: string; status: 'set-aside'; reason: string };

type RequestType = (typeof REQUEST_TYPES)[number];

/**
 * What a pasted list becomes: in container mode a number shaped like a container (4 letters and
 * 7 digits) with a wrong check digit or owner letter is set aside with the reason, and one of
 * another shape is not refused but recognised as a bill of lading or booking number; every other
 * number is sent as the chosen type. One typo never holds back the rest.
 */
export function planNumbers(numbers: readonly string[], type: RequestType): PlannedNumber[] {
  return numbers.map((number): PlannedNumber => {
    if (type !== 'container') return { number, status: 'ready', requestType: type };
    if (!CONTAINER_NUMBER_SHAPE.test(number)) return { number, status: 'recognise' };
    const problem = containerNumberProblem(number);
    return problem
      ? { number, status: 'set-aside', reason: problem }
      : { number, status: 'ready', requestType: 'container' };
  });
}
