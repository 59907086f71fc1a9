/**
 * The transport events owner: each container's whole history as one row, newest first, and the
 * flag that says a container's events must be fetched again.
 */
import type { CachedEvent } from '../../shared/cached-resources';
import { CacheOwner } from './connection';
import { preparedHistory, type PreparedHistory } from './prepared-page';

export class EventsCache extends CacheOwner {
  /**
   * Stores a container's whole event history as one row, newest first, and clears its flag
   * unless the history is known to be incomplete (then the next sync asks again).
   */
  writeEvents(containerSeq: number, history: PreparedHistory, complete = true): void {
    this.storeHistory(containerSeq, history);
    if (!complete) return;
    this.stmt('UPDATE containers SET events_stale = 0 WHERE seq = ? AND events_stale = 1').run(
      containerSeq,
    );
  }

  /**
   * Stores a container's whole event history as one row, newest first; an unchanged history (a
   * container changed, not its events, the usual case) is not written again.
   */
  storeHistory(containerSeq: number, history: PreparedHistory): void {
    // The hash, not the text: reading a whole history back costs more than writing it.
    const stored = this.stmt('SELECT hash FROM container_events WHERE container_seq = ?').get(
      containerSeq,
    ) as { hash: string | null } | undefined;
    if (stored?.hash === history.hash) return;
    this.stmt(
      `INSERT INTO container_events (container_seq, event_count, json, hash) VALUES (?, ?, ?, ?)
       ON CONFLICT(container_seq) DO UPDATE SET event_count = excluded.event_count,
         json = excluded.json, hash = excluded.hash`,
    ).run(containerSeq, history.count, history.json, history.hash);
  }

  /**
   * Replaces a container's event history (the list from the server) in one transaction; an
   * incomplete one (`complete: false`, an event was unusable) leaves the container marked stale.
   */
  replaceEvents(
    containerId: string,
    events: readonly CachedEvent[],
    { complete = true }: { complete?: boolean } = {},
  ): void {
    this.db
      .transaction(() => {
        const row = this.stmt('SELECT seq FROM containers WHERE id = ?').get(containerId) as
          { seq: number } | undefined;
        if (row) this.writeEvents(row.seq, preparedHistory(events), complete);
      })
      .immediate();
  }

  /** Containers whose events must be fetched (changed since their events were last stored). */
  staleEventContainers(): string[] {
    return (
      this.stmt('SELECT id FROM containers WHERE events_stale = 1 ORDER BY seq').all() as {
        id: string;
      }[]
    ).map((r) => r.id);
  }
}
