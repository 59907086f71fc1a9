/**
 * Tracking requests as use cases, callable without HTTP: creating one (the SCAC it names or
 * detects, the line's support, the duplicate rule), listing, reading and editing them, and number
 * inference. The /v2 routes, documents and email submissions all create requests through
 * `createTrackingRequest`. Failures are JSON:API errors (ApiError) pointing at the attribute.
 */
import type { TrackingRequestCreateBody } from '../../shared/api/documents';
import type { InferNumberResult } from '../../shared/api/resources';
import type { ServiceContext } from '../context';
import { ApiError, notFound } from '../jsonapi/errors';
import { isUuid } from '../jsonapi/ids';
import type { Page } from '../jsonapi/pagination';
import { lineSupport } from '../resources/render';
import type { TrackingRequestListFilter } from '../store/account-reads';
import type { ShippingLinesTable, TrackingRequestsTable } from '../store/schema';
import { TEST_SCAC } from './engine';
import { CONFIRMATION_THRESHOLD, inferNumber } from './infer-number';

type CreateAttributes = TrackingRequestCreateBody['data']['attributes'];
type LineRow = Pick<ShippingLinesTable, 'scac' | 'name' | 'tracks_by'>;
interface AttributeError {
  detail: string;
  code: string;
  source: { pointer: string };
}

const TRACKING_NUMBER_KINDS = ['bill_of_lading', 'booking_number', 'container'] as const;
const KIND_WORDS: Record<(typeof TRACKING_NUMBER_KINDS)[number], string> = {
  bill_of_lading: 'bill of lading',
  booking_number: 'booking number',
  container: 'container number',
};
const SCAC_POINTER = { pointer: '/data/attributes/scac' };

/** SCAC `TEST` takes the reference API's test numbers (TEST-TR-SUCCEEDED, TEST-TR-FAILED). */
const TEST_LINE: LineRow & { container_prefixes: string } = {
  scac: TEST_SCAC,
  name: 'Test line',
  container_prefixes: '["TEST"]',
  tracks_by: '["bill_of_lading","booking_number","container"]',
};

/** Whether the line is tracked by this kind of number (its `*_tracking_support` flag). */
function lineTracksBy(line: Pick<ShippingLinesTable, 'tracks_by'>, kind: string): boolean {
  const support = lineSupport(line);
  return kind === 'container'
    ? support.container
    : kind === 'booking_number'
      ? support.booking_number
      : support.bill_of_lading;
}

/** True when the service tracks a fixed set of lines (its feeds) and this is not one of them. */
export function unconfiguredLine(supported: string[] | undefined, scac: string): boolean {
  return supported !== undefined && !supported.includes(scac);
}

/** Why a request for `scac` and `requestType` cannot be served; undefined when it can. */
function lineError(
  ctx: ServiceContext,
  scac: string,
  requestType: string,
  line: LineRow | undefined,
  isTestLine: boolean,
): AttributeError | undefined {
  if (!scac) {
    return {
      detail: "Scac can't be blank (or set auto_detect_vocc_scac to true)",
      code: 'blank',
      source: SCAC_POINTER,
    };
  }
  if (!line) {
    return { detail: `Scac '${scac}' is not recognized`, code: 'invalid', source: SCAC_POINTER };
  }
  if (!isTestLine && unconfiguredLine(ctx.config.supportedScacs, line.scac)) {
    const supported = ctx.config.supportedScacs!;
    return {
      detail:
        `Scac '${scac}' is not supported on this service: no carrier source is configured for ` +
        `${line.name}. Supported: ${supported.length ? supported.join(', ') : 'none'} ` +
        `(and TEST for the test numbers).`,
      code: 'unsupported',
      source: SCAC_POINTER,
    };
  }
  if (!lineTracksBy(line, requestType)) {
    // The reference names no answer for this; it is refused like an unsupported SCAC, at the
    // attribute that cannot be served.
    const kinds = TRACKING_NUMBER_KINDS.filter((k) => lineTracksBy(line, k));
    return {
      detail:
        `Request type '${requestType}' is not supported for ${line.name} (${line.scac}): ` +
        `it is tracked by ${kinds.map((k) => KIND_WORDS[k]).join(' or ')}`,
      code: 'unsupported',
      source: { pointer: '/data/attributes/request_type' },
    };
  }
  return undefined;
}

/**
 * Validates and creates one tracking request: the one path for the route and for documents
 * that start tracking what they name. Invalid attributes or a duplicate are a 422 ApiError.
 */
