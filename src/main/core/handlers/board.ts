/** The container board and a container's detail, read from the cache; its route map. */
import type { RouteMapResult } from '../../../shared/bridge';
import { containersCsv } from '../../cache/csv';
import { containersXlsx } from '../../cache/xlsx';
import { buildWorklist, worklistCounts } from '../../../shared/worklist';
import type { DomainHandlers, HandlerContext } from './context';

export const boardHandlers = (
  ctx: HandlerContext,
): DomainHandlers<
  | 'listContainers'
  | 'getBoardFacets'
  | 'getViewCounts'
  | 'getWorklist'
  | 'getContainerDetail'
  | 'exportContainersCsv'
  | 'exportContainersXlsx'
  | 'getRouteMap'
> => ({
  listContainers: (query) => ctx.cache.board.containers(query, ctx.clock.now()),
  getBoardFacets: () => ctx.cache.board.facets(),
  getViewCounts: () => ctx.cache.board.viewCounts(ctx.clock.now()),
  getWorklist: () => {
    const now = ctx.clock.now();
    const places = buildWorklist(ctx.cache.board.worklistRows(), now);
    return { places, counts: worklistCounts(places) };
  },
  getContainerDetail: ({ id }) => ctx.cache.board.containerDetail(id),
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
