/** The alerts centre: stored alerts and their read state. */
import { nowIso, type DomainHandlers, type HandlerContext } from './context';

export const alertHandlers = (
  ctx: HandlerContext,
): DomainHandlers<'listAlerts' | 'markAlertsRead'> => ({
  listAlerts: (query) => ctx.cache.listAlerts(query),
  markAlertsRead: ({ ids }) => ({ changed: ctx.cache.markAlertsRead(nowIso(ctx), ids) }),
});
