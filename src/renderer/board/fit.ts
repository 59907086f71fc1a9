/**
 * Column widths fitted to content and to the board's width: each column gets the width its
 * widest shown cell needs; spare room is shared out so a wide window has no empty band on the
 * right; when the content is wider than the board, columns of long free text (location, vessel,
 * customer) give way first, down to a floor, and the rest (dates, readiness, holds) keep theirs.
 */

/** Columns whose text may be cut with an ellipsis (the full text is in the cell's title). */
export const SHRINKABLE_COLUMNS: ReadonlySet<string> = new Set([
  'pod',
  'fees',
  'vessel',
  'customer',
  'billOfLading',
]);

/** The narrowest a shrinkable column gets. */
export const SHRINK_FLOOR = 110;

/** Widths in whole pixels, summing to `available` when the content fits in it. */
export function fitColumnWidths(
  natural: Readonly<Record<string, number>>,
  available: number,
  shrinkable: ReadonlySet<string> = SHRINKABLE_COLUMNS,
): Record<string, number> {
  const ids = Object.keys(natural);
  const widths: Record<string, number> = {};
  for (const id of ids) widths[id] = Math.ceil(natural[id] ?? 0);
  const total = ids.reduce((sum, id) => sum + (widths[id] ?? 0), 0);
  if (ids.length === 0 || available <= 0) return widths;

  if (total <= available) {
    // Share the spare room in proportion to each column's width; the last one takes the rest.
    let spare = available - total;
    const share = spare / total;
    ids.forEach((id, index) => {
      const extra = index === ids.length - 1 ? spare : Math.floor((widths[id] ?? 0) * share);
      widths[id] = (widths[id] ?? 0) + extra;
      spare -= extra;
    });
    return widths;
  }

  let excess = total - available;
  const giving = ids.filter((id) => shrinkable.has(id) && (widths[id] ?? 0) > SHRINK_FLOOR);
  const room = giving.reduce((sum, id) => sum + (widths[id] ?? 0) - SHRINK_FLOOR, 0);
  if (room <= 0) return widths;
  const ratio = Math.min(1, excess / room);
  for (const id of giving) {
    const cut = Math.min(Math.ceil(((widths[id] ?? 0) - SHRINK_FLOOR) * ratio), excess);
    widths[id] = (widths[id] ?? 0) - cut;
    excess -= cut;
  }
  return widths;
}
