/**
 * The few calls the app makes to the tracking service outside the sync engine: creating and
 * listing tracking requests. Failures come back in plain words, never as exceptions.
 */
import type {
  CreateTrackingRequestResult,
  InferredNumber,
  TrackingRequestDraft,
  TrackingRequestRow,
} from '../../shared/bridge';
import type { ServiceBudgets, ServiceConnection } from '../connection/service-connection';

export type { ServiceConnection } from '../connection/service-connection';

const FAILED_REASONS: Record<string, string> = {
  not_found: 'The shipping line does not know this number. Check it, and the line, then try again.',
  invalid_number: 'This is not a valid number for this shipping line.',
  booking_cancelled: 'The line reports this booking as cancelled.',
  data_unavailable: 'The line has no tracking data for this number yet.',
  duplicate: 'This number is already being tracked.',
  expired: 'The shipment is too old to track.',
  retries_exhausted: 'The line could not be reached for a day; the request was given up.',
  internal_processing_error: 'The tracking service failed to process this request.',
};

export const failedReasonText = (reason: string | null): string | null =>
  reason === null ? null : (FAILED_REASONS[reason] ?? `Failed: ${reason.replace(/_/g, ' ')}.`);

interface ApiErrorBody {
  errors?: { code?: string; detail?: string; title?: string; source?: { pointer?: string } }[];
}

interface TrackingRequestResource {
  id: string;
  attributes: {
    request_type: string;
    request_number: string;
    scac: string | null;
    status: string;
    failed_reason: string | null;
    is_retrying?: boolean;
    created_at: string;
    updated_at?: string | null;
    ref_numbers?: string[] | null;
    tags?: string[];
  };
}

export function toTrackingRequestRow(resource: TrackingRequestResource): TrackingRequestRow {
  const a = resource.attributes;
  return {
    id: resource.id,
    requestType: a.request_type,
    number: a.request_number,
    // Null when the service could not detect the line of an auto-detect request.
    scac: a.scac ?? '',
    status: a.status,
    failedReason: a.failed_reason ?? null,
    failedReasonText: failedReasonText(a.failed_reason ?? null),
    isRetrying: a.is_retrying ?? false,
    createdAt: a.created_at,
    updatedAt: a.updated_at ?? null,
    refNumbers: a.ref_numbers ?? [],
    tags: a.tags ?? [],
  };
}

const FIELD_BY_POINTER: Record<string, 'number' | 'scac' | 'requestType'> = {
  '/data/attributes/request_number': 'number',
  '/data/attributes/scac': 'scac',
  '/data/attributes/request_type': 'requestType',
};

