/**
 * The container board's queries: filters, sorts, full-text search, windowed paging and the
 * built-in views, plus container / shipment detail and CSV export. Queries are assembled only
 * from the fixed fragments below with every value bound as a parameter; nothing from outside
 * ever becomes SQL text.
 */
import type Database from 'better-sqlite3';
import {
  ACTIVE_HOLD_STATUS,
  COMPLETED_STATUSES,
  containerLocation,
  type FeeLike,
  type LfdDeadline,
  type LfdDueDays,
} from '../../shared/container';
import type { CostFacts } from '../../shared/cost-clock';
import { STILL_AT_TERMINAL_SQL, type StoredDeadline } from './projection';
import type { CachedContainer, CachedEvent, CachedShipment } from '../../shared/cached-resources';
import {
  BOARD_VIEWS,
  CUSTOM_FIELD_COLUMN_PREFIX,
  type BoardColumn,
  type BoardCustomValue,
  type BoardSortColumn,
  type CustomFieldColumn,
  type CustomFieldFilter,
  type BoardFacets,
  type BoardPage,
  type BoardRow,
  type BoardView,
  type ContainerDetail,
  type ContainerQuery,
  type LfdDueFilter,
  type ShipmentDetail,
  type ShipmentListRow,
  TRUCKER_NONE,
  type TruckerRecord,
} from '../../shared/desktop';

export { BOARD_COLUMNS, BOARD_VIEWS } from '../../shared/desktop';
export type {
  BoardColumn,
  BoardPage,
  BoardRow,
  BoardView,
  ContainerDetail,
  ContainerQuery,
  ShipmentListRow,
} from '../../shared/desktop';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** The assigned trucker's name (a subquery, so no read of the board joins another table). */
const TRUCKER_NAME = '(SELECT tr.company_name FROM truckers tr WHERE tr.id = c.trucker_id)';

/** Board column -> SQL expression it sorts on. */
const SORT_COLUMNS: Record<BoardColumn, string> = {
  number: 'c.number',
  billOfLading: 's.bill_of_lading',
  lineScac: 's.line_scac',
  status: 'c.current_status',
  podLocode: 's.pod_locode',
  terminalName: 't.name',
  vessel: 's.vessel_name',
  voyage: 's.voyage_number',
  etaAt: 's.pod_eta_at',
  ataAt: 'coalesce(c.pod_arrived_at, s.pod_ata_at)',
  dischargedAt: 'c.pod_discharged_at',
  availableForPickup: 'c.available_for_pickup',
  ready: 'c.ready',
  holdsCount: 'c.holds_count',
  feesAmount: 'c.fees_amount',
  // The earliest deadline first: whichever source it is, it is the one that starts costing money.
  lfd: 'c.lfd_first_end_at',
  pickupAppointmentAt: 'c.pickup_appointment_at',
  terminalCheckedAt: 'c.terminal_checked_at',
  updatedAt: 'c.updated_at',
  customer: 's.customer_name',
  trucker: TRUCKER_NAME,
};

/** A box's port zone: its own, else its shipment's (every read that dates a box uses it). */
const POD_TIMEZONE = 'coalesce(c.pod_timezone, s.pod_timezone) AS podTimezone';

