/**
 * Board filtering: a ContainerQuery (columns, due dates, search, built-in views, custom fields)
 * as one SQL WHERE clause with every value bound as a parameter.
 */
import { COMPLETED_STATUSES, type LfdDueDays } from '../../shared/container';
import { STILL_AT_TERMINAL_SQL } from './projection';
import {
  TRUCKER_NONE,
  type BoardView,
  type ContainerQuery,
  type CustomFieldFilter,
  type LfdDueFilter,
} from '../../shared/desktop';
import { customValueSql, DAY, HOUR, iso, type BoardDb } from './board-sql';

const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;

/** Calendar days each due filter looks ahead (null: already past). */
const DUE_DAYS: Record<LfdDueFilter, LfdDueDays | null> = {
  overdue: null,
  today: 1,
  by_tomorrow: 2,
  next_3_days: 3,
  next_7_days: 7,
};

/**
 * SQL condition: a deadline still to meet falls within the next `days` calendar days of its own
 * zone. The first two terms only narrow the rows cheaply (an index and a bound a day wide of the
 * exact instants); the per-deadline instants stored with the row decide.
 */
function dueWithinSql(days: LfdDueDays, now: number): { clause: string; params: unknown[] } {
  return {
    clause: `(c.lfd_first_due_at <= ? AND c.lfd_last_end_at > ? AND EXISTS (
      SELECT 1 FROM json_each(c.lfd_deadlines) AS d
      WHERE json_extract(d.value, '$.endsAt') > ?
        AND json_extract(d.value, '$.dueFrom."${days}"') <= ?))`,
    params: [now + days * DAY, now, now, now],
  };
}

/** Turns free text into an FTS5 query of quoted prefix terms (all must match). */
export function ftsQuery(text: string): string | null {
  const terms = text
    .normalize('NFKC')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((t) => t.length > 0)
    .slice(0, 8);
  return terms.length ? terms.map((t) => `"${t}"*`).join(' ') : null;
}

/** Text for a LIKE pattern, its wildcards and the escape character taken literally. */
export const likeLiteral = (text: string): string => text.replace(/[\\%_]/g, (c) => `\\${c}`);

const isoParam = (value: string, name: string): string => {
  const t = Date.parse(value);
  if (Number.isNaN(t)) throw new RangeError(`${name} is not a date-time: ${value}`);
  return iso(t);
};

/** Whether a query filters by terminal (only then do its counts need the terminal join). */
export const filtersTerminal = (q: ContainerQuery): boolean => (q.terminal?.length ?? 0) > 0;

export class BoardFilter {
  constructor(private readonly board: BoardDb) {}

  where(q: ContainerQuery, now: number): { clause: string; params: unknown[] } {
    const parts: string[] = [];
    const params: unknown[] = [];
    const inList = (expr: string, values: readonly string[] | undefined) => {
      if (!values || values.length === 0) return;
      parts.push(`${expr} IN (${values.map(() => '?').join(', ')})`);
      params.push(...values);
    };
    inList('c.current_status', q.status);
    inList('s.line_scac', q.line);
    inList('s.pod_locode', q.pod);
    inList('t.name', q.terminal);
    inList('s.customer_name', q.customer);
    if (q.trucker?.length) {
      const ids = q.trucker.filter((id) => id !== TRUCKER_NONE);
      const either = [
        ...(ids.length ? [`c.trucker_id IN (${ids.map(() => '?').join(', ')})`] : []),
        ...(ids.length < q.trucker.length ? ['c.trucker_id IS NULL'] : []),
      ];
      parts.push(`(${either.join(' OR ')})`);
      params.push(...ids);
    }
    if (q.lfdFrom) {
      parts.push('c.lfd >= ?');
      params.push(isoParam(q.lfdFrom, 'lfdFrom'));
    }
    if (q.lfdTo) {
      parts.push('c.lfd <= ?');
      params.push(isoParam(q.lfdTo, 'lfdTo'));
    }
    if (q.lfdDue) {
      const days = DUE_DAYS[q.lfdDue];
      const due =
        days === null
          ? { clause: 'c.lfd_first_end_at <= ?', params: [now] }
          : dueWithinSql(days, now);
      parts.push(`(${STILL_AT_TERMINAL_SQL} AND ${due.clause})`);
      params.push(...due.params);
    }
    if (!q.showCompleted)
      parts.push(
        `c.current_status NOT IN (${COMPLETED_STATUSES.map((st) => `'${st}'`).join(', ')})`,
      );
    if (q.hasHolds !== undefined)
      parts.push(q.hasHolds ? 'c.holds_count > 0' : 'c.holds_count = 0');
    if (q.ready !== undefined) parts.push(q.ready ? 'c.ready = 1' : 'c.ready = 0');
    const text = q.search?.trim();
    if (text) {
      // The search index (numbers, references, vessel, customer), or the name of the port or
      // terminal, matched as typed: `%` and `_` are letters here, not wildcards.
      const match = ftsQuery(text);
      const like = `%${likeLiteral(text)}%`;
      parts.push(`(${match ? 'c.seq IN (SELECT rowid FROM container_search WHERE container_search MATCH ?) OR ' : ''}
        c.pod_terminal_id IN (SELECT id FROM terminals WHERE name LIKE ? ESCAPE '\\') OR
        c.shipment_id IN (SELECT id FROM shipments
          WHERE pod_name LIKE ? ESCAPE '\\' OR pod_locode LIKE ? ESCAPE '\\'))`);
      params.push(...(match ? [match] : []), like, like, like);
    }
    if (q.view) {
      const view = this.viewClause(q.view, now);
      parts.push(view.clause);
      params.push(...view.params);
    }
    for (const filter of q.customFields ?? []) {
      const custom = this.customFieldClause(filter);
      if (!custom) continue;
      parts.push(custom.clause);
      params.push(...custom.params);
    }
    return { clause: parts.length ? `WHERE ${parts.join(' AND ')}` : '', params };
  }

