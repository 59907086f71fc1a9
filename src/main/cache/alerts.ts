/**
 * The alerts owner: alerts stored once per dedupe key, read and notified marks, and the last free
 * days still ahead (for "LFD approaching" alerts). The rules that raise alerts live in
 * src/main/alerts; this file only keeps them.
 */
import type { AlertDraft, AlertList, AlertRecord } from '../../shared/desktop';
import type { AlertKind } from '../../shared/container';
import { CacheOwner } from './connection';
import type { AlertListOptions, UpcomingDeadline } from './interface';
import { STILL_AT_TERMINAL_SQL, type StoredDeadline } from './projection';

interface AlertRow {
  id: number;
  dedupe_key: string;
  kind: AlertKind;
  container_id: string | null;
  shipment_id: string | null;
  title: string;
  body: string;
  created_at: string;
  read_at: string | null;
  notified_at: string | null;
}

const toAlert = (r: AlertRow): AlertRecord => ({
  id: r.id,
  dedupeKey: r.dedupe_key,
  kind: r.kind,
  containerId: r.container_id,
  shipmentId: r.shipment_id,
  title: r.title,
  body: r.body,
  createdAt: r.created_at,
  readAt: r.read_at,
  notifiedAt: r.notified_at,
});

export class AlertsCache extends CacheOwner {
  /** Stores drafts (INSERT OR IGNORE on the dedupe key); returns the ones that were new. */
  insertAlerts(drafts: readonly AlertDraft[], now: string): AlertRecord[] {
    const inserted: AlertRecord[] = [];
    const insert = this.stmt(
      `INSERT INTO alerts (dedupe_key, kind, container_id, shipment_id, title, body, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT(dedupe_key) DO NOTHING`,
    );
    const write = () => {
      for (const d of drafts) {
        const r = insert.run(
          d.dedupeKey,
          d.kind,
          d.containerId,
          d.shipmentId,
          d.title,
          d.body,
          now,
        );
        if (r.changes === 1) {
          inserted.push({
            ...d,
            id: Number(r.lastInsertRowid),
            createdAt: now,
            readAt: null,
            notifiedAt: null,
          });
        }
      }
    };
    if (this.db.inTransaction) write();
    else this.db.transaction(write).immediate();
    return inserted;
  }

  storedAlertKeys(keys: readonly string[]): Set<string> {
    const find = this.stmt('SELECT 1 FROM alerts WHERE dedupe_key = ?');
    return new Set(keys.filter((key) => find.get(key) !== undefined));
  }

  newestAlertAt(): string | null {
    const row = this.stmt('SELECT max(created_at) AS at FROM alerts').get() as {
      at: string | null;
    };
    return row.at;
  }

  listAlerts(options: AlertListOptions = {}): AlertList {
    const where: string[] = [];
    const params: unknown[] = [];
    if (options.unreadOnly) where.push('read_at IS NULL');
    if (options.containerId) {
      where.push('container_id = ?');
      params.push(options.containerId);
    }
    if (options.kinds && options.kinds.length > 0) {
      where.push(`kind IN (${options.kinds.map(() => '?').join(', ')})`);
      params.push(...options.kinds);
    }
    const clause = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const total = (
      this.stmt(`SELECT count(*) AS n FROM alerts ${clause}`).get(...params) as {
        n: number;
      }
    ).n;
    const unread = (
      this.stmt('SELECT count(*) AS n FROM alerts WHERE read_at IS NULL').get() as { n: number }
    ).n;
    const limit = Math.min(Math.max(options.limit ?? 100, 1), 1000);
    const offset = Math.max(options.offset ?? 0, 0);
    const rows = this.stmt(
      `SELECT * FROM alerts ${clause} ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`,
    ).all(...params, limit, offset) as AlertRow[];
    return { total, unread, alerts: rows.map(toAlert) };
  }

  /** Marks the given alerts (or all, when `ids` is omitted) read; returns how many changed. */
  markAlertsRead(now: string, ids?: readonly number[]): number {
    if (!ids) {
      return this.stmt('UPDATE alerts SET read_at = ? WHERE read_at IS NULL').run(now).changes;
    }
    const update = this.stmt('UPDATE alerts SET read_at = ? WHERE id = ? AND read_at IS NULL');
    return this.db.transaction(() => ids.reduce((n, id) => n + update.run(now, id).changes, 0))();
  }

  /** Stored but never handed to the notifier (e.g. the app stopped right after the write). */
  unnotifiedAlerts(): AlertRecord[] {
    return (
      this.stmt('SELECT * FROM alerts WHERE notified_at IS NULL ORDER BY id').all() as AlertRow[]
    ).map(toAlert);
  }

  markNotified(ids: readonly number[], now: string): void {
    const update = this.stmt('UPDATE alerts SET notified_at = ? WHERE id = ?');
    this.db.transaction(() => ids.forEach((id) => update.run(now, id)))();
  }

  /**
   * Every last free day still ahead of a container at the terminal, earliest first. Deadlines of
   * one container ending at the same instant (line and terminal on the same day) come once.
   */
  upcomingDeadlines(fromIso: string): UpcomingDeadline[] {
    const from = Date.parse(fromIso);
    const rows = this.stmt(
      `SELECT c.id, c.number, c.lfd_deadlines AS deadlines, c.first_seen_at AS firstSeenAt,
         t.name AS terminalName
       FROM containers c LEFT JOIN terminals t ON t.id = c.pod_terminal_id
       WHERE c.lfd_last_end_at > ? AND ${STILL_AT_TERMINAL_SQL}`,
    ).all(from) as {
      id: string;
      number: string;
      deadlines: string;
      firstSeenAt: string;
      terminalName: string | null;
    }[];
    const upcoming: UpcomingDeadline[] = [];
    for (const { deadlines, ...row } of rows) {
      const seen = new Set<number>();
      for (const { dueFrom: _dueFrom, ...deadline } of JSON.parse(deadlines) as StoredDeadline[]) {
        if (deadline.endsAt <= from || seen.has(deadline.endsAt)) continue;
        seen.add(deadline.endsAt);
        upcoming.push({ ...row, deadline });
      }
    }
    return upcoming.sort((a, b) => a.deadline.endsAt - b.deadline.endsAt);
  }
}
