/**
 * The board's sidebar and filter menus: how many containers each built-in view holds, and the
 * distinct values (with counts) of each filter, both counted a range of positions per step so a
 * million containers never hold the main thread; the menus are kept until the data changes.
 */
import {
  BOARD_VIEWS,
  type BoardFacets,
  type BoardView,
  type TruckerRecord,
} from '../../shared/desktop';
import { FROM_BY_POSITION, type BoardDb } from './board-sql';
import type { BoardFilter } from './board-filter';
import type { BoardCustomValues } from './board-custom-values';

/** Containers per step when the view counts and filter menus are counted (see inTurns). */
const STEP_SPAN = 1000;

export class BoardFacetCounts {
  /** The filter menus' values, with the database state they were counted in. */
  private keptFacets: { state: string; facets: BoardFacets } | null = null;

  constructor(
    private readonly board: BoardDb,
    private readonly filter: BoardFilter,
    private readonly customValues: BoardCustomValues,
  ) {}

  /** The cached truckers by company name. */
  truckers(): TruckerRecord[] {
    return (
      this.board
        .stmt(
          `SELECT id, company_name AS companyName, scac, contacts FROM truckers
         ORDER BY company_name COLLATE NOCASE, id`,
        )
        .all() as (Omit<TruckerRecord, 'contacts'> & { contacts: string })[]
    ).map((r) => ({ ...r, contacts: JSON.parse(r.contacts) as TruckerRecord['contacts'] }));
  }

  /**
   * How many containers each built-in view holds now (for the sidebar badges), counted a range
   * of positions per step (see inTurns): the board asks at load and after every sync, and the
   * whole count at a million containers would hold the main thread for seconds.
   */
  *viewCountsInSteps(now: number, span = STEP_SPAN): Generator<void, Record<BoardView, number>> {
    const conditions = BOARD_VIEWS.map((view) => this.filter.condition({ view }, now));
    const counts = this.board.stmt(
      `SELECT ${conditions.map(({ sql }, i) => `coalesce(sum(${sql}), 0) AS v${i}`).join(', ')}
       ${FROM_BY_POSITION} WHERE c.seq > ? AND c.seq <= ?`,
    );
    const params = conditions.flatMap(({ params }) => params);
    const totals = BOARD_VIEWS.map(() => 0);
    yield* this.board.positionRanges(span, (after, upTo) => {
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
    const state = this.board.dataState();
    if (this.keptFacets?.state === state) return this.keptFacets.facets;
    const facets = {
      status: new Map(),
      line: new Map(),
      pod: new Map(),
      terminal: new Map(),
      customer: new Map(),
    } as Record<'status' | 'line' | 'pod' | 'terminal' | 'customer', Map<string, number>>;
    const groups = this.board.stmt(
      `SELECT c.current_status AS status, s.line_scac AS line, s.pod_locode AS pod,
         t.name AS terminal, s.customer_name AS customer, count(*) AS n
       ${FROM_BY_POSITION} WHERE c.seq > ? AND c.seq <= ?
       GROUP BY c.current_status, s.line_scac, s.pod_locode, t.name, s.customer_name`,
    );
    type Group = Record<keyof typeof facets, string | null> & { n: number };
    yield* this.board.positionRanges(span, (after, upTo) => {
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
      customFields: this.customValues.customFieldColumns(),
      truckers: this.truckers(),
    };
    // Counted as of `state`: a write during the scan leaves the next call to count again.
    this.keptFacets = { state, facets: counted };
    return counted;
  }
}
