/** Every bridge handler, grouped per domain; the type checks that none is missing. */
import type { BridgeHandlers } from '../../bridge/dispatcher';
import { alertHandlers } from './alerts';
import { appHandlers } from './app';
import { boardHandlers } from './board';
import { cacheHandlers } from './cache';
import { chargesHandlers } from './charges';
import { connectionHandlers } from './connection';
import type { HandlerContext } from './context';
import { customFieldHandlers } from './custom-fields';
import { deliveryOrderHandlers } from './delivery-orders';
import { documentHandlers } from './documents';
import { shipmentHandlers } from './shipments';
import { spreadsheetHandlers } from './spreadsheets';
import { trackingRequestHandlers } from './tracking-requests';
import { truckerHandlers } from './truckers';

export type { HandlerContext } from './context';

export const bridgeHandlers = (ctx: HandlerContext): BridgeHandlers => ({
  ...appHandlers(ctx),
  ...boardHandlers(ctx),
  ...chargesHandlers(ctx),
  ...shipmentHandlers(ctx),
  ...trackingRequestHandlers(ctx),
  ...alertHandlers(ctx),
  ...connectionHandlers(ctx),
  ...cacheHandlers(ctx),
  ...documentHandlers(ctx),
  ...deliveryOrderHandlers(ctx),
  ...customFieldHandlers(ctx),
  ...spreadsheetHandlers(ctx),
  ...truckerHandlers(ctx),
});
