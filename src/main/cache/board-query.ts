/**
 * The container board's owner: one window of rows with its total, every row for export, the cost
 * clock's pages, container / shipment detail and the worklist. Queries are assembled only from
 * fixed fragments with every value bound as a parameter; nothing from outside ever becomes SQL
 * text. Filtering is board-filter.ts, sorting board-sort.ts, the view counts and filter menus
 * board-facets.ts, custom field values board-custom-values.ts, the shared fragments board-sql.ts.
 */
import type Database from 'better-sqlite3';
import type { FeeLike } from '../../shared/container';
import type { CostFacts } from '../../shared/cost-clock';
import { STILL_AT_TERMINAL_SQL } from './projection';
import type { CachedContainer, CachedEvent, CachedShipment } from '../../shared/cached-resources';
import type {
  BoardFacets,
  BoardPage,
  BoardRow,
  BoardView,
  ContainerDetail,
  ContainerQuery,
  CustomFieldColumn,
  ShipmentDetail,
  ShipmentListRow,
  TruckerRecord,
} from '../../shared/desktop';
import {
  BoardDb,
  COSTS,
  DAY,
  FROM,
  FROM_BY_POSITION,
  FROM_WITHOUT_TERMINAL,
  parseDeadlines,
  POD_TIMEZONE,
  SELECT_ROW,
  toBoardRow,
  WINDOW_ROWS,
  type RawRow,
} from './board-sql';
import { BoardFilter, filtersTerminal, ftsQuery } from './board-filter';
import { orderBy } from './board-sort';
import { BoardCustomValues, CUSTOM_VALUE_BATCH } from './board-custom-values';
import { BoardFacetCounts } from './board-facets';

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

/**
 * Containers per page when the cost clock sums a view (see costFactsPage): a range of the
 * containers' own positions: 2-4 ms of SQL and cost clock per turn whatever the filter.
 */
const COST_SPAN = 500;

/** Totals kept for recent filters (a handful of views and filter menus in use at a time). */
const TOTALS_KEPT = 64;

/** A box out of the terminal, as the empty-return (per diem) clock reads it. */
export type PickedUpBox = Pick<
  BoardRow,
  'id' | 'shipmentId' | 'number' | 'status' | 'lineScac' | 'pickedUpAt' | 'podTimezone'
>;

export class BoardQueries {
  private readonly board: BoardDb;
  private readonly filter: BoardFilter;
  private readonly customValues: BoardCustomValues;
  private readonly facets: BoardFacetCounts;
  /** The total row count per filter, with the database state it was counted in. */
  private readonly totals = new Map<string, { state: string; n: number }>();

  constructor(db: Database.Database) {
    this.board = new BoardDb(db);
    this.filter = new BoardFilter(this.board);
    this.customValues = new BoardCustomValues(this.board);
    this.facets = new BoardFacetCounts(this.board, this.filter, this.customValues);
  }

  /** One window of the board and the total row count for the virtual table's scrollbar. */
  containers(q: ContainerQuery, now: number): BoardPage {
    const { clause, params } = this.filter.where(q, now);
    const limit = Math.min(Math.max(Math.trunc(q.limit ?? 100), 1), 1000);
    const offset = Math.max(Math.trunc(q.offset ?? 0), 0);
    const byTerminal = filtersTerminal(q);
    const total = this.total(clause, params, byTerminal);
    const order = orderBy(q);
    // The window's ids are found and sorted first, then only its rows get their columns: the
    // JSON reads and the holds list, computed for every matching row before the sort, cost a
    // line's window at 100k containers 3-4 ms more. The terminal is joined for the sort only
    // when the filter or the order needs it.
    const from = byTerminal || q.sort?.column === 'terminalName' ? FROM : FROM_WITHOUT_TERMINAL;
    const rows = this.board
      .stmt(
        `${SELECT_ROW}
       FROM (SELECT c.id AS window_id ${from} ${clause} ${order.sql} LIMIT ? OFFSET ?) w
       ${WINDOW_ROWS} ${order.sql}`,
      )
      .all(...params, ...order.params, limit, offset, ...order.params) as RawRow[];
    return { total, offset, rows: this.customValues.withCustomFields(rows.map(toBoardRow)) };
  }

