/**
 * Documents: uploading a file to the service, the cached list and one document's extraction,
 * tracking the numbers it names, and opening its cached file.
 */
import type { OpenDocumentResult, TrackNumberOutcome } from '../../../shared/bridge';
import {
  MAX_DOCUMENT_BYTES,
  sniffDocumentType,
  type DocumentSummary,
  type ExtractedNumber,
} from '../../../shared/documents';
import { BridgeHandlerError } from '../../bridge/dispatcher';
import { DocumentRequestError, fetchDocument, uploadDocument } from '../document-requests';
import { createTrackingRequest } from '../service-requests';
import { nowIso, type DomainHandlers, type HandlerContext } from './context';

const REQUEST_TYPE: Record<
  ExtractedNumber['kind'],
  'container' | 'bill_of_lading' | 'booking_number'
> = {
  container: 'container',
  bill_of_lading: 'bill_of_lading',
  booking_number: 'booking_number',
};

/** Runs a service call; its plain-words failure reaches the user as it is. */
async function plainly<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof DocumentRequestError) throw new BridgeHandlerError(error.message);
    throw error;
  }
}

export const documentHandlers = (
  ctx: HandlerContext,
): DomainHandlers<
  | 'uploadDocument'
  | 'listDocuments'
  | 'getDocument'
  | 'listShipmentDocuments'
  | 'trackDocumentNumbers'
  | 'openDocument'
> => {
  const { documents } = ctx;

  /** Asks the service for the document and keeps the answer in the cache. */
  const refresh = async (id: string): Promise<DocumentSummary | null> => {
    const record = await plainly(() => fetchDocument(ctx.connection(), ctx.budgets, id));
    if (!record) return null;
    documents.upsert(record, nowIso(ctx));
    return documents.get(id);
  };

  return {
    uploadDocument: async ({ fileName, dataBase64 }) => {
      if (ctx.syncStatus().state === 'offline') {
        throw new BridgeHandlerError(
          'The tracking service is offline: uploading needs a connection. Cached documents still open.',
        );
      }
      const bytes = Buffer.from(dataBase64, 'base64');
      if (bytes.byteLength === 0) throw new BridgeHandlerError(`${fileName} is empty.`);
      if (bytes.byteLength > MAX_DOCUMENT_BYTES) {
        throw new BridgeHandlerError(
          `${fileName} is larger than ${MAX_DOCUMENT_BYTES / 1024 / 1024} MB.`,
        );
      }
      const contentType = sniffDocumentType(bytes);
      if (!contentType) {
        throw new BridgeHandlerError(`${fileName} is not a PDF, PNG or JPEG file.`);
      }
      const id = await plainly(() =>
        uploadDocument(ctx.connection(), ctx.budgets, { fileName, contentType, bytes }),
      );
      // The uploaded bytes are the file: keep them so it opens before the next sync.
      documents.writeFile(id, bytes);
      const summary = await refresh(id);
      if (!summary) throw new BridgeHandlerError('The service lost the uploaded document.');
      ctx.events.emit('dataChanged', { at: nowIso(ctx) });
      return summary;
    },

    listDocuments: () => ({ rows: documents.list() }),

    getDocument: async ({ id, refresh: fromService }) =>
      fromService ? await refresh(id) : documents.get(id),

    listShipmentDocuments: ({ shipmentId }) => {
      const detail = ctx.cache.board.shipmentDetail(shipmentId);
      if (!detail) return [];
      const numbers = [
        detail.shipment.attributes.bill_of_lading_number,
        ...detail.containers.map((c) => c.number),
      ].filter((n): n is string => typeof n === 'string' && n.length > 0);
      return documents.forShipment(shipmentId, numbers);
    },

    trackDocumentNumbers: async ({ id, numbers, scac }) => {
      const doc = documents.get(id);
      if (!doc) throw new BridgeHandlerError('This document is not in the local cache.');
      const line = scac?.toUpperCase() ?? doc.carrierScac;
      const results: TrackNumberOutcome[] = [];
      for (const number of [...new Set(numbers)]) {
        const found = doc.numbers.find((n) => n.value === number);
        if (!found) {
          results.push({ number, ok: false, message: 'The document does not name this number.' });
        } else if (found.problem) {
          results.push({ number, ok: false, message: found.problem });
        } else if (!line) {
          results.push({
            number,
            ok: false,
            message: 'The document names no shipping line: choose one to track this number.',
          });
        } else {
          const outcome = await createTrackingRequest(
            ctx.connection(),
            { requestType: REQUEST_TYPE[found.kind], number, scac: line },
            ctx.budgets,
          );
          results.push(
            outcome.ok
              ? { number, ok: true, message: 'Tracking requested.' }
              : { number, ok: false, message: outcome.message },
          );
        }
      }
      // The new requests' shipments appear on the next sync; start one soon.
      if (results.some((r) => r.ok)) void ctx.sync.sync().catch(() => undefined);
      return { results };
    },

    openDocument: async ({ id }): Promise<OpenDocumentResult> => {
      if (!documents.get(id) || !documents.hasFile(id)) {
        throw new BridgeHandlerError(
          'This document has not been downloaded yet; it opens once a sync has fetched it.',
        );
      }
      if (!ctx.openFile) return { opened: false, url: `/documents/${encodeURIComponent(id)}/file` };
      const failure = await ctx.openFile(documents.filePath(id));
      if (failure) throw new BridgeHandlerError(`The document could not be opened: ${failure}`);
      return { opened: true };
    },
  };
};
