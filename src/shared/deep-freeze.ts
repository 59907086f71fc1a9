/**
 * Freezes a value and everything it holds, so a change to something shared throws (in strict
 * code, as every module is) instead of reaching every holder. Returns the same value.
 * No Node imports: the renderer may bundle this file.
 */
export function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
