/**
 * A shipping line as people write it: its SCAC, its name or short name, or the start of one name.
 * The Track form and spreadsheet import both read lines this way.
 */

export interface NamedLine {
  scac: string;
  name: string;
  shortName: string;
}

/**
 * The SCAC the user means: a known SCAC as typed, a line's name or short name (any case), or
 * the start of exactly one line's name; else the typed text itself when it looks like a SCAC.
 */
export function resolveScac(input: string, lines: readonly NamedLine[]): string | null {
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