export async function call(
  connection: ServiceConnection,
  budgets: ServiceBudgets | undefined,
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  path: string,
  body?: unknown,
): Promise<{ status: number; json: unknown } | { status: 0; json: null }> {
  try {
    await budgets?.for(connection)?.take();
    const response = await fetch(`${connection.baseUrl.replace(/\/$/, '')}/${path}`, {
      method,
      headers: {
        Authorization: `Token ${connection.apiKey}`,
        Accept: 'application/vnd.api+json',
        ...(body === undefined ? {} : { 'Content-Type': 'application/vnd.api+json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(20_000),
      redirect: 'manual',
    });
    const text = await response.text();
    let json: unknown = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      json = null;
    }
    return { status: response.status, json };
  } catch {
    return { status: 0, json: null };
  }
}

const statusMessage = (status: number): string =>
  status === 0
    ? 'The tracking service is not reachable; tracking needs a connection.'
    : status === 401
      ? 'The tracking service refused the API key.'
      : status === 429
        ? 'Too many requests right now; try again in a minute.'
        : `The tracking service answered HTTP ${status}.`;

/** Most parties read when looking one up by name (pages of 100). */
const PARTY_PAGES = 20;

/**
 * The id of the account's party (customer) with this company name, any case; created when there
 * is none. Null, with the reason, when the service cannot say.
 */
export async function findOrCreateParty(
  connection: ServiceConnection,
  companyName: string,
  budgets?: ServiceBudgets,
): Promise<{ id: string } | { id: null; message: string }> {
  const name = companyName.trim();
  const find = async (): Promise<string | null | number> => {
    for (let page = 1; page <= PARTY_PAGES; page++) {
      const { status, json } = await call(
        connection,
        budgets,
        'GET',
        `parties?page[size]=100&page[number]=${page}`,
      );
      if (status !== 200) return status;
      const rows = (json as { data?: PartyResource[] } | null)?.data ?? [];
      const found = rows.find(
        (party) => party.attributes?.company_name?.trim().toLowerCase() === name.toLowerCase(),
      );
      if (found) return found.id;
      if (rows.length < 100) return null;
    }
    return null;
  };
  const existing = await find();
  if (typeof existing === 'string') return { id: existing };
  if (typeof existing === 'number') return { id: null, message: statusMessage(existing) };
  const { status, json } = await call(connection, budgets, 'POST', 'parties', {
    data: { type: 'party', attributes: { company_name: name } },
  });
  const created = (json as { data?: PartyResource } | null)?.data?.id;
  if ((status === 201 || status === 200) && created) return { id: created };
  // Created meanwhile by someone else: it is there now.
  const again = status === 422 ? await find() : null;
  if (typeof again === 'string') return { id: again };
  const detail = (json as ApiErrorBody | null)?.errors?.[0]?.detail;
  return { id: null, message: detail ?? statusMessage(status) };
}

interface PartyResource {
  id: string;
  attributes?: { company_name?: string };
}

export async function createTrackingRequest(
  connection: ServiceConnection | null,
  draft: TrackingRequestDraft,
  budgets?: ServiceBudgets,
  /** The customer's party id, when the draft names a customer (see findOrCreateParty). */
  customerPartyId?: string,
): Promise<CreateTrackingRequestResult> {
  if (!connection) return { ok: false, message: 'No tracking service is connected.', field: null };
  const { status, json } = await call(connection, budgets, 'POST', 'tracking_requests', {
    data: {
      type: 'tracking_request',
      attributes: {
        request_type: draft.requestType,
        request_number: draft.number.trim().toUpperCase(),
        scac: draft.scac.toUpperCase(),
        ...(draft.refNumbers?.length ? { ref_numbers: draft.refNumbers } : {}),
        ...(draft.tags?.length ? { tags: draft.tags } : {}),
      },
      ...(customerPartyId
        ? { relationships: { customer: { data: { type: 'party', id: customerPartyId } } } }
        : {}),
    },
  });
  if (status === 201 || status === 200) {
    return {
      ok: true,
      request: toTrackingRequestRow((json as { data: TrackingRequestResource }).data),
    };
  }
  const error = (json as ApiErrorBody | null)?.errors?.[0];
  if (status === 422 && error) {
    return {
      ok: false,
      message: error.detail ?? error.title ?? 'The tracking service refused the request.',
      field: FIELD_BY_POINTER[error.source?.pointer ?? ''] ?? null,
      // Quayside names the code; other services only say so in words.
      ...(error.code === 'duplicate' ||
      /\balready (exists|tracked|being tracked)\b/i.test(error.detail ?? '')
        ? { duplicate: true }
        : {}),
    };
  }
  return { ok: false, message: statusMessage(status), field: null };
}

/** What the service infers from a number: its kind and, when it can tell, the line. */
export async function inferNumber(
  connection: ServiceConnection | null,
  number: string,
  budgets?: ServiceBudgets,
): Promise<InferredNumber> {
  const none = { number, requestType: null, scac: null, lineName: null };
  if (!connection) return none;
  const { status, json } = await call(
    connection,
    budgets,
    'POST',
    'tracking_requests/infer_number',
    { number },
  );
  if (status !== 200) return none;
  const attrs = (json as { data?: { attributes?: InferAttributes } } | null)?.data?.attributes;
  const selected =
    attrs?.shipping_line?.decision === 'auto_select' ? attrs.shipping_line.selected : null;
  const kind = attrs?.number_type;
  return {
    number,
    requestType: kind === 'booking' ? 'booking_number' : (kind ?? null),
    scac: typeof selected?.scac === 'string' ? selected.scac : null,
    lineName: typeof selected?.name === 'string' ? selected.name : null,
  };
}

interface InferAttributes {
  number_type?: 'container' | 'bill_of_lading' | 'booking';
  shipping_line?: { decision?: string; selected?: { scac?: unknown; name?: unknown } | null };
}

export async function listTrackingRequests(
  connection: ServiceConnection | null,
  offset: number,
  limit: number,
  budgets?: ServiceBudgets,
): Promise<{ total: number; rows: TrackingRequestRow[] }> {
  if (!connection) throw new Error('No tracking service is connected.');
  const size = Math.min(limit, 100);
  const page = Math.floor(offset / size) + 1;
  const { status, json } = await call(
    connection,
    budgets,
    'GET',
    `tracking_requests?page[size]=${size}&page[number]=${page}`,
  );
  if (status !== 200) throw new Error(statusMessage(status));
  const body = json as { data?: TrackingRequestResource[]; meta?: { total?: number } };
  const rows = (body.data ?? []).map(toTrackingRequestRow);
  return { total: body.meta?.total ?? rows.length, rows };
}

/**
 * How many tracking requests the service is still looking up (status pending); null when it
 * cannot say (unreachable, refused, or no such list).
 */
export async function pendingTrackingRequests(
  connection: ServiceConnection | null,
  budgets?: ServiceBudgets,
): Promise<number | null> {
  if (!connection) return null;
  const { status, json } = await call(
    connection,
    budgets,
    'GET',
    'tracking_requests?filter[status]=pending&page[size]=1',
  );
  if (status !== 200) return null;
  const body = json as { data?: unknown[]; meta?: { total?: unknown } } | null;
  const total = body?.meta?.total;
  if (typeof total === 'number' && Number.isInteger(total) && total >= 0) return total;
  return Array.isArray(body?.data) ? body.data.length : null;
}
