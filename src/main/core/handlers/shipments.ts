/** Shipment lists and detail, read from the cache. */
import type { DomainHandlers, HandlerContext } from './context';

export const shipmentHandlers = (
  ctx: HandlerContext,
): DomainHandlers<'listShipments' | 'getShipmentDetail'> => ({
  listShipments: (query) => ctx.cache.board.shipments(query),
  getShipmentDetail: ({ id }) => ctx.cache.board.shipmentDetail(id),
});
