/**
 * Delivery orders: one click makes the container's order for its trucker from the cache, keeps
 * it at the service as a document of the shipment with what it said (every desktop reads both
 * after a sync), saves it in the data folder's documents, opens it, and records what it said for
 * the outdated-order alert at once.
 */
import type { OpenDocumentResult } from '../../../shared/bridge';
import {
  deliveryOrder,
  deliveryOrderFileName,
  orderAttribute,
} from '../../../shared/delivery-order';
import { deliveryOrderPdf } from '../../delivery-order/pdf';
import { OFFLINE_EDIT_MESSAGE } from '../custom-field-requests';
import { DocumentRequestError, fetchDocument, uploadDocument } from '../document-requests';
import { nowIso, type DomainHandlers, type HandlerContext } from './context';

/** The service keeps an inbound mail inbox only: nothing is sent from it. */
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
    let message = SAVED_FOR_SENDING;
    if (ctx.openFile) {
      const failure = await ctx.openFile(ctx.documents.filePath(documentId));
      if (failure) message = `${message} It could not be opened: ${failure}`;
      else open = { opened: true };
    }
    return { ok: true, documentId, fileName, open, message };
  },
});
