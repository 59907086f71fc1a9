/** Tracking requests go straight to the service (they are not cached). */
import type { ShippingLineOption } from '../../../shared/bridge';
import shippingLines from '../../../../resources/reference/shipping_lines.json';
import { BridgeHandlerError } from '../../bridge/dispatcher';
import {
  createTrackingRequest,
  findOrCreateParty,
  inferNumber,
  listTrackingRequests,
} from '../service-requests';
import type { DomainHandlers, HandlerContext } from './context';

/** The lines the app knows, by name. */
export const shippingLineOptions = (): ShippingLineOption[] =>
  shippingLines
    .map((line) => ({ scac: line.scac, name: line.name, shortName: line.short_name }))
    .sort((a, b) => a.name.localeCompare(b.name));

export const trackingRequestHandlers = (
  ctx: HandlerContext,
): DomainHandlers<
  'listShippingLines' | 'createTrackingRequest' | 'listTrackingRequests' | 'inferNumbers'
> => {
  /** Customer names to party ids, so an import of many rows looks each customer up once. */
  const partyIds = new Map<string, string>();
  return {
    listShippingLines: (): ShippingLineOption[] => shippingLineOptions(),
    createTrackingRequest: async (draft) => {
      const connection = ctx.connection();
      let customerPartyId: string | undefined;
      if (draft.customer && connection) {
        const key = `${connection.baseUrl}|${draft.customer.trim().toLowerCase()}`;
        customerPartyId = partyIds.get(key);
        if (!customerPartyId) {
          const party = await findOrCreateParty(connection, draft.customer, ctx.budgets);
          if (party.id === null) {
            return {
              ok: false,
              message: `The customer ${draft.customer} could not be set: ${party.message}`,
              field: null,
            };
          }
          customerPartyId = party.id;
          partyIds.set(key, customerPartyId);
        }
      }
      const outcome = await createTrackingRequest(connection, draft, ctx.budgets, customerPartyId);
      // A party removed or another account behind the same address: look it up again next time.
      if (!outcome.ok && customerPartyId) partyIds.clear();
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
  };
};