const SELECT_ROW = `SELECT c.id, c.shipment_id AS shipmentId, c.number,
  s.bill_of_lading AS billOfLading, s.line_scac AS lineScac, c.current_status AS status,
  s.pod_locode AS podLocode, s.pod_name AS podName, t.name AS terminalName,
  s.vessel_name AS vessel, s.voyage_number AS voyage, s.pod_eta_at AS etaAt,
  coalesce(c.pod_arrived_at, s.pod_ata_at) AS ataAt, c.pod_discharged_at AS dischargedAt,
  c.availability_known AS availabilityKnown, c.available_for_pickup AS availableForPickup,
  c.ready, c.holds_count AS holdsCount,
  (SELECT group_concat(json_extract(h.value, '$.name'), char(31))
     FROM json_each(c.json, '$.attributes.holds_at_pod_terminal') AS h
     WHERE json_extract(h.value, '$.status') = '${ACTIVE_HOLD_STATUS}') AS holdNames,
  c.fees_amount AS feesAmount,
  c.fees_currency AS feesCurrency, c.lfd, c.lfd_source AS lfdSource,
  c.pickup_appointment_at AS pickupAppointmentAt, c.picked_up_at AS pickedUpAt,
  c.terminal_checked_at AS terminalCheckedAt,
  c.updated_at AS updatedAt, ${POD_TIMEZONE},
  s.customer_name AS customer, c.trucker_id AS truckerId, ${TRUCKER_NAME} AS trucker,
  c.lfd_deadlines AS deadlines,
  json_extract(c.json, '$.attributes.final_destination_timezone') AS destinationTimezone,
  json_extract(c.json, '$.attributes.pod_rail_departed_at') AS railDepartedAt,
  json_extract(c.json, '$.attributes.ind_rail_unloaded_at') AS railUnloadedAt,
  json_extract(s.json, '$.attributes.destination_name') AS destinationName`;

/**
 * Containers per page when the cost clock sums a view (see costFactsPage): a range of the
 * containers' own positions: 2-4 ms of SQL and cost clock per turn whatever the filter.
 */
const COST_SPAN = 500;
/** Containers per step when the view counts and filter menus are counted (see inTurns). */
const STEP_SPAN = 1000;
/** The rows that cost or may cost by tomorrow (the parameter: tomorrow's instant). */
const COSTS = '(c.lfd_first_end_at <= ? OR c.fees_amount > 0 OR c.picked_up_at IS NOT NULL)';

const FROM = `FROM containers c
  LEFT JOIN shipments s ON s.id = c.shipment_id
  LEFT JOIN terminals t ON t.id = c.pod_terminal_id`;
/**
 * The same rows for counting when no terminal is filtered on: without the terminal join SQLite
 * counts from the indexes alone (a line's containers at 1M: 90 ms instead of 250).
 */
const FROM_WITHOUT_TERMINAL = `FROM containers c
  LEFT JOIN shipments s ON s.id = c.shipment_id`;
/** The rows of a window found by their ids (`w.window_id`, see containers). */
const WINDOW_ROWS = `JOIN containers c ON c.id = w.window_id
  LEFT JOIN shipments s ON s.id = c.shipment_id
  LEFT JOIN terminals t ON t.id = c.pod_terminal_id`;
/**
 * The same rows read in the containers' own order (by rowid), never through an index of theirs.
 * A shipment is found by its id only (the index of its UNIQUE id): otherwise a filter on a
 * shipment column can make SQLite start from the shipments and scan the range once for each
 * (a line's cost page at 100k: 166 ms instead of 1).
 */
const FROM_BY_POSITION = `FROM containers c NOT INDEXED
  LEFT JOIN shipments s INDEXED BY sqlite_autoindex_shipments_1 ON s.id = c.shipment_id
  LEFT JOIN terminals t ON t.id = c.pod_terminal_id`;

type RawRow = Omit<
  BoardRow,
  'availabilityKnown' | 'availableForPickup' | 'ready' | 'holdNames' | 'deadlines' | 'location'
> & {
  holdNames: string | null;
  availabilityKnown: number;
  availableForPickup: number | null;
  ready: number;
  deadlines: string | null;
  railDepartedAt: string | null;
  railUnloadedAt: string | null;
  destinationName: string | null;
};

/** A row's stored deadlines (JSON), as the shared LFD rule lists them. */
const parseDeadlines = (json: string | null): LfdDeadline[] =>
  json ? (JSON.parse(json) as StoredDeadline[]).map(({ dueFrom: _dueFrom, ...d }) => d) : [];

