/** App-wide handlers: app info, settings, the clock the views count with, sync status. */
import type { DomainHandlers, HandlerContext } from './context';

export const appHandlers = (
  ctx: HandlerContext,
): DomainHandlers<
  'getAppInfo' | 'getSettings' | 'updateSettings' | 'getSyncStatus' | 'getClock' | 'syncNow'
> => ({
  getAppInfo: () => ctx.appInfo,
  getSettings: () => ctx.settings(),
  updateSettings: (patch) => ctx.updateSettings(patch),
  getSyncStatus: () => ctx.syncStatus(),
  getClock: () => ctx.appClock(),
  // Always a retry: an embedded service waiting out its restart backoff starts now.
  syncNow: async () => {
    ctx.retryConnection();
    await ctx.sync.sync().catch(() => undefined);
    return ctx.syncStatus();
  },
});
