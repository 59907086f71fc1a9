/** A container's D&D statement from the cache, and the invoice the user entered for it. */
import { DateTime } from 'luxon';
import {
  chargesStatement,
  PASS_THROUGH_LIMITS,
  passThroughStatement,
  type ContainerCharges,
} from '../../../shared/charges/statement';
import { BridgeHandlerError } from '../../bridge/dispatcher';
import { HISTORY_ALERT_KINDS, chargesInput } from '../../cache/charges-input';
import { nextTurn } from '../../turns';
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
): DomainHandlers<'getContainerCharges' | 'setReceivedInvoice' | 'getCustomerCharges'> => ({
  getContainerCharges: ({ id }) => containerCharges(ctx, id),
  getCustomerCharges: async ({ customer, from, to }) => {
    const start = DateTime.fromISO(from, { zone: 'UTC' });
    const end = DateTime.fromISO(to, { zone: 'UTC' });
    if (!start.isValid || !end.isValid || end < start) {
      throw new BridgeHandlerError('Give a range of real dates, the first not after the last.');
    }
    if (end.diff(start, 'days').days >= PASS_THROUGH_LIMITS.days) {
      throw new BridgeHandlerError(`The range may span at most ${PASS_THROUGH_LIMITS.days} days.`);
    }
    const items = [];
    for (const id of ctx.cache.customerContainerIds(customer, PASS_THROUGH_LIMITS.containers)) {
      // A turn between boxes: a big customer's statement never holds the app's other requests.
      await nextTurn();
      const charges = containerCharges(ctx, id);
      if (charges) items.push({ containerId: id, statement: charges.statement });
    }
    return passThroughStatement(customer, from, to, items);
  },
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
