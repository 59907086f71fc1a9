/** The local cache itself: its size and counts, and emptying it. */
import { nowIso, type DomainHandlers, type HandlerContext } from './context';

export const cacheHandlers = (
  ctx: HandlerContext,
): DomainHandlers<'getCacheInfo' | 'clearCache'> => ({
  getCacheInfo: () => ctx.cacheInfo(),
  clearCache: () => {
    ctx.cache.clear();
    ctx.documents.clear();
    ctx.events.emit('dataChanged', { at: nowIso(ctx) });
    return ctx.cacheInfo();
  },
});
