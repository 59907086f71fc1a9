/**
 * Counted nouns for people: "1 container", "3 containers", "1 box". One helper so every view,
 * notification and export says it the same way. No Node imports: the renderer bundles this file.
 */

/** "1 container", "2,350 containers"; `many` for irregular plurals ("1 box", "2 boxes"). */
export function countOf(count: number, one: string, many = `${one}s`): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? one : many}`;
}
