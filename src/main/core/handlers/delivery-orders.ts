/**
 * Delivery orders: one click makes the container's order for its trucker from the cache, keeps
 * it at the service as a document of the shipment with what it said (every desktop reads both
 * after a sync), has the service email it to the trucker when it has an outgoing mail server
 * (else saves it in the data folder's documents and opens it), and records what it said for the
 * outdated-order alert at once.
 */
import type { OpenDocumentResult } from '../../../shared/bridge';
import {
  deliveryOrder,
  deliveryOrderFileName,
  orderAttribute,
} from '../../../shared/delivery-order';
import { deliveryOrderPdf } from '../../delivery-order/pdf';
import { OFFLINE_EDIT_MESSAGE } from '../custom-field-requests';
import { formatDateTime } from '../../../shared/date-style';
import {
  DocumentRequestError,
  emailDocument,
  fetchDocument,
  outgoingMailConfigured,
  uploadDocument,
} from '../document-requests';
import { nowIso, type DomainHandlers, type HandlerContext } from './context';

/** The service has no outgoing mail server (its operator sets one with --smtp-url). */
const SAVED_FOR_SENDING =
  'No outgoing mail server is set up, so the order was saved for you to send to the trucker.';

export const deliveryOrderHandlers = (
  ctx: HandlerContext,
): DomainHandlers<'makeDeliveryOrder'> => ({
  makeDeliveryOrder: async ({ containerId }) => {
    if (ctx.syncStatus().state === 'offline') return { ok: false, message: OFFLINE_EDIT_MESSAGE };
    const detail = ctx.cache.board.containerDetail(containerId);
    if (!detail) return { ok: false, message: 'This container is not in the cache.' };
    const trucker = ctx.cache.board.truckers().find((t) => t.id === detail.row.truckerId);
    if (!trucker) return { ok: false, message: 'Assign a trucker first.' };
    const terminalId = detail.container.relationships?.pod_terminal?.data?.id;
    const order = deliveryOrder(
      detail,
      trucker,
      typeof terminalId === 'string' ? ctx.cache.terminalFirmsCode(terminalId) : null,
      nowIso(ctx),
    );
    const bytes = await deliveryOrderPdf(order);
    const fileName = deliveryOrderFileName(order);
    let documentId: string;
    let sent: { to: string[]; sentAt: string } | null = null;
    let notSent = '';
    try {
      documentId = await uploadDocument(ctx.connection(), ctx.budgets, {
        fileName,
        contentType: 'application/pdf',
        bytes,
        shipmentIds: detail.row.shipmentId ? [detail.row.shipmentId] : [],
        deliveryOrder: orderAttribute(order, containerId),
      });
      const record = await fetchDocument(ctx.connection(), ctx.budgets, documentId);
      if (record) ctx.documents.upsert(record, order.madeAt);
    } catch (error) {
      if (error instanceof DocumentRequestError) return { ok: false, message: error.message };
      throw error;
    }
    try {
      if (await outgoingMailConfigured(ctx.connection(), ctx.budgets))
        sent = await emailDocument(ctx.connection(), ctx.budgets, documentId);
    } catch (error) {
      // The order is kept either way: one not sent is saved and opened for the user to send.
      if (!(error instanceof DocumentRequestError)) throw error;
      notSent = `It could not be emailed: ${error.message.replace(/\.?$/, '.')} `;
    }
    // The made bytes are the file: kept with the documents so it opens before the next sync.
    ctx.documents.writeFile(documentId, bytes);
    ctx.cache.recordDeliveryOrder({
      containerId,
      documentId,
      truckerId: trucker.id,
      truckerName: trucker.companyName,
      facts: order.facts,
      madeAt: order.madeAt,
    });
    let open: OpenDocumentResult = {
      opened: false,
      url: `/documents/${encodeURIComponent(documentId)}/file`,
    };
    if (sent) {
      const message = `Sent to ${trucker.companyName} (${sent.to.join(', ')}) at ${formatDateTime(sent.sentAt)}.`;
      return { ok: true, documentId, fileName, open, message, sent };
    }
    let message = notSent
      ? `${notSent}It was saved for you to send to the trucker.`
      : SAVED_FOR_SENDING;
    if (ctx.openFile) {
      const failure = await ctx.openFile(ctx.documents.filePath(documentId));
      if (failure) message = `${message} It could not be opened: ${failure}`;
      else open = { opened: true };
    }
    return { ok: true, documentId, fileName, open, message, sent: null };
  },
});
