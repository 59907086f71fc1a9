/** Custom fields and container refreshes: straight to the service (edits are never queued). */
import {
  OFFLINE_EDIT_MESSAGE,
  cachedCustomFields,
  listCustomFields,
  listTrackingRequestFields,
  refreshContainer,
  setCustomField,
} from '../custom-field-requests';
import type { CustomFieldsResult } from '../../../shared/bridge';
import type { DomainHandlers, HandlerContext } from './context';

export const customFieldHandlers = (
  ctx: HandlerContext,
): DomainHandlers<
  'listCustomFields' | 'listTrackingRequestFields' | 'setCustomField' | 'refreshContainer'
> => {
  /** The service's answer; the cache's fields when the service is known to be or proves unreachable. */
  const serviceOrCache = async (
    read: () => ReturnType<typeof listCustomFields>,
    entityType: Parameters<typeof cachedCustomFields>[2],
    /** The record's cached values, read only when the cache answers. */
    values: () => Record<string, unknown>,
  ): Promise<CustomFieldsResult> => {
    const cached = () => ({
      ok: true as const,
      fields: cachedCustomFields(ctx.cache.customFieldDefinitions(), values(), entityType),
    });
    if (ctx.syncStatus().state === 'offline') return cached();
    const outcome = await read();
    return !outcome.ok && 'unreachable' in outcome ? cached() : outcome;
  };
  return {
    // Read from the service (its values are the truth); while it cannot be reached, from the
    // cache as the last sync left it, read-only (the panel says it is offline).
    listCustomFields: (target) =>
      serviceOrCache(
        () => listCustomFields(ctx.connection(), target, ctx.budgets),
        target.entityType,
        () =>
          target.entityType === 'tracking_request'
            ? {}
            : ctx.cache.customFieldValuesOf(target.entityType, target.id),
      ),
    listTrackingRequestFields: () =>
      serviceOrCache(
        () => listTrackingRequestFields(ctx.connection(), ctx.budgets),
        'tracking_request',
        () => ({}),
      ),
    setCustomField: async (target) => {
      // Known to be offline: refuse at once rather than wait for a timeout.
      if (ctx.syncStatus().state === 'offline') return { ok: false, message: OFFLINE_EDIT_MESSAGE };
      const outcome = await setCustomField(ctx.connection(), target, ctx.budgets);
      // The change moved the record's updated_at: the next sync brings it into the cache.
      if (outcome.ok) void ctx.sync.sync().catch(() => undefined);
      return outcome;
    },
    refreshContainer: ({ id }) => refreshContainer(ctx.connection(), id, ctx.budgets),
  };
};