export async function createTrackingRequest(
  ctx: ServiceContext,
  accountId: string,
  attrs: CreateAttributes,
  options: { customerId?: string } = {},
): Promise<TrackingRequestsTable> {
  const tracking = ctx.stores.tracking;
  const requestNumber = attrs.request_number.trim().toUpperCase();
  const givenScac = (attrs.scac ?? '').trim().toUpperCase();
  const errors: AttributeError[] = [];
  if (!requestNumber) {
    errors.push({
      detail: "Request number can't be blank",
      code: 'blank',
      source: { pointer: '/data/attributes/request_number' },
    });
  }
  const initialCustomFields = await ctx.customFields.stage(
    accountId,
    attrs.initial_custom_fields,
    '/data/attributes/initial_custom_fields',
  );
  const create = (scac: string) =>
    tracking.createTrackingRequest(accountId, {
      requestType: attrs.request_type,
      requestNumber,
      scac,
      refNumbers: attrs.ref_numbers,
      shipmentTags: attrs.shipment_tags,
      customerId: options.customerId,
      initialCustomFields,
    });
  const autoDetect = !givenScac && attrs.auto_detect_vocc_scac === true;
  let scac = givenScac;
  if (autoDetect && requestNumber) {
    const detected = detectScac(ctx, requestNumber, attrs.request_type);
    if (!detected) {
      // As the reference: the request exists and has failed, no shipment will be looked up.
      const row = await create('');
      await tracking.setTrackingRequestStatus(row.id, 'failed', {
        failedReason: 'scac_auto_detect_failed',
      });
      return (await tracking.trackingRequest(row.id))!;
    }
    scac = detected;
  }
  const isTestLine = scac === TEST_SCAC && requestNumber.startsWith('TEST-');
  const line = isTestLine ? TEST_LINE : ctx.ref.linesByAnyScac.get(scac);
  const refused = lineError(ctx, scac, attrs.request_type, line, isTestLine);
  if (refused) errors.push(refused);
  if (errors.length) throw ApiError.many(422, errors);
  const duplicate = await tracking.findActiveDuplicate(accountId, requestNumber, line!.scac);
  if (duplicate) {
    throw new ApiError(
      422,
      `A tracking request for ${requestNumber} with scac ${line!.scac} already exists (status ${duplicate.status})`,
      {
        code: 'duplicate',
        source: { pointer: '/data/attributes/request_number' },
      },
    );
  }
  const row = await create(line!.scac);
  ctx.trackingRequestCreated?.();
  return row;
}

/**
 * The SCAC `auto_detect_vocc_scac` picks: the best line number inference offers (at least
 * `needs_confirmation`) among the lines this service can track; undefined when none fits.
 */
function detectScac(
  ctx: ServiceContext,
  requestNumber: string,
  requestType: string,
): string | undefined {
  const result = inferNumber(requestNumber, ctx.ref.lines);
  if (!result || result.attributes.shipping_line.decision === 'no_prediction') return undefined;
  if (requestType === 'container' && result.attributes.number_type !== 'container') {
    return undefined;
  }
  const best = result.attributes.shipping_line.candidates.find((c) => {
    const line = ctx.ref.linesByAnyScac.get(c.scac);
    return (
      c.confidence >= CONFIRMATION_THRESHOLD &&
      !unconfiguredLine(ctx.config.supportedScacs, c.scac) &&
      line !== undefined &&
      lineTracksBy(line, requestType)
    );
  });
  return best?.scac;
}

/**
 * POST /tracking_requests: the customer it names must be one of the account's parties (a 422 at
 * the relationship), then the one creation path.
 */
export async function createRequestedTracking(
  ctx: ServiceContext,
  accountId: string,
  body: TrackingRequestCreateBody,
): Promise<TrackingRequestsTable> {
  const { attributes, relationships } = body.data;
  const customerId = relationships?.customer?.data.id;
  if (customerId !== undefined) {
    const party = isUuid(customerId)
      ? await ctx.stores.parties.owned(accountId, customerId)
      : undefined;
    if (!party) {
      throw new ApiError(422, `No party with id ${customerId}`, {
        code: 'not_found',
        source: { pointer: '/data/relationships/customer/data/id' },
      });
    }
  }
  return createTrackingRequest(ctx, accountId, attributes, { customerId });
}

/** One page of the account's tracking requests, most recent first, and how many match. */
export async function listTrackingRequests(
  ctx: ServiceContext,
  accountId: string,
  filter: TrackingRequestListFilter,
  page: Page,
) {
  const { total, rows } = await ctx.stores.reads.trackingRequests(
    accountId,
    { ...filter, scac: filter.scac?.toUpperCase() || undefined },
    page,
  );
  return { total: Number(total), rows };
}

/** The account's tracking request with this id; another account's or none is a 404. */
export async function trackingRequestOf(ctx: ServiceContext, accountId: string, id: string) {
  const row = isUuid(id) ? await ctx.stores.reads.ownedTrackingRequest(accountId, id) : undefined;
  if (!row) throw notFound();
  return row;
}

/** Replaces the ref numbers and tags of the account's tracking request; a 404 when not its own. */
export async function editTrackingRequest(
  ctx: ServiceContext,
  accountId: string,
  id: string,
  edits: { ref_numbers?: string[]; tags?: string[] },
) {
  if (!isUuid(id)) throw notFound();
  const ok = await ctx.stores.tracking.updateTrackingRequest(accountId, id, {
    refNumbers: edits.ref_numbers,
    tags: edits.tags,
  });
  if (!ok) throw notFound();
  return trackingRequestOf(ctx, accountId, id);
}

/** The number type and line candidates for a tracking number; one that fits none is a 422. */
export function inferTrackingNumber(ctx: ServiceContext, number: string): InferNumberResult {
  const result = inferNumber(number, ctx.ref.lines);
  if (!result) {
    throw new ApiError(422, 'This reference number is not valid.', {
      source: { pointer: '/number' },
    });
  }
  return result;
}
