/**
 * The app's direct calls to the service's /documents: uploading a file and reading one document
 * back with its extraction. Each call draws on the service's request budget; failures come back
 * as plain-words errors.
 */
import { documentRecord, includedIndex, type DocumentRecord } from '../../shared/document-record';
import type { DeliveryOrderAttribute } from '../../shared/api/delivery-order';
import type { ServiceBudgets, ServiceConnection } from '../connection/service-connection';

export class DocumentRequestError extends Error {}

const UPLOAD_TIMEOUT_MS = 120_000;

const statusMessage = (status: number, detail: string | undefined): string =>
  status === 0
    ? 'The tracking service is not reachable; uploading needs a connection.'
    : status === 401
      ? 'The tracking service refused the API key.'
      : status === 409
        ? 'This file was uploaded before.'
        : status === 429
          ? 'Too many requests right now; try again in a minute.'
          : (detail ?? `The tracking service answered HTTP ${status}.`);

async function send(
  connection: ServiceConnection,
  budgets: ServiceBudgets,
  path: string,
  init: RequestInit & { timeoutMs?: number },
): Promise<unknown> {
  let response: Response;
  let text: string;
  try {
    await budgets.for(connection)?.take();
    response = await fetch(`${connection.baseUrl.replace(/\/$/, '')}/${path}`, {
      ...init,
      headers: {
        Authorization: `Token ${connection.apiKey}`,
        Accept: 'application/vnd.api+json',
        ...(init.headers as Record<string, string> | undefined),
      },
      signal: AbortSignal.timeout(init.timeoutMs ?? 20_000),
      redirect: 'manual',
    });
    text = await response.text();
  } catch {
    throw new DocumentRequestError(statusMessage(0, undefined));
  }
  let json: unknown = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = null;
  }
  if (response.status >= 200 && response.status < 300) return json;
  const error = (json as { errors?: { detail?: string; title?: string }[] } | null)?.errors?.[0];
  throw new DocumentRequestError(statusMessage(response.status, error?.detail ?? error?.title));
}

/** Uploads a file (already checked by the caller) and returns the new document's id. */
export async function uploadDocument(
  connection: ServiceConnection | null,
  budgets: ServiceBudgets,
  file: {
    fileName: string;
    contentType: string;
    bytes: Uint8Array;
    shipmentIds?: string[];
    /** What a delivery order states, kept by the service with the document (an extension). */
    deliveryOrder?: DeliveryOrderAttribute;
  },
): Promise<string> {
  if (!connection) throw new DocumentRequestError('No tracking service is connected.');
  const form = new FormData();
  form.append('name', file.fileName);
  // Attached to the shipments as it is stored (a Quayside extension of the upload).
  for (const id of file.shipmentIds ?? []) form.append('shipment_id', id);
  if (file.deliveryOrder) form.append('delivery_order', JSON.stringify(file.deliveryOrder));
  form.append('file', new Blob([file.bytes], { type: file.contentType }), file.fileName);
  const json = (await send(connection, budgets, 'documents', {
    method: 'POST',
    body: form,
    timeoutMs: UPLOAD_TIMEOUT_MS,
  })) as { data?: { id?: unknown } } | null;
  const id = json?.data?.id;
  if (typeof id !== 'string') {
    throw new DocumentRequestError('The tracking service did not say which document it stored.');
  }
  return id;
}

/** One document with its latest extraction and email, as the cache keeps it. */
export async function fetchDocument(
  connection: ServiceConnection | null,
  budgets: ServiceBudgets,
  id: string,
): Promise<DocumentRecord | null> {
  if (!connection) throw new DocumentRequestError('No tracking service is connected.');
  const json = (await send(
    connection,
    budgets,
    `documents/${encodeURIComponent(id)}?include=last_document_representation,email_submission`,
    { method: 'GET' },
  )) as { data?: unknown; included?: unknown[] } | null;
  return documentRecord(json?.data, includedIndex(json?.included ?? []));
}

/** Whether the service has an outgoing mail server to send documents with (an extension). */
export async function outgoingMailConfigured(
  connection: ServiceConnection | null,
  budgets: ServiceBudgets,
): Promise<boolean> {
  if (!connection) throw new DocumentRequestError('No tracking service is connected.');
  const json = (await send(connection, budgets, 'documents/settings', { method: 'GET' })) as {
    data?: { attributes?: { outgoing_mail?: unknown } };
  } | null;
  return json?.data?.attributes?.outgoing_mail === true;
}

/**
 * Has the service email the document (to a delivery order's trucker contacts when `to` is not
 * given) and returns who it went to and when.
 */
export async function emailDocument(
  connection: ServiceConnection | null,
  budgets: ServiceBudgets,
  id: string,
): Promise<{ to: string[]; sentAt: string }> {
  if (!connection) throw new DocumentRequestError('No tracking service is connected.');
  const json = (await send(connection, budgets, `documents/${encodeURIComponent(id)}/send`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/vnd.api+json' },
    body: '{}',
    timeoutMs: UPLOAD_TIMEOUT_MS,
  })) as { data?: { attributes?: { emailed?: { to?: unknown; sent_at?: unknown } } } } | null;
  const emailed = json?.data?.attributes?.emailed;
  const to = Array.isArray(emailed?.to) ? emailed.to.filter((a) => typeof a === 'string') : [];
  if (to.length === 0 || typeof emailed?.sent_at !== 'string') {
    throw new DocumentRequestError('The tracking service did not say who it sent the order to.');
  }
  return { to, sentAt: emailed.sent_at };
}