  /**
   * The number of rows a filter matches. Counting costs as much as fetching the window, and a
   * sort change or scroll keeps the filter, so the count is reused until the data changes.
   */
  private total(clause: string, params: readonly unknown[], byTerminal: boolean): number {
    const key = `${clause}\u0000${JSON.stringify(params)}`;
    const state = this.board.dataState();
    const kept = this.totals.get(key);
    if (kept && kept.state === state) return kept.n;
    const from = byTerminal ? FROM : FROM_WITHOUT_TERMINAL;
    const { n } = this.board.stmt(`SELECT count(*) AS n ${from} ${clause}`).get(...params) as {
      n: number;
    };
    this.totals.delete(key);
    if (this.totals.size >= TOTALS_KEPT) this.totals.delete(this.totals.keys().next().value!);
    this.totals.set(key, { state, n });
    return n;
  }

  /** Every row of a query, in board order (for export). */
  *allContainers(q: ContainerQuery, now: number): Generator<BoardRow> {
    const { clause, params } = this.filter.where(q, now);
    const order = orderBy(q);
    yield* this.customValues.rowsWithCustomFields(
      this.board
        .stmt(`${SELECT_ROW} ${FROM} ${clause} ${order.sql}`)
        .iterate(...params, ...order.params) as IterableIterator<RawRow>,
    );
  }

