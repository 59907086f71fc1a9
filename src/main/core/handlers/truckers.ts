/** Truckers: the list from the cache (offline too), adding and assigning at the service. */
import { OFFLINE_EDIT_MESSAGE } from '../custom-field-requests';
import { assignTrucker, createTrucker } from '../trucker-requests';
import type { DomainHandlers, HandlerContext } from './context';

export const truckerHandlers = (
  ctx: HandlerContext,
): DomainHandlers<'listTruckers' | 'createTrucker' | 'assignTrucker'> => ({
  listTruckers: () => ctx.cache.board.truckers(),
  createTrucker: async (input) => {
    if (ctx.syncStatus().state === 'offline') return { ok: false, message: OFFLINE_EDIT_MESSAGE };
    const outcome = await createTrucker(ctx.connection(), input, ctx.budgets);
    // The next run brings the new trucker into the cache's list; wait for it so menus have it.
    if (outcome.ok) await ctx.sync.sync().catch(() => undefined);
    return outcome;
  },
  assignTrucker: async (target) => {
    if (ctx.syncStatus().state === 'offline') return { ok: false, message: OFFLINE_EDIT_MESSAGE };
    if (!target.containerIds === !target.shipmentId) {
      return { ok: false, message: 'Choose containers or a shipment.' };
    }
    const outcome = await assignTrucker(ctx.connection(), target, ctx.budgets);
    // The change moved the boxes' updated_at: the next run brings it into the cache.
    if (outcome.ok) await ctx.sync.sync().catch(() => undefined);
    return outcome;
  },
});
