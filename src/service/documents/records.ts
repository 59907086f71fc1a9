/**
 * The account's documents as use cases, callable without HTTP: listing (filters, sort), reading,
 * manual edits, deleting (the stored file goes with the last document holding it), signed
 * download links, the re-extract / re-link / rotate actions and the document settings.
 */
import type { Clock } from '../../shared/clock';
import { ApiError, notFound } from '../jsonapi/errors';
import { isUuid } from '../jsonapi/ids';
import type { Page } from '../jsonapi/pagination';
import type { DocumentRow, TrackingMode } from '../store/documents';
import type { Documents } from './index';
import { isDocumentType } from './types';

/** How long a download link stays valid. */
export const DOWNLOAD_LINK_SECONDS = 15 * 60;

const SORTS = ['document_type', 'added_by', 'created_at'] as const;

function parseSort(raw: string | undefined) {
  const text = raw?.trim() || '-created_at';
  const descending = text.startsWith('-');
  const field = text.replace(/^-/, '');
  if (!(SORTS as readonly string[]).includes(field)) {
    throw new ApiError(400, `sort must be one of ${SORTS.join(', ')} (prefix - for descending)`, {
      source: { parameter: 'sort' },
    });
  }
  return { field: field as (typeof SORTS)[number], descending };
}

/** Comma-separated document types; an unknown one is a 400 naming the parameter. */
function parseDocumentTypes(raw: string | undefined): string[] | undefined {
  const types = raw
    ?.split(',')
    .map((t) => t.trim())
    .filter(Boolean);
  const unknownType = types?.find((t) => !isDocumentType(t));
  if (unknownType) {
    throw new ApiError(400, `Unknown document type ${unknownType}`, {
      source: { parameter: 'filter[document_types]' },
    });
  }
  return types;
}

/** One page of the account's documents, filtered and sorted as the list parameters say. */
export function listDocuments(
  documents: Documents,
  accountId: string,
  query: { fileName?: string; reference?: string; documentTypes?: string; sort?: string },
  page: Page,
) {
  const documentTypes = parseDocumentTypes(query.documentTypes);
  return documents.store.list(accountId, {
    fileName: query.fileName,
    reference: query.reference,
    documentTypes,
    sort: parseSort(query.sort),
    limit: page.size,
    offset: page.offset,
  });
}

/** The account's document with this id; any other is a 404. */
export async function documentOf(
  documents: Documents,
  accountId: string,
  id: string,
): Promise<DocumentRow> {
  const row = isUuid(id) ? await documents.store.get(accountId, id) : undefined;
  if (!row) throw notFound("Couldn't find Document");
  return row;
}

/** Sets or clears the manual type and extracted values. */
export async function editDocument(
  documents: Documents,
  accountId: string,
  id: string,
  edits: { document_type_manual?: string | null; extracted_data_manual?: unknown },
): Promise<DocumentRow> {
  const row = await documentOf(documents, accountId, id);
  await documents.store.updateManual(row.account_id, row.id, {
    documentTypeManual: edits.document_type_manual,
    extractedManual: edits.extracted_data_manual,
  });
  return (await documents.store.get(row.account_id, row.id))!;
}

/** Deletes a document; files are stored once per content, so the bytes go with the last holder. */
export async function deleteDocument(documents: Documents, accountId: string, id: string) {
  const row = await documentOf(documents, accountId, id);
  await documents.store.discard(row.account_id, row.id);
  if (!(await documents.store.fileInUse(row.sha256))) documents.files.remove(row.sha256);
}

/**
 * A signed download path and query for the account's document, valid for
 * DOWNLOAD_LINK_SECONDS of real time (the link is handed to a person, whatever pace the
 * service's clock keeps).
 */
export async function downloadLink(
  documents: Documents,
  wallClock: Clock,
  accountId: string,
  id: string,
): Promise<string> {
  const row = await documentOf(documents, accountId, id);
  const expires = Math.floor(wallClock.now() / 1000) + DOWNLOAD_LINK_SECONDS;
  const signature = documents.files.sign(row.id, expires);
  return `/v2/documents/${row.id}/download?expires=${expires}&signature=${signature}`;
}

/** The document and its bytes behind a signed link; a bad or expired signature is a 403. */
export async function signedDownload(
  documents: Documents,
  wallClock: Clock,
  link: { id: string; expires: number; signature: string },
) {
  const { id, expires, signature } = link;
  if (!isUuid(id) || !documents.files.verify(id, expires, signature, wallClock.now())) {
    throw new ApiError(403, 'The download link is invalid or has expired', {
      source: { parameter: 'signature' },
    });
  }
  const row = await documents.store.byIdForDownload(id);
  if (!row) throw notFound("Couldn't find Document");
  return { row, bytes: await documents.files.read(row.sha256) };
}

/** Reads the document again (type, numbers, links) in the background. */
export async function reextractDocument(documents: Documents, accountId: string, id: string) {
  const row = await documentOf(documents, accountId, id);
  await documents.store.markPending(row.account_id, row.id);
  documents.service.enqueue(row.account_id, row.id);
}

/** Creates tracking requests for what the document names. */
export async function relinkDocument(documents: Documents, accountId: string, id: string) {
  const row = await documentOf(documents, accountId, id);
  await documents.service.track(row.account_id, row.id);
}

/** Turns the document by a quarter, half or three quarters. */
export async function rotateDocument(
  documents: Documents,
  accountId: string,
  id: string,
  degrees: 90 | 180 | 270,
) {
  const row = await documentOf(documents, accountId, id);
  await documents.store.setRotation(row.account_id, row.id, (row.rotation + degrees) % 360);
}

/** The account's document settings: tracking mode and inbox address. */
export async function documentSettings(documents: Documents, accountId: string) {
  const settings = await documents.store.settings(accountId);
  return {
    trackingMode: settings.trackingMode,
    inboxAddress: documents.inboxAddress(settings.inboxToken),
  };
}

/** Changes the account's tracking mode (off, ask, automatic). */
export async function setDocumentTrackingMode(
  documents: Documents,
  accountId: string,
  mode: TrackingMode,
) {
  await documents.store.setTrackingMode(accountId, mode);
  return documentSettings(documents, accountId);
}

/** One page of the account's email submissions, most recent first. */
export function listEmailSubmissions(documents: Documents, accountId: string, page: Page) {
  return documents.store.listEmailSubmissions(accountId, { limit: page.size, offset: page.offset });
}

/** The account's email submission with this id; any other is a 404. */
export async function emailSubmissionOf(documents: Documents, accountId: string, id: string) {
  const row = isUuid(id) ? await documents.store.emailSubmission(accountId, id) : undefined;
  if (!row) throw notFound("Couldn't find EmailSubmission");
  return row;
}
