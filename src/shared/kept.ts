/**
 * Answers kept by key, for pure lookups that cost more than a Map read (time zone arithmetic,
 * Intl formatters, written texts). Bounded: a map that reaches `limit` entries is forgotten all
 * at once, whatever the keys that arrive (they often come from synced data).
 * No Node imports: the renderer bundles this file.
 */
export function kept<T>(map: Map<string, T>, key: string, make: () => T, limit = 10_000): T {
  const known = map.get(key);
  if (known !== undefined) return known;
  const value = make();
  if (map.size >= limit) map.clear();
  map.set(key, value);
  return value;
}
