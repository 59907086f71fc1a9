/**
 * A least-recently-used map bounded by the bytes its values take, not by their count: a service
 * with 100k containers must not hold 100k rendered bodies, and a handful of big entries must not
 * pass for a small cache. Each entry's size is the caller's estimate (for JSON, its length).
 *
 * Recency is kept the "second chance" way: a read only marks its entry, and eviction moves a
 * marked entry to the young end instead of dropping it. A read is one map lookup, where moving
 * the entry on every read (delete and insert in the map) was a visible part of a detail answer.
 */
export class ByteLru<K, V> {
  private readonly entries = new Map<K, { value: V; bytes: number; read: boolean }>();
  private used = 0;

  /** `maxBytes`: the budget; an entry bigger than a quarter of it is not kept at all. */
  constructor(readonly maxBytes: number) {}

  /** The bytes the kept entries take. */
  get bytes(): number {
    return this.used;
  }

  get size(): number {
    return this.entries.size;
  }

  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    entry.read = true;
    return entry.value;
  }

  /** Peeks without refreshing the entry's place. */
  has(key: K): boolean {
    return this.entries.has(key);
  }

  set(key: K, value: V, bytes: number): void {
    this.delete(key);
    if (bytes > this.maxBytes / 4) return;
    this.entries.set(key, { value, bytes, read: false });
    this.used += bytes;
    // Each marked entry is moved once and unmarked, so this ends within two passes.
    for (const [oldest, entry] of this.entries) {
      if (this.used <= this.maxBytes) break;
      this.entries.delete(oldest);
      if (entry.read) {
        entry.read = false;
        this.entries.set(oldest, entry);
      } else this.used -= entry.bytes;
    }
  }

  /** Records that a kept value grew (or shrank) in place; evicts others to stay in budget. */
  resize(key: K, bytes: number): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    const value = entry.value;
    this.set(key, value, bytes);
  }

  delete(key: K): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.used -= entry.bytes;
  }

  clear(): void {
    this.entries.clear();
    this.used = 0;
  }
}
