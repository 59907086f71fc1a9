/** Tracking requests go straight to the service (they are not cached). */
import type { ShippingLineOption } from '../../../shared/bridge';
import shippingLines from '../../../../resources/reference/shipping_lines.json';
import { BridgeHandlerError } from '../../bridge/dispatcher';
import { createTrackingRequest, inferNumber, listTrackingRequests } from '../service-requests';
import type { DomainHandlers, HandlerContext } from './context';

export const trackingRequestHandlers = (
  ctx: HandlerContext,
): DomainHandlers<
  'listShippingLines' | 'createTrackingRequest' | 'listTrackingRequests' | 'inferNumbers'
> => ({
  listShippingLines: (): ShippingLineOption[] =>
    shippingLines
      .map((line) => ({ scac: line.scac, name: line.name, shortName: line.short_name }))
      .sort((a, b) => a.name.localeCompare(b.name)),
  createTrackingRequest: async (draft) => {
    const outcome = await createTrackingRequest(ctx.connection(), draft, ctx.budgets);
    // The new request's shipment appears on the next sync; start one soon.
    if (outcome.ok) void ctx.sync.sync().catch(() => undefined);
    return outcome;
  },
  inferNumbers: async ({ numbers }) => {
    const out = [];
    // One at a time: the service's request budget paces them.
    for (const number of numbers)
      out.push(await inferNumber(ctx.connection(), number, ctx.budgets));
    return out;
  },
  listTrackingRequests: async ({ offset, limit }) => {
    try {
      return await listTrackingRequests(ctx.connection(), offset ?? 0, limit ?? 100, ctx.budgets);
    } catch (error) {
      throw new BridgeHandlerError((error as Error).message);
    }
  },
});
