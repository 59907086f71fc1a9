/** The sync state owner: cursors and marks the sync keeps between runs (JSON by key). */
import { CacheOwner } from './connection';

export class SyncStateCache extends CacheOwner {
  getState<T>(key: string): T | null {
    const row = this.stmt('SELECT value FROM sync_state WHERE key = ?').get(key) as
      { value: string } | undefined;
    return row ? (JSON.parse(row.value) as T) : null;
  }

  setState(key: string, value: unknown): void {
    this.stmt(
      `INSERT INTO sync_state (key, value) VALUES (?, ?)
       ON CONFLICT(key) DO UPDATE SET value = excluded.value`,
    ).run(key, JSON.stringify(value));
  }

  /** Several state values in one transaction: all are written or none. */
  setStates(values: Readonly<Record<string, unknown>>): void {
    this.db.transaction(() => {
      for (const [key, value] of Object.entries(values)) this.setState(key, value);
    })();
  }

  deleteState(key: string): void {
    this.stmt('DELETE FROM sync_state WHERE key = ?').run(key);
  }
}
