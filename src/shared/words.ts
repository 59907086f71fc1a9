/**
 * Counted nouns for people: "1 container", "3 containers", "1 box". One helper so every view,
 * notification and export says it the same way. No Node imports: the renderer bundles this file.
 */

// One formatter for every count: toLocaleString builds a new one per call, which a board
// repainting hundreds of cells and filter options pays for on every render.
const COUNT_FORMAT = new Intl.NumberFormat('en-US');

/** "2,350": a count with its thousands grouped. */
export function formatCount(count: number): string {
  return COUNT_FORMAT.format(count);
}

/** "1 container", "2,350 containers"; `many` for irregular plurals ("1 box", "2 boxes"). */
export function countOf(count: number, one: string, many = `${one}s`): string {
  return `${formatCount(count)} ${count === 1 ? one : many}`;
}