const toBoardRow = ({
  railDepartedAt,
  railUnloadedAt,
  destinationName,
  deadlines,
  ...r
}: RawRow): BoardRow => ({
  ...r,
  availabilityKnown: r.availabilityKnown === 1,
  availableForPickup: r.availableForPickup === null ? null : r.availableForPickup === 1,
  ready: r.ready === 1,
  // Names are joined with the unit separator, which no hold name contains.
  holdNames: r.holdNames ? r.holdNames.split('\u001f') : [],
  deadlines: parseDeadlines(deadlines),
  location: containerLocation({
    status: r.status,
    terminalName: r.terminalName,
    podName: r.podName,
    destinationName,
    railDepartedAt,
    railUnloadedAt,
  }),
  // Filled by BoardQueries.withCustomFields, one query per batch of rows.
  customFields: {},
});

/**
 * SQL expression: one stored column of a custom field's value for the container `c`, its own
 * value or else its shipment's. The api_slug is bound twice (the two `?`), never written into
 * the SQL; `column` is one of the fixed names below.
 */
const customValueSql = (column: 'sort_key' | 'search_text' | 'choices') =>
  `coalesce(
    (SELECT v.${column} FROM custom_field_values v
      WHERE v.entity_id = c.id AND v.entity_type = 'container' AND v.api_slug = ?),
    (SELECT v.${column} FROM custom_field_values v
      WHERE v.entity_id = c.shipment_id AND v.entity_type = 'shipment' AND v.api_slug = ?))`;

const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;

/** Rows given custom field values per query (well under SQLite's limits). */
const CUSTOM_VALUE_BATCH = 500;

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

const iso = (ms: number) => new Date(ms).toISOString();

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

/** Totals kept for recent filters (a handful of views and filter menus in use at a time). */
const TOTALS_KEPT = 64;

/** Whether a query filters by terminal (only then do its counts need the terminal join). */
const filtersTerminal = (q: ContainerQuery): boolean => (q.terminal?.length ?? 0) > 0;

/** A box out of the terminal, as the empty-return (per diem) clock reads it. */
export type PickedUpBox = Pick<
  BoardRow,
  'id' | 'shipmentId' | 'number' | 'status' | 'lineScac' | 'pickedUpAt' | 'podTimezone'
>;

export class BoardQueries {
  private readonly statements = new Map<string, Database.Statement>();
  /** The total row count per filter, with the database state it was counted in. */
  private readonly totals = new Map<string, { state: string; n: number }>();
  /** The filter menus' values, with the database state they were counted in. */
  private keptFacets: { state: string; facets: BoardFacets } | null = null;

  constructor(private readonly db: Database.Database) {}

  private stmt(sql: string): Database.Statement {
    let s = this.statements.get(sql);
    if (!s) {
      s = this.db.prepare(sql);
      this.statements.set(sql, s);
    }
    return s;
  }

