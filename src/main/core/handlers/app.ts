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
  getClock: () => ({ now: new Date(ctx.clock.now()).toISOString(), speed: ctx.clock.speed }),
  syncNow: async () => {
    await ctx.sync.sync().catch(() => undefined);
    return ctx.syncStatus();
  },
});
