/**
 * What the Track form accepts, checked before anything is sent: the shipping line typed as a
 * SCAC or as the line's name, and numbers, references and tags within the bridge's limits.
 */
import type { ShippingLineOption } from '../../shared/bridge';

/** The bridge's bounds (src/shared/bridge.ts, TrackingRequestDraft). */
export const TRACK_LIMITS = { numberLength: 64, referenceLength: 100, listItems: 20 } as const;

/**
 * The SCAC the user means: a known SCAC as typed, a line's name or short name (any case), or
 * the start of exactly one line's name; else the typed text itself when it looks like a SCAC.
 */
export function resolveScac(input: string, lines: readonly ShippingLineOption[]): string | null {
  const text = input.trim();
  if (!text) return null;
  const upper = text.toUpperCase();
  const byScac = lines.find((line) => line.scac === upper);
  if (byScac) return byScac.scac;
  const lower = text.toLowerCase();
  const named = lines.find(
    (line) => line.name.toLowerCase() === lower || line.shortName.toLowerCase() === lower,
  );
  if (named) return named.scac;
  const starting = lines.filter(
    (line) =>
      line.name.toLowerCase().startsWith(lower) || line.shortName.toLowerCase().startsWith(lower),
  );
  if (starting.length === 1) return starting[0]!.scac;
  return /^[A-Za-z]{4}$/.test(text) ? upper : null;
}

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
