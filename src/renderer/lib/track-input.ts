/**
 * What the Track form accepts, checked before anything is sent: the shipping line typed as a
 * SCAC or as the line's name, and numbers, references and tags within the bridge's limits.
 */
export { resolveScac } from '../../shared/line-names';

import { TRACK_LIMITS } from '../../shared/bridge';

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