  /** A query's filter as one SQL condition ('1' when it has none), with its parameters. */
  condition(q: ContainerQuery, now: number): { sql: string; params: unknown[] } {
    const { clause, params } = this.where(q, now);
    return { sql: clause ? `(${clause.slice('WHERE '.length)})` : '1', params };
  }

  /** The data type of the field behind an api_slug (a container's definition first). */
  private customFieldType(slug: string): string | null {
    const row = this.board
      .stmt(
        `SELECT data_type FROM custom_field_definitions WHERE api_slug = ?
       ORDER BY entity_type = 'Container' DESC LIMIT 1`,
      )
      .get(slug) as { data_type: string } | undefined;
    return row?.data_type ?? null;
  }

  /** A bound of a min/max filter, in the form the field's sort keys are stored in. */
  private customFieldBound(slug: string, bound: string, name: string): number | string {
    const type = this.customFieldType(slug);
    if (type === 'number') {
      const n = Number(bound.trim());
      if (bound.trim() === '' || !Number.isFinite(n)) {
        throw new RangeError(`${name} of ${slug} is not a number: ${bound}`);
      }
      return n;
    }
    if (type === 'date') {
      if (!DATE_RE.test(bound)) throw new RangeError(`${name} of ${slug} is not a date: ${bound}`);
      return bound;
    }
    if (type === 'datetime') {
      // A day as the bound takes in the whole day (in UTC).
      const day = DATE_RE.test(bound)
        ? `${bound}T${name === 'max' ? '23:59:59.999' : '00:00:00'}Z`
        : bound;
      return isoParam(day, `${name} of ${slug}`);
    }
    return bound.toLowerCase();
  }

  /** One custom field filter: every condition it names must hold (none: no condition). */
  private customFieldClause(f: CustomFieldFilter): { clause: string; params: unknown[] } | null {
    const parts: string[] = [];
    const params: unknown[] = [];
    if (f.anyOf && f.anyOf.length > 0) {
      parts.push(`EXISTS (SELECT 1 FROM json_each(?) AS j
        WHERE instr(${customValueSql('choices')}, char(31) || j.value || char(31)) > 0)`);
      params.push(JSON.stringify(f.anyOf), f.slug, f.slug);
    }
    if (f.contains) {
      parts.push(`instr(${customValueSql('search_text')}, ?) > 0`);
      params.push(f.slug, f.slug, f.contains.toLowerCase());
    }
    if (f.min !== undefined) {
      parts.push(`${customValueSql('sort_key')} >= ?`);
      params.push(f.slug, f.slug, this.customFieldBound(f.slug, f.min, 'min'));
    }
    if (f.max !== undefined) {
      parts.push(`${customValueSql('sort_key')} <= ?`);
      params.push(f.slug, f.slug, this.customFieldBound(f.slug, f.max, 'max'));
    }
    return parts.length ? { clause: `(${parts.join(' AND ')})`, params } : null;
  }

  /** The built-in views, relative to `now`. */
  private viewClause(view: BoardView, now: number): { clause: string; params: unknown[] } {
    switch (view) {
      case 'needs_action_today':
        // Still at the terminal, and a last free day that is today or past (its day has begun in
        // its zone), or an appointment still ahead today at the terminal.
        return {
          clause: `(${STILL_AT_TERMINAL_SQL} AND (c.lfd_first_due_at <= ? OR (c.appointment_day_at <= ? AND c.pickup_appointment_at >= ?)))`,
          params: [now, now, iso(now)],
        };
      case 'lfd_next_3_days': {
        const due = dueWithinSql(3, now);
        return { clause: `(${STILL_AT_TERMINAL_SQL} AND ${due.clause})`, params: due.params };
      }
      case 'on_hold':
        return { clause: `(${STILL_AT_TERMINAL_SQL} AND c.holds_count > 0)`, params: [] };
      case 'ready_for_pickup':
        return { clause: `(${STILL_AT_TERMINAL_SQL} AND c.ready = 1)`, params: [] };
      case 'arriving_this_week':
        return {
          clause: `(c.pod_arrived_at IS NULL AND s.pod_ata_at IS NULL AND s.pod_eta_at >= ? AND s.pod_eta_at <= ?)`,
          params: [iso(now), iso(now + 7 * 24 * HOUR)],
        };
      case 'at_sea':
        return {
          clause: `(c.current_status = 'on_ship' OR (s.pol_atd_at IS NOT NULL AND s.pod_ata_at IS NULL AND c.pod_arrived_at IS NULL AND c.current_status = 'new'))`,
          params: [],
        };
    }
  }
}
