/**
 * Column widths fitted to content and to the board's width: each column gets the width its
 * widest shown cell needs; spare room is shared out so a wide window has no empty band on the
 * right; when the content is wider than the board, columns of long free text (location, vessel,
 * customer) give way first, down to a floor. If the board is then only slightly too wide (the
 * demo's and a real account's longest texts make a 1440 px window so), the other columns save
 * a horizontal scrollbar by a trim, never below their header; the container's number,
 * readiness and holds keep their whole width. Much wider content scrolls sideways instead.
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

/** Columns never trimmed: what a dispatcher reads a row by. */
export const UNTRIMMED_COLUMNS: ReadonlySet<string> = new Set(['number', 'ready', 'holds']);

/**
 * The most of its width a column gives in the trim. At 15% a 1440 px window still scrolled at
 * some hours of the demo (an overdue box's "25 Nov overdue 2d 21h terminal" made the LFD column
 * 223 px, the board 93 px too wide in all, and a 15% trim could not take that much, so none
 * was made); at 30% the LFD date and the countdown's start stay in view, and the cell's
 * tooltip has every deadline.
 */
export const TRIM_SHARE = 0.3;

/**
 * Widths in whole pixels, summing to `available` when the content fits in it (or does after
 * the trim). `minimum`: each column's least width, its header label's (a label is never cut).
 */
export function fitColumnWidths(
  natural: Readonly<Record<string, number>>,
  available: number,
  shrinkable: ReadonlySet<string> = SHRINKABLE_COLUMNS,
  minimum: Readonly<Record<string, number>> = {},
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

  const floor = (id: string) => Math.max(SHRINK_FLOOR, Math.ceil(minimum[id] ?? 0));
  let excess = giveWay(
    widths,
    ids.filter((id) => shrinkable.has(id)),
    floor,
    total - available,
  );
  if (excess <= 0) return widths;

  const trimmed = ids.filter((id) => !shrinkable.has(id) && !UNTRIMMED_COLUMNS.has(id));
  const trimFloor = (id: string) =>
    Math.max(Math.ceil(minimum[id] ?? 0), Math.ceil((widths[id] ?? 0) * (1 - TRIM_SHARE)));
  const trimRoom = trimmed.reduce(
    (sum, id) => sum + Math.max(0, (widths[id] ?? 0) - trimFloor(id)),
    0,
  );
  // A trim that still leaves a scrollbar would cut text for nothing.
  if (trimRoom >= excess) excess = giveWay(widths, trimmed, trimFloor, excess);
  return widths;
}

/** Narrows `ids` in proportion to their room above `floor`, by `excess` at most; the rest. */
function giveWay(
  widths: Record<string, number>,
  ids: readonly string[],
  floor: (id: string) => number,
  excess: number,
): number {
  const floors = Object.fromEntries(ids.map((id) => [id, floor(id)]));
  const giving = ids.filter((id) => (widths[id] ?? 0) > (floors[id] ?? 0));
  const room = giving.reduce((sum, id) => sum + (widths[id] ?? 0) - (floors[id] ?? 0), 0);
  if (room <= 0) return excess;
  const ratio = Math.min(1, excess / room);
  for (const id of giving) {
    const cut = Math.min(Math.ceil(((widths[id] ?? 0) - (floors[id] ?? 0)) * ratio), excess);
    widths[id] = (widths[id] ?? 0) - cut;
    excess -= cut;
  }
  return excess;
}
