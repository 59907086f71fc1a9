/** Custom fields and container refreshes: straight to the service (edits are never queued). */
import {
  OFFLINE_EDIT_MESSAGE,
  cachedCustomFields,
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
  // Read from the service (its values are the truth); while it cannot be reached, from the
  // cache as the last sync left it, read-only (the panel says it is offline).
  listCustomFields: async (target) => {
    const cached = () => ({
      ok: true as const,
      fields: cachedCustomFields(
        ctx.cache.customFieldDefinitions(),
        target.entityType === 'tracking_request'
          ? {}
          : ctx.cache.customFieldValuesOf(target.entityType, target.id),
        target.entityType,
      ),
    });
    if (ctx.syncStatus().state === 'offline') return cached();
    const outcome = await listCustomFields(ctx.connection(), target, ctx.budgets);
    return !outcome.ok && 'unreachable' in outcome ? cached() : outcome;
  },
  listTrackingRequestFields: async () => {
    const cached = () => ({
      ok: true as const,
      fields: cachedCustomFields(ctx.cache.customFieldDefinitions(), {}, 'tracking_request'),
    });
    if (ctx.syncStatus().state === 'offline') return cached();
    const outcome = await listTrackingRequestFields(ctx.connection(), ctx.budgets);
    return !outcome.ok && 'unreachable' in outcome ? cached() : outcome;
  },
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