  private where(q: ContainerQuery, now: number): { clause: string; params: unknown[] } {
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
  private condition(q: ContainerQuery, now: number): { sql: string; params: unknown[] } {
    const { clause, params } = this.where(q, now);
    return { sql: clause ? `(${clause.slice('WHERE '.length)})` : '1', params };
  }

  /** The data type of the field behind an api_slug (a container's definition first). */
  private customFieldType(slug: string): string | null {
    const row = this.stmt(
      `SELECT data_type FROM custom_field_definitions WHERE api_slug = ?
       ORDER BY entity_type = 'Container' DESC LIMIT 1`,
    ).get(slug) as { data_type: string } | undefined;
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

  /**
   * Fills each row's custom field values: the container's own, and its shipment's where the
   * container has none of that field. One query for the whole batch.
   */
  private withCustomFields(rows: BoardRow[]): BoardRow[] {
    if (rows.length === 0) return rows;
    const ids = new Set<string>();
    for (const r of rows) {
      ids.add(r.id);
      if (r.shipmentId) ids.add(r.shipmentId);
    }
    const values = this.stmt(
      `SELECT entity_type AS entityType, entity_id AS entityId, api_slug AS slug,
         display_value AS text, value
       FROM custom_field_values WHERE entity_id IN (SELECT value FROM json_each(?))`,
    ).all(JSON.stringify([...ids])) as {
      entityType: 'shipment' | 'container';
      entityId: string;
      slug: string;
      text: string;
      value: string;
    }[];
    if (values.length === 0) return rows;
    const byEntity = new Map<string, Map<string, BoardCustomValue>>();
    for (const v of values) {
      const key = `${v.entityType}:${v.entityId}`;
      if (!byEntity.has(key)) byEntity.set(key, new Map());
      byEntity.get(key)!.set(v.slug, {
        text: v.text,
        value: JSON.parse(v.value) as unknown,
        fromShipment: v.entityType === 'shipment',
      });
    }
    for (const r of rows) {
      const own = byEntity.get(`container:${r.id}`);
      const shipment = r.shipmentId ? byEntity.get(`shipment:${r.shipmentId}`) : undefined;
      r.customFields = Object.fromEntries([...(shipment ?? []), ...(own ?? [])]);
    }
    return rows;
  }

  /** Board rows of a row iterator, with their custom field values, a batch at a time. */
  private *rowsWithCustomFields(raws: Iterable<RawRow>): Generator<BoardRow> {
    let batch: BoardRow[] = [];
    for (const raw of raws) {
      batch.push(toBoardRow(raw));
      if (batch.length >= CUSTOM_VALUE_BATCH) {
        yield* this.withCustomFields(batch);
        batch = [];
      }
    }
    yield* this.withCustomFields(batch);
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

  private orderBy(q: ContainerQuery): { sql: string; params: unknown[] } {
    const column: BoardSortColumn = q.sort?.column ?? 'lfd';
    let expr: string;
    let params: unknown[] = [];
    if (column.startsWith(CUSTOM_FIELD_COLUMN_PREFIX)) {
      const slug = column.slice(CUSTOM_FIELD_COLUMN_PREFIX.length);
      if (!/^[a-z][a-z0-9_]{0,62}$/.test(slug)) {
        throw new RangeError(`Unknown board column: ${column}`);
      }
      expr = customValueSql('sort_key');
      // The expression appears twice below, each with the slug bound twice.
      params = [slug, slug, slug, slug];
    } else {
      const builtIn = SORT_COLUMNS[column as BoardColumn] as string | undefined;
      if (!builtIn) throw new RangeError(`Unknown board column: ${column}`);
      expr = builtIn;
    }
    const dir = q.sort?.direction === 'desc' ? 'DESC' : 'ASC';
    // Empty cells last in either direction; container number then id keep the order total.
    return { sql: `ORDER BY ${expr} IS NULL, ${expr} ${dir}, c.number ASC, c.id ASC`, params };
  }

  /** One window of the board and the total row count for the virtual table's scrollbar. */
  containers(q: ContainerQuery, now: number): BoardPage {
    const { clause, params } = this.where(q, now);
    const limit = Math.min(Math.max(Math.trunc(q.limit ?? 100), 1), 1000);
    const offset = Math.max(Math.trunc(q.offset ?? 0), 0);
    const byTerminal = filtersTerminal(q);
    const total = this.total(clause, params, byTerminal);
    const order = this.orderBy(q);
    // The window's ids are found and sorted first, then only its rows get their columns: the
    // JSON reads and the holds list, computed for every matching row before the sort, cost a
    // line's window at 100k containers 3-4 ms more. The terminal is joined for the sort only
    // when the filter or the order needs it.
    const from = byTerminal || q.sort?.column === 'terminalName' ? FROM : FROM_WITHOUT_TERMINAL;
    const rows = this.stmt(
      `${SELECT_ROW}
       FROM (SELECT c.id AS window_id ${from} ${clause} ${order.sql} LIMIT ? OFFSET ?) w
       ${WINDOW_ROWS} ${order.sql}`,
    ).all(...params, ...order.params, limit, offset, ...order.params) as RawRow[];
    return { total, offset, rows: this.withCustomFields(rows.map(toBoardRow)) };
  }

  /**
   * What identifies the database's contents for this connection: rows it changed
   * (total_changes(), counting even rolled-back writes, which only costs a recount) and commits
   * of other connections (data_version). Equal states, equal counts.
   */
  private dataState(): string {
    const { changes } = this.stmt('SELECT total_changes() AS changes').get() as {
      changes: number;
    };
    const { data_version: version } = this.stmt('PRAGMA data_version').get() as {
      data_version: number;
    };
    return `${version}:${changes}`;
  }

  /**
   * The number of rows a filter matches. Counting costs as much as fetching the window, and a
   * sort change or scroll keeps the filter, so the count is reused until the data changes.
   */
  private total(clause: string, params: readonly unknown[], byTerminal: boolean): number {
    const key = `${clause}\u0000${JSON.stringify(params)}`;
    const state = this.dataState();
    const kept = this.totals.get(key);
    if (kept && kept.state === state) return kept.n;
    const from = byTerminal ? FROM : FROM_WITHOUT_TERMINAL;
    const { n } = this.stmt(`SELECT count(*) AS n ${from} ${clause}`).get(...params) as {
      n: number;
    };
    this.totals.delete(key);
    if (this.totals.size >= TOTALS_KEPT) this.totals.delete(this.totals.keys().next().value!);
    this.totals.set(key, { state, n });
    return n;
  }

  /** Every row of a query, in board order (for export). */
  *allContainers(q: ContainerQuery, now: number): Generator<BoardRow> {
    const { clause, params } = this.where(q, now);
    const order = this.orderBy(q);
    yield* this.rowsWithCustomFields(
      this.stmt(`${SELECT_ROW} ${FROM} ${clause} ${order.sql}`).iterate(
        ...params,
        ...order.params,
      ) as IterableIterator<RawRow>,
    );
  }

  /**
   * The boxes picked up and not yet returned (what the board shows unless completed boxes are
   * shown), with what their empty-return clock needs: the morning watch's reminders.
   */
  pickedUpBoxes(now: number): PickedUpBox[] {
    const { clause, params } = this.where({}, now);
    return this.stmt(
      `SELECT c.id, c.shipment_id AS shipmentId, c.number, c.current_status AS status,
         s.line_scac AS lineScac, c.picked_up_at AS pickedUpAt,
         ${POD_TIMEZONE}
       ${FROM_WITHOUT_TERMINAL} ${clause ? `${clause} AND` : 'WHERE'} c.picked_up_at IS NOT NULL`,
    ).all(...params) as PickedUpBox[];
  }

  /**
   * What the cost clock needs of the rows of a query that cost or may cost by tomorrow (free
   * time ending within a day or already over, fees reported, or picked up: per diem), a page at
   * a time, so that a view of a million containers is summed with other reads in between. A
   * page is a range of `span` container positions after `after` (0 first), read by position:
   * paging the filter's own plan would find and sort every matching row again for each page
   * (26 ms a page for a line at 100k). A filter matching no more than `span` rows is read in
   * one page by its own plan. `next` is where the next page starts, null after the last.
   */
  costFactsPage(
    q: ContainerQuery,
    now: number,
    after: number,
    span = COST_SPAN,
  ): { facts: CostFacts[]; next: number | null } {
    const { clause, params } = this.where(q, now);
    const select = (from: string, range: string) =>
      this.stmt(
        `SELECT c.current_status AS status, t.name AS terminalName,
           c.lfd_deadlines AS deadlines, c.fees_amount AS feesAmount,
           c.fees_currency AS feesCurrency, s.line_scac AS lineScac, c.picked_up_at AS pickedUpAt,
           ${POD_TIMEZONE}
         ${from} ${clause ? `${clause} AND` : 'WHERE'} ${COSTS} ${range}`,
      );
    type Row = Omit<CostFacts, 'deadlines'> & { deadlines: string | null };
    const toFacts = (rows: Row[]): CostFacts[] =>
      rows.map(({ deadlines, ...row }) => ({ ...row, deadlines: parseDeadlines(deadlines) }));
    if (after === 0 && this.total(clause, params, filtersTerminal(q)) <= span) {
      return { facts: toFacts(select(FROM, '').all(...params, now + DAY) as Row[]), next: null };
    }
    const upTo = after + span;
    const rows = select(FROM_BY_POSITION, 'AND c.seq > ? AND c.seq <= ?').all(
      ...params,
      now + DAY,
      after,
      upTo,
    ) as Row[];
    return { facts: toFacts(rows), next: upTo < this.lastPosition() ? upTo : null };
  }

  /** Every row of a query with its itemised fees, in board order (for the exports). */
  *exportRows(q: ContainerQuery, now: number): Generator<{ row: BoardRow; fees: FeeLike[] }> {
    const { clause, params } = this.where(q, now);
    const order = this.orderBy(q);
    let batch: { raw: RawRow; fees: FeeLike[] }[] = [];
    const flush = () => {
      const rows = this.withCustomFields(batch.map((b) => toBoardRow(b.raw)));
      const out = rows.map((row, i) => ({ row, fees: batch[i]!.fees }));
      batch = [];
      return out;
    };
    for (const { feesJson, ...raw } of this.stmt(
      `${SELECT_ROW}, json_extract(c.json, '$.attributes.fees_at_pod_terminal') AS feesJson
       ${FROM} ${clause} ${order.sql}`,
    ).iterate(...params, ...order.params) as IterableIterator<
      RawRow & { feesJson: string | null }
    >) {
      batch.push({ raw, fees: feesJson ? (JSON.parse(feesJson) as FeeLike[]) : [] });
      if (batch.length >= CUSTOM_VALUE_BATCH) yield* flush();
    }
    yield* flush();
  }

  /** The cached truckers by company name. */
  truckers(): TruckerRecord[] {
    return (
      this.stmt(
        `SELECT id, company_name AS companyName, scac, contacts FROM truckers
         ORDER BY company_name COLLATE NOCASE, id`,
      ).all() as (Omit<TruckerRecord, 'contacts'> & { contacts: string })[]
    ).map((r) => ({ ...r, contacts: JSON.parse(r.contacts) as TruckerRecord['contacts'] }));
  }

  /**
   * Every container still at its terminal or on its way there (the worklist's candidates), at
   * most `limit`, earliest deadline first.
   */
  worklistRows(limit = 5000): BoardRow[] {
    return this.withCustomFields(
      (
        this.stmt(
          `${SELECT_ROW} ${FROM} WHERE ${STILL_AT_TERMINAL_SQL}
         ORDER BY c.lfd_first_end_at IS NULL, c.lfd_first_end_at, c.number, c.id LIMIT ?`,
        ).all(limit) as RawRow[]
      ).map(toBoardRow),
    );
  }

  /**
   * How many containers each built-in view holds now (for the sidebar badges), counted a range
   * of positions per step (see inTurns): the board asks at load and after every sync, and the
   * whole count at a million containers would hold the main thread for seconds.
   */
  *viewCountsInSteps(now: number, span = STEP_SPAN): Generator<void, Record<BoardView, number>> {
    const conditions = BOARD_VIEWS.map((view) => this.condition({ view }, now));
    const counts = this.stmt(
      `SELECT ${conditions.map(({ sql }, i) => `coalesce(sum(${sql}), 0) AS v${i}`).join(', ')}
       ${FROM_BY_POSITION} WHERE c.seq > ? AND c.seq <= ?`,
    );
    const params = conditions.flatMap(({ params }) => params);
    const totals = BOARD_VIEWS.map(() => 0);
    yield* this.positionRanges(span, (after, upTo) => {
      const row = counts.get(...params, after, upTo) as Record<string, number>;
      totals.forEach((_, i) => (totals[i]! += row[`v${i}`]!));
    });
    return Object.fromEntries(BOARD_VIEWS.map((view, i) => [view, totals[i]!])) as Record<
      BoardView,
      number
    >;
  }

  /**
   * Distinct values with counts, for the filter menus; a range of positions per step. Kept until
   * the data changes: the board asks each time it opens.
   */
  *facetsInSteps(span = STEP_SPAN): Generator<void, BoardFacets> {
    const state = this.dataState();
    if (this.keptFacets?.state === state) return this.keptFacets.facets;
    const facets = {
      status: new Map(),
      line: new Map(),
      pod: new Map(),
      terminal: new Map(),
      customer: new Map(),
    } as Record<'status' | 'line' | 'pod' | 'terminal' | 'customer', Map<string, number>>;
    const groups = this.stmt(
      `SELECT c.current_status AS status, s.line_scac AS line, s.pod_locode AS pod,
         t.name AS terminal, s.customer_name AS customer, count(*) AS n
       ${FROM_BY_POSITION} WHERE c.seq > ? AND c.seq <= ?
       GROUP BY c.current_status, s.line_scac, s.pod_locode, t.name, s.customer_name`,
    );
    type Group = Record<keyof typeof facets, string | null> & { n: number };
    yield* this.positionRanges(span, (after, upTo) => {
      for (const group of groups.all(after, upTo) as Group[]) {
        for (const name of ['status', 'line', 'pod', 'terminal', 'customer'] as const) {
          const value = group[name];
          if (value !== null) facets[name].set(value, (facets[name].get(value) ?? 0) + group.n);
        }
      }
    });
    // In SQLite's own text order (by code unit), as a GROUP BY ... ORDER BY gave them.
    const values = (counts: Map<string, number>) =>
      [...counts]
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([value, count]) => ({ value, count }));
    const counted: BoardFacets = {
      status: values(facets.status),
      line: values(facets.line),
      pod: values(facets.pod),
      terminal: values(facets.terminal),
      customer: values(facets.customer),
      customFields: this.customFieldColumns(),
      truckers: this.truckers(),
    };
    // Counted as of `state`: a write during the scan leaves the next call to count again.
    this.keptFacets = { state, facets: counted };
    return counted;
  }

  /**
   * Calls `read` for each range of `span` container positions, yielding after each: the steps
   * of a scan that must leave the main thread free in between.
   */
  private *positionRanges(
    span: number,
    read: (after: number, upTo: number) => void,
  ): Generator<void, void> {
    for (let after = 0; ; after += span) {
      read(after, after + span);
      if (after + span >= this.lastPosition()) return;
      yield;
    }
  }

  /** The last container position (rowid) in use, 0 when there is none. */
  private lastPosition(): number {
    const { last } = this.stmt('SELECT max(seq) AS last FROM containers').get() as {
      last: number | null;
    };
    return last ?? 0;
  }

  /**
   * The custom fields that can be board columns: one per api_slug over the container and
   * shipment definitions (a container's own value wins over its shipment's, so the container
   * definition names the column when both exist), in name order.
   */
  customFieldColumns(): CustomFieldColumn[] {
    const defs = this.stmt(
      `SELECT entity_type AS entityType, api_slug AS slug, display_name AS label,
         data_type AS dataType, options
       FROM custom_field_definitions WHERE entity_type IN ('Container', 'Shipment')
       ORDER BY entity_type = 'Container' DESC, id`,
    ).all() as {
      entityType: 'Container' | 'Shipment';
      slug: string;
      label: string;
      dataType: string;
      options: string;
    }[];
    const columns = new Map<string, CustomFieldColumn>();
    for (const d of defs) {
      const known = columns.get(d.slug);
      if (known) {
        known.on.push(d.entityType);
        continue;
      }
      columns.set(d.slug, {
        slug: d.slug,
        label: d.label,
        dataType: d.dataType,
        on: [d.entityType],
        options: JSON.parse(d.options) as CustomFieldColumn['options'],
      });
    }
    return [...columns.values()].sort((a, b) => a.label.localeCompare(b.label));
  }

  /** A container's events as stored: its whole history, newest first (undated last). */
  eventsOf(containerId: string): CachedEvent[] {
    const row = this.stmt(
      `SELECT e.json FROM container_events e JOIN containers c ON c.seq = e.container_seq
       WHERE c.id = ?`,
    ).get(containerId) as { json: string } | undefined;
    return row ? (JSON.parse(row.json) as CachedEvent[]) : [];
  }

  containerDetail(id: string): ContainerDetail | null {
    const row = this.stmt(
      `${SELECT_ROW}, c.json AS containerJson, s.json AS shipmentJson ${FROM} WHERE c.id = ?`,
    ).get(id) as (RawRow & { containerJson: string; shipmentJson: string | null }) | undefined;
    if (!row) return null;
    const { containerJson, shipmentJson, ...raw } = row;
    const container = JSON.parse(containerJson) as CachedContainer;
    const a = container.attributes;
    const events = this.eventsOf(id);
    const map = this.stmt(
      'SELECT fetched_at AS fetchedAt, completed FROM route_maps WHERE container_id = ?',
    ).get(id) as { fetchedAt: string; completed: number } | undefined;
    return {
      row: this.withCustomFields([toBoardRow(raw)])[0]!,
      container,
      shipment: shipmentJson ? (JSON.parse(shipmentJson) as CachedShipment) : null,
      holds: a.holds_at_pod_terminal ?? [],
      fees: a.fees_at_pod_terminal ?? [],
      deadlines: {
        pickupLfd: a.pickup_lfd,
        // The line's own deadline; a service may send it only as `ssl_lfd`.
        line: a.import_deadlines?.pickup_lfd_line ?? a.ssl_lfd ?? null,
        terminal: a.import_deadlines?.pickup_lfd_terminal ?? null,
        rail: a.import_deadlines?.pickup_lfd_rail ?? null,
        binding: raw.lfd,
        bindingSource: raw.lfdSource,
      },
      events,
      routeMap: map ? { fetchedAt: map.fetchedAt, completed: map.completed === 1 } : null,
    };
  }

  shipments(q: { search?: string; offset?: number; limit?: number }): {
    total: number;
    offset: number;
    rows: ShipmentListRow[];
  } {
    const parts: string[] = [];
    const params: unknown[] = [];
    const match = q.search ? ftsQuery(q.search) : null;
    if (match) {
      parts.push(`s.id IN (SELECT c.shipment_id FROM containers c WHERE c.seq IN
        (SELECT rowid FROM container_search WHERE container_search MATCH ?))`);
      params.push(match);
    }
    const clause = parts.length ? `WHERE ${parts.join(' AND ')}` : '';
    const limit = Math.min(Math.max(Math.trunc(q.limit ?? 100), 1), 1000);
    const offset = Math.max(Math.trunc(q.offset ?? 0), 0);
    const total = (
      this.stmt(`SELECT count(*) AS n FROM shipments s ${clause}`).get(...params) as {
        n: number;
      }
    ).n;
    const rows = this.stmt(
      `SELECT s.id, s.bill_of_lading AS billOfLading, s.line_scac AS lineScac,
         s.customer_name AS customer, s.pol_locode AS polLocode, s.pod_locode AS podLocode,
         s.vessel_name AS vessel, s.voyage_number AS voyage, s.pod_eta_at AS etaAt,
         s.pod_ata_at AS ataAt,
         (SELECT count(*) FROM containers c WHERE c.shipment_id = s.id) AS containers
       FROM shipments s ${clause}
       ORDER BY s.pod_eta_at IS NULL, s.pod_eta_at, s.bill_of_lading, s.id LIMIT ? OFFSET ?`,
    ).all(...params, limit, offset) as ShipmentListRow[];
    return { total, offset, rows };
  }

  shipmentDetail(id: string): ShipmentDetail | null {
    const row = this.stmt('SELECT json FROM shipments WHERE id = ?').get(id) as
      { json: string } | undefined;
    if (!row) return null;
    const containers = this.withCustomFields(
      (
        this.stmt(`${SELECT_ROW} ${FROM} WHERE c.shipment_id = ? ORDER BY c.number, c.id`).all(
          id,
        ) as RawRow[]
      ).map(toBoardRow),
    );
    return { shipment: JSON.parse(row.json) as CachedShipment, containers };
  }
}
