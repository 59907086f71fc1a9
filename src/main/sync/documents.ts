/**
 * The documents step of a sync run: lists the account's documents (with their extraction and the
 * email they came in), stores what changed in the documents cache, and downloads each file once
 * so it opens offline. Every record is checked before it is stored; a malformed one is skipped,
 * a file over the size limit or of another type is not kept.
 */
import { MAX_DOCUMENT_BYTES, sniffDocumentType } from '../../shared/documents';
import { documentRecord, includedIndex, isObject, text } from '../../shared/document-record';
import { recordedOrder, type RecordedDeliveryOrder } from '../../shared/delivery-order';
import type { DocumentCache } from '../cache/document-cache';
import type { RequestBudget } from '../connection/request-budget';
import { V2Error, type V2Client } from './client';

/** Far more than one account uploads between two runs; bounds a run against a runaway list. */
const MAX_DOCUMENTS = 5_000;
const DOWNLOAD_TIMEOUT_MS = 60_000;

export interface DocumentSyncOutcome {
  documents: number;
  downloaded: number;
  /** What each listed delivery order stated (its document's `delivery_order` attribute). */
  deliveryOrders: RecordedDeliveryOrder[];
  skipped: { id: string | null; reason: string }[];
}

/**
 * Reads the whole document list (documents are few next to containers), stores the changed ones
 * and fetches missing files. Download failures leave the document listed without its file; the
 * next run tries again.
 */
export async function syncDocuments(
  client: V2Client,
  cache: DocumentCache,
  now: string,
  budget: RequestBudget | null,
): Promise<DocumentSyncOutcome> {
  const outcome: DocumentSyncOutcome = {
    documents: 0,
    downloaded: 0,
    deliveryOrders: [],
    skipped: [],
  };
  const known = cache.versions();
  const seen = new Set<string>();
  const path = 'documents?include=last_document_representation,email_submission&page[size]=100';
  let complete = true;
  walk: for await (const page of client.pages(path)) {
    const included = includedIndex(page.included);
    for (const resource of page.data) {
      const record = documentRecord(resource, included);
      if (!record) {
        outcome.skipped.push({
          id: isObject(resource) ? text(resource.id) : null,
          reason: 'not a readable document',
        });
        continue;
      }
      if (seen.size >= MAX_DOCUMENTS) {
        complete = false;
        outcome.skipped.push({ id: null, reason: `more than ${MAX_DOCUMENTS} documents` });
        break walk;
      }
      seen.add(record.id);
      const attributes =
        isObject(resource) && isObject(resource.attributes) ? resource.attributes : {};
      const order = recordedOrder(record.id, attributes.delivery_order);
      if (order) outcome.deliveryOrders.push(order);
      if (!known.has(record.id) || known.get(record.id) !== record.updatedAt) {
        cache.upsert(record, now);
      }
      // A file the service says is over the limit is never fetched (nor retried every run).
      if (!cache.hasFile(record.id) && record.sizeBytes <= MAX_DOCUMENT_BYTES) {
        const downloaded = await downloadFile(client, record.id, budget).catch((error: unknown) => {
          outcome.skipped.push({ id: record.id, reason: (error as Error).message });
          return null;
        });
        if (downloaded) {
          cache.writeFile(record.id, downloaded);
          outcome.downloaded++;
        }
      }
    }
  }
  // A cut-short list says nothing about the documents it did not reach.
  if (complete) cache.deleteMissing(seen);
  outcome.documents = seen.size;
  return outcome;
}

/** Fetches a document's file through its signed link, bounded in size and checked by content. */
async function downloadFile(
  client: V2Client,
  id: string,
  budget: RequestBudget | null,
): Promise<Uint8Array> {
  const { body } = await client.get(`documents/${encodeURIComponent(id)}/download_url`);
  const link = isObject(body) ? text(body.download_url) : null;
  if (!link) throw new V2Error('bad_response', 'The service sent no download link.');
  // resolve() refuses a link to another host than the configured service.
  const url = client.resolve(link);
  if (budget) await budget.take();
  const response = await fetch(url, {
    signal: AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS),
    redirect: 'manual',
  });
  if (response.status !== 200 || !response.body) {
    throw new V2Error('http', `The file download failed (HTTP ${response.status}).`);
  }
  const declared = Number(response.headers.get('content-length') ?? 0);
  if (declared > MAX_DOCUMENT_BYTES) throw new V2Error('bad_response', 'The file is too large.');
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body) {
    size += (chunk as Uint8Array).byteLength;
    if (size > MAX_DOCUMENT_BYTES) throw new V2Error('bad_response', 'The file is too large.');
    chunks.push(chunk as Uint8Array);
  }
  const bytes = Buffer.concat(chunks);
  if (!sniffDocumentType(bytes)) {
    throw new V2Error('bad_response', 'The file is not a PDF, PNG or JPEG.');
  }
  return bytes;
}
