/** A container's D&D statement from the cache, and the invoice the user entered for it. */
import { DateTime } from 'luxon';
import { chargesStatement, type ContainerCharges } from '../../../shared/charges/statement';
import { BridgeHandlerError } from '../../bridge/dispatcher';
import { HISTORY_ALERT_KINDS, chargesInput } from '../../cache/charges-input';
import { nowIso, type DomainHandlers, type HandlerContext } from './context';

function containerCharges(ctx: HandlerContext, id: string): ContainerCharges | null {
  const detail = ctx.cache.board.containerDetail(id);
  if (!detail) return null;
  const alerts = ctx.cache.listAlerts({
    containerId: id,
    kinds: [...HISTORY_ALERT_KINDS],
    limit: 1000,
  }).alerts;
  const stored = ctx.cache.receivedInvoice(id);
  const invoice = stored && { amount: stored.amount, currency: stored.currency, date: stored.date };
  const now = ctx.clock.now();
  return {
    statement: chargesStatement(chargesInput(detail, alerts, invoice, ctx.settings().costs, now)),
    invoice,
  };
}

export const chargesHandlers = (
  ctx: HandlerContext,
): DomainHandlers<'getContainerCharges' | 'setReceivedInvoice'> => ({
  getContainerCharges: ({ id }) => containerCharges(ctx, id),
  setReceivedInvoice: ({ containerId, invoice }) => {
    if (!ctx.cache.board.containerDetail(containerId)) {
      throw new BridgeHandlerError('That container is not in the cache.');
    }
    if (invoice && !DateTime.fromISO(invoice.date).isValid) {
      throw new BridgeHandlerError(`${invoice.date} is not a date.`);
    }
    ctx.cache.setReceivedInvoice(containerId, invoice, nowIso(ctx));
    return containerCharges(ctx, containerId);
  },
});