  /**
   * The boxes picked up and not yet returned (what the board shows unless completed boxes are
   * shown), with what their empty-return clock needs: the morning watch's reminders.
   */
  pickedUpBoxes(now: number): PickedUpBox[] {
    const { clause, params } = this.filter.where({}, now);
    return this.board
      .stmt(
        `SELECT c.id, c.shipment_id AS shipmentId, c.number, c.current_status AS status,
         s.line_scac AS lineScac, c.picked_up_at AS pickedUpAt,
         ${POD_TIMEZONE}
       ${FROM_WITHOUT_TERMINAL} ${clause ? `${clause} AND` : 'WHERE'} c.picked_up_at IS NOT NULL`,
      )
      .all(...params) as PickedUpBox[];
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
    const { clause, params } = this.filter.where(q, now);
    const select = (from: string, range: string) =>
      this.board.stmt(
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
    return { facts: toFacts(rows), next: upTo < this.board.lastPosition() ? upTo : null };
  }

  /** Every row of a query with its itemised fees, in board order (for the exports). */
  *exportRows(q: ContainerQuery, now: number): Generator<{ row: BoardRow; fees: FeeLike[] }> {
    const { clause, params } = this.filter.where(q, now);
    const order = orderBy(q);
    let batch: { raw: RawRow; fees: FeeLike[] }[] = [];
    const flush = () => {
      const rows = this.customValues.withCustomFields(batch.map((b) => toBoardRow(b.raw)));
      const out = rows.map((row, i) => ({ row, fees: batch[i]!.fees }));
      batch = [];
      return out;
    };
    for (const { feesJson, ...raw } of this.board
      .stmt(
        `${SELECT_ROW}, json_extract(c.json, '$.attributes.fees_at_pod_terminal') AS feesJson
       ${FROM} ${clause} ${order.sql}`,
      )
      .iterate(...params, ...order.params) as IterableIterator<
      RawRow & { feesJson: string | null }
    >) {
      batch.push({ raw, fees: feesJson ? (JSON.parse(feesJson) as FeeLike[]) : [] });
      if (batch.length >= CUSTOM_VALUE_BATCH) yield* flush();
    }
    yield* flush();
  }

  /** The cached truckers by company name. */
  truckers(): TruckerRecord[] {
    return this.facets.truckers();
  }

  /**
   * Every container still at its terminal or on its way there (the worklist's candidates), at
   * most `limit`, earliest deadline first.
   */
  worklistRows(limit = 5000): BoardRow[] {
    return this.customValues.withCustomFields(
      (
        this.board
          .stmt(
            `${SELECT_ROW} ${FROM} WHERE ${STILL_AT_TERMINAL_SQL}
         ORDER BY c.lfd_first_end_at IS NULL, c.lfd_first_end_at, c.number, c.id LIMIT ?`,
          )
          .all(limit) as RawRow[]
      ).map(toBoardRow),
    );
  }

  /** How many containers each built-in view holds now, a range of positions per step. */
  viewCountsInSteps(now: number, span?: number): Generator<void, Record<BoardView, number>> {
    return this.facets.viewCountsInSteps(now, span);
  }

  /** Distinct values with counts, for the filter menus, a range of positions per step. */
  facetsInSteps(span?: number): Generator<void, BoardFacets> {
    return this.facets.facetsInSteps(span);
  }

  /** The custom fields that can be board columns, in name order. */
  customFieldColumns(): CustomFieldColumn[] {
    return this.customValues.customFieldColumns();
  }

  /** A container's events as stored: its whole history, newest first (undated last). */
  eventsOf(containerId: string): CachedEvent[] {
    const row = this.board
      .stmt(
        `SELECT e.json FROM container_events e JOIN containers c ON c.seq = e.container_seq
       WHERE c.id = ?`,
      )
      .get(containerId) as { json: string } | undefined;
    return row ? (JSON.parse(row.json) as CachedEvent[]) : [];
  }

  containerDetail(id: string): ContainerDetail | null {
    const row = this.board
      .stmt(`${SELECT_ROW}, c.json AS containerJson, s.json AS shipmentJson ${FROM} WHERE c.id = ?`)
      .get(id) as (RawRow & { containerJson: string; shipmentJson: string | null }) | undefined;
    if (!row) return null;
    const { containerJson, shipmentJson, ...raw } = row;
    const container = JSON.parse(containerJson) as CachedContainer;
    const a = container.attributes;
    const events = this.eventsOf(id);
    const map = this.board
      .stmt('SELECT fetched_at AS fetchedAt, completed FROM route_maps WHERE container_id = ?')
      .get(id) as { fetchedAt: string; completed: number } | undefined;
    return {
      row: this.customValues.withCustomFields([toBoardRow(raw)])[0]!,
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
      this.board.stmt(`SELECT count(*) AS n FROM shipments s ${clause}`).get(...params) as {
        n: number;
      }
    ).n;
    const rows = this.board
      .stmt(
        `SELECT s.id, s.bill_of_lading AS billOfLading, s.line_scac AS lineScac,
         s.customer_name AS customer, s.pol_locode AS polLocode, s.pod_locode AS podLocode,
         s.vessel_name AS vessel, s.voyage_number AS voyage, s.pod_eta_at AS etaAt,
         s.pod_ata_at AS ataAt,
         (SELECT count(*) FROM containers c WHERE c.shipment_id = s.id) AS containers
       FROM shipments s ${clause}
       ORDER BY s.pod_eta_at IS NULL, s.pod_eta_at, s.bill_of_lading, s.id LIMIT ? OFFSET ?`,
      )
      .all(...params, limit, offset) as ShipmentListRow[];
    return { total, offset, rows };
  }

  shipmentDetail(id: string): ShipmentDetail | null {
    const row = this.board.stmt('SELECT json FROM shipments WHERE id = ?').get(id) as
      { json: string } | undefined;
    if (!row) return null;
    const containers = this.customValues.withCustomFields(
      (
        this.board
          .stmt(`${SELECT_ROW} ${FROM} WHERE c.shipment_id = ? ORDER BY c.number, c.id`)
          .all(id) as RawRow[]
      ).map(toBoardRow),
    );
    return { shipment: JSON.parse(row.json) as CachedShipment, containers };
  }
}
