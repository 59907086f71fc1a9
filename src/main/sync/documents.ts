/**
 * The documents step of a sync run: lists the account's documents (with their extraction and the
 * email they came in), stores what changed in the documents cache, and downloads each file once
 * so it opens offline. Every record is checked before it is stored; a malformed one is skipped,
 * a file over the size limit or of another type is not kept.
 */
import { containerNumberProblem } from '../../shared/iso6346';
import {
  MAX_DOCUMENT_BYTES,
  sniffDocumentType,
  type ExtractedNumber,
  type ExtractedNumberKind,
} from '../../shared/documents';
import type { DocumentCache, DocumentRecord } from '../cache/document-cache';
import type { RequestBudget } from './request-budget';
import { V2Error, type V2Client } from './client';

/** Far more than one account uploads between two runs; bounds a run against a runaway list. */
const MAX_DOCUMENTS = 5_000;
const DOWNLOAD_TIMEOUT_MS = 60_000;

const SAFE_ID = /^[A-Za-z0-9-]{1,64}$/;

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const ids = (relationship: unknown): string[] => {
  const data = isObject(relationship) ? relationship.data : null;
  return Array.isArray(data)
    ? data.flatMap((d) =>
        isObject(d) && typeof d.id === 'string' && SAFE_ID.test(d.id) ? [d.id] : [],
      )
    : [];
};
const oneId = (relationship: unknown): string | null => {
  const data = isObject(relationship) ? relationship.data : null;
  return isObject(data) && typeof data.id === 'string' ? data.id : null;
};

function located(v: unknown): { value: string; page: number; confidence: number } | null {
  if (!isObject(v) || typeof v.value !== 'string' || v.value.length > 64) return null;
  const page = typeof v.page === 'number' && Number.isInteger(v.page) && v.page >= 1 ? v.page : 1;
  const confidence =
    typeof v.confidence === 'number' && v.confidence >= 0 && v.confidence <= 1 ? v.confidence : 0;
  return { value: v.value, page, confidence };
}

/** The numbers a representation's payload names, wrong check digits kept and marked. */
export function extractedNumbers(payload: unknown): {
  numbers: ExtractedNumber[];
  carrierScac: string | null;
} {
  if (!isObject(payload)) return { numbers: [], carrierScac: null };
  const fields = isObject(payload.fields) ? payload.fields : {};
  const numbers: ExtractedNumber[] = [];
  const add = (kind: ExtractedNumberKind, v: unknown) => {
    const found = located(v);
    if (found) numbers.push({ kind, ...found, problem: null });
  };
  add('bill_of_lading', fields.bill_of_lading_number);
  add('booking_number', fields.booking_number);
  for (const c of Array.isArray(fields.container_numbers) ? fields.container_numbers : []) {
    const found = located(c);
    if (found)
      numbers.push({ kind: 'container', ...found, problem: containerNumberProblem(found.value) });
  }
  for (const r of Array.isArray(payload.rejected) ? payload.rejected : []) {
    const found = located({ ...(isObject(r) ? r : {}), confidence: 0 });
    if (!found || !isObject(r)) continue;
    numbers.push({
      kind: 'container',
      ...found,
      problem:
        containerNumberProblem(found.value) ?? text(r.reason) ?? 'The service could not use it.',
    });
  }
  const scac = located(fields.carrier_scac)?.value ?? null;
  return { numbers, carrierScac: scac && /^[A-Z]{4}$/.test(scac) ? scac : null };
}

/** One /v2 document resource (with its included representation and email) as cached. */
export function documentRecord(
  resource: unknown,
  included: Map<string, Json>,
): DocumentRecord | null {
  if (!isObject(resource) || resource.type !== 'document' || typeof resource.id !== 'string') {
    return null;
  }
  if (!SAFE_ID.test(resource.id)) return null;
  const a = isObject(resource.attributes) ? resource.attributes : null;
  const r = isObject(resource.relationships) ? resource.relationships : {};
  const createdAt = text(a?.created_at);
  if (!a || !createdAt || Number.isNaN(Date.parse(createdAt))) return null;
  const representationId = oneId(r.last_document_representation);
  const representation = representationId
    ? included.get(`document_representation:${representationId}`)
    : undefined;
  const payload = isObject(representation?.attributes) ? representation.attributes.payload : null;
  const { numbers, carrierScac } = extractedNumbers(payload);
  const emailId = oneId(r.email_submission);
  const email = emailId ? included.get(`email_submission:${emailId}`) : undefined;
  const emailAttributes = isObject(email?.attributes) ? email.attributes : null;
  const from = Array.isArray(emailAttributes?.from)
    ? emailAttributes.from.filter((f) => typeof f === 'string')
    : [];
  return {
    id: resource.id,
    name: text(a.name) ?? text(a.file_name) ?? 'Document',
    fileName: text(a.file_name) ?? 'document',
    contentType: text(a.file_content_type) ?? 'application/octet-stream',
    sizeBytes: typeof a.file_size_bytes === 'number' ? a.file_size_bytes : 0,
    documentType: text(a.document_type_manual) ?? text(a.document_type),
    extractionStatus: text(a.extraction_status) ?? 'pending',
    extractionError: text(a.extraction_error),
    source: text(a.source) ?? 'upload',
    createdAt,
    updatedAt: text(a.updated_at),
    carrierScac,
    numbers,
    shipmentIds: ids(r.shipments),
    email: emailAttributes
      ? { from: from.join(', '), subject: text(emailAttributes.subject) ?? '' }
      : null,
  };
}

export interface DocumentSyncOutcome {
  documents: number;
  downloaded: number;
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
  const outcome: DocumentSyncOutcome = { documents: 0, downloaded: 0, skipped: [] };
  const known = cache.versions();
  const seen = new Set<string>();
  const path = 'documents?include=last_document_representation,email_submission&page[size]=100';
  let complete = true;
  walk: for await (const page of client.pages(path)) {
    const included = new Map<string, Json>();
    for (const item of page.included) {
      if (isObject(item) && typeof item.type === 'string' && typeof item.id === 'string') {
        included.set(`${item.type}:${item.id}`, item);
      }
    }
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
