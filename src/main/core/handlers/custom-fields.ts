/** Custom fields and container refreshes: straight to the service (edits are never queued). */
import {
  OFFLINE_EDIT_MESSAGE,
  listCustomFields,
  listTrackingRequestFields,
  refreshContainer,
  setCustomField,
} from '../custom-field-requests';
import type { DomainHandlers, HandlerContext } from './context';

export const customFieldHandlers = (
  ctx: HandlerContext,
): DomainHandlers<
  'listCustomFields' | 'listTrackingRequestFields' | 'setCustomField' | 'refreshContainer'
> => ({
  listCustomFields: (target) => listCustomFields(ctx.connection(), target, ctx.budgets),
  listTrackingRequestFields: () => listTrackingRequestFields(ctx.connection(), ctx.budgets),
  setCustomField: async (target) => {
    // Known to be offline: refuse at once rather than wait for a timeout.
    if (ctx.syncStatus().state === 'offline') return { ok: false, message: OFFLINE_EDIT_MESSAGE };
    const outcome = await setCustomField(ctx.connection(), target, ctx.budgets);
    // The change moved the record's updated_at: the next sync brings it into the cache.
    if (outcome.ok) void ctx.sync.sync().catch(() => undefined);
    return outcome;
  },
  refreshContainer: ({ id }) => refreshContainer(ctx.connection(), id, ctx.budgets),
});
