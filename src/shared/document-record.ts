/**
 * A /v2 document resource as the app reads it: the document with its included last
 * representation (the numbers read from it) and the email it came in. Every member is checked;
 * a record that is not a readable document is null. The desktop's sync and the service's
 * assistant tools both read documents this way. No Node imports: the renderer may bundle it.
 */
import { containerNumberProblem } from './iso6346';
import type { DocumentSummary, ExtractedNumber, ExtractedNumberKind } from './documents';

/** A document as a /v2 list answers it, without what only a local cache knows. */
export type DocumentRecord = Omit<DocumentSummary, 'fileCached'> & { updatedAt: string | null };

const SAFE_ID = /^[A-Za-z0-9-]{1,64}$/;

export type Json = Record<string, unknown>;
export const isObject = (v: unknown): v is Json =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
export const text = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** A record as a list shows it, with whether its file is at hand (`fileCached`). */
export function documentSummary(record: DocumentRecord, fileCached: boolean): DocumentSummary {
  const { updatedAt: _updatedAt, ...summary } = record;
  return { ...summary, fileCached };
}

/** A JSON:API document's `included` by `type:id`, for `documentRecord`. */
export function includedIndex(included: readonly unknown[]): Map<string, Json> {
  const index = new Map<string, Json>();
  for (const item of included) {
    if (isObject(item) && typeof item.type === 'string' && typeof item.id === 'string') {
      index.set(`${item.type}:${item.id}`, item);
    }
  }
  return index;
}
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

/** A date a document states (`{ value: 'yyyy-MM-dd', page, confidence }`), or null. */
function statedDate(v: unknown): string | null {
  const found = located(v);
  return found && /^\d{4}-\d{2}-\d{2}$/.test(found.value) ? found.value : null;
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
  const fields = isObject(payload) && isObject(payload.fields) ? payload.fields : {};
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
    statedDates: { lastFreeDay: statedDate(fields.last_free_day), eta: statedDate(fields.eta) },
    shipmentIds: ids(r.shipments),
    email: emailAttributes
      ? { from: from.join(', '), subject: text(emailAttributes.subject) ?? '' }
      : null,
  };
}
