/** The container board and a container's detail, read from the cache; its route map. */
import type { RouteMapResult } from '../../../shared/bridge';
import { containersCsv } from '../../cache/csv';
import { containersXlsx } from '../../cache/xlsx';
import { resolveFind } from '../../cache/find-resolver';
import { NO_COST, addCost, containerCost } from '../../../shared/cost-clock';
import { buildWorklist, worklistCounts } from '../../../shared/worklist';
import { BridgeHandlerError } from '../../bridge/dispatcher';
import { inTurns, nextTurn } from '../../turns';
import type { DomainHandlers, HandlerContext } from './context';

export const boardHandlers = (
  ctx: HandlerContext,
  /** The number of the latest view cost sum asked for: only that one is worth finishing. */
  costSums = { latest: 0 },
): DomainHandlers<
  | 'listContainers'
  | 'getBoardFacets'
  | 'getViewCounts'
  | 'getWorklist'
  | 'getViewCost'
  | 'getContainerDetail'
  | 'findRecord'
  | 'exportContainersCsv'
  | 'exportContainersXlsx'
  | 'getRouteMap'
> => ({
  listContainers: (query) => ctx.cache.board.containers(query, ctx.clock.now()),
  getBoardFacets: () => inTurns(ctx.cache.board.facetsInSteps()),
  getViewCounts: () => inTurns(ctx.cache.board.viewCountsInSteps(ctx.clock.now())),
  getWorklist: () => {
    const now = ctx.clock.now();
    const { costs } = ctx.settings();
    // Overdue boxes with the most demurrage run up come first.
    const sections = buildWorklist(
      ctx.cache.board.worklistRows(),
      now,
      (row) => containerCost(row, costs, now).demurrage?.accrued ?? 0,
      { askForTrucker: ctx.cache.board.truckers().length > 0 },
    );
    let cost = NO_COST;
    for (const group of sections)
      for (const place of group.places)
        for (const item of place.items) cost = addCost(cost, containerCost(item.row, costs, now));
    return { sections, counts: worklistCounts(sections), cost };
  },
  getViewCost: async (query) => {
    const now = ctx.clock.now();
    const { costs } = ctx.settings();
    const sum = ++costSums.latest;
    let cost = NO_COST;
    // A page per turn: over a million containers the sum takes seconds, and the board's own
    // rows (asked for at the same moment) must not wait; the first page waits a turn too, so
    // they go first. The board asks again whenever its filter changes and drops earlier
    // answers, so a sum overtaken by a newer one stops instead of sharing the loop with it.
    for (let after: number | null = 0; after !== null;) {
      await nextTurn();
      if (sum !== costSums.latest) {
        throw new BridgeHandlerError(
          'A newer view cost was asked for; this one was dropped.',
          'superseded',
        );
      }
      const page = ctx.cache.board.costFactsPage(query, now, after);
      for (const facts of page.facts) cost = addCost(cost, containerCost(facts, costs, now));
      after = page.next;
    }
    return cost;
  },
  getContainerDetail: ({ id }) => ctx.cache.board.containerDetail(id),
  findRecord: ({ q }) => resolveFind(q, ctx.cache.board, ctx.clock.now()),
  exportContainersCsv: (query) => {
    let csv = '';
    let rows = -1; // the header line
    for (const line of containersCsv(ctx.cache.board, query, ctx.clock.now())) {
      csv += line;
      rows++;
    }
    return { csv, rows };
  },
  exportContainersXlsx: async (query) => {
    const { bytes, rows } = await containersXlsx(ctx.cache.board, query, ctx.clock.now());
    return { base64: bytes.toString('base64'), rows };
  },
  getRouteMap: async ({ containerId }): Promise<RouteMapResult | null> => {
    const map = await ctx.sync.routeMap(containerId);
    return map
      ? {
          geojson: JSON.parse(map.geojson) as RouteMapResult['geojson'],
          fetchedAt: map.fetchedAt,
          completed: map.completed,
        }
      : null;
  },
});
