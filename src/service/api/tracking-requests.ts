import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { TRACKING_REQUEST_STATUSES } from '../../shared/api/resources';
import {
  InferNumberBody,
  InferNumberDocument,
  TrackingRequestCreateBody,
  TrackingRequestDocument,
  TrackingRequestListDocument,
  TrackingRequestUpdateBody,
} from '../../shared/api/documents';
import type { ServiceContext } from '../context';
import type { ShippingLinesTable, TrackingRequestsTable } from '../store/schema';
import { ApiError, notFound } from '../jsonapi/errors';
import { parseInclude, resolveIncludes } from '../jsonapi/include';
import { parsePage } from '../jsonapi/pagination';
import { TEST_SCAC } from '../tracking/engine';
import { CONFIRMATION_THRESHOLD, inferNumber } from '../tracking/infer-number';
import { lineSupport, renderTrackingRequest } from '../resources/render';
import {
  IdParams,
  IncludeQuery,
  PageQuery,
  accountOf,
  isUuid,
  isoFilter,
  sendCollection,
  sendDocument,
} from './http';
import { splitCustomFieldsInclude, withCustomFields } from '../custom-fields';

const ListQuery = Type.Object({
  ...PageQuery,
  ...IncludeQuery,
  q: Type.Optional(Type.String({ description: 'Matches request_number and ref numbers.' })),
  'filter[request_number]': Type.Optional(Type.String()),
  'filter[status]': Type.Optional(
    Type.Union(TRACKING_REQUEST_STATUSES.map((status) => Type.Literal(status))),
  ),
  'filter[scac]': Type.Optional(Type.String()),
  'filter[created_at][start]': Type.Optional(Type.String({ format: 'date-time' })),
  'filter[created_at][end]': Type.Optional(Type.String({ format: 'date-time' })),
  'filter[updated_at][start]': Type.Optional(Type.String({ format: 'date-time' })),
  'filter[updated_at][end]': Type.Optional(Type.String({ format: 'date-time' })),
});

const TRACKING_NUMBER_KINDS = ['bill_of_lading', 'booking_number', 'container'] as const;
const KIND_WORDS: Record<(typeof TRACKING_NUMBER_KINDS)[number], string> = {
  bill_of_lading: 'bill of lading',
  booking_number: 'booking number',
  container: 'container number',
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

/**
 * Validates and creates one tracking request: the one path for the route and for documents
 * that start tracking what they name. Invalid attributes or a duplicate are a 422 ApiError.
 */
export async function createTrackingRequest(
  ctx: ServiceContext,
  accountId: string,
  attrs: TrackingRequestCreateBody['data']['attributes'],
  options: { customerId?: string } = {},
): Promise<TrackingRequestsTable> {
  const { ref } = ctx;
  const tracking = ctx.stores.tracking;
  const requestNumber = attrs.request_number.trim().toUpperCase();
  const givenScac = (attrs.scac ?? '').trim().toUpperCase();
  const errors: { detail: string; code: string; source: { pointer: string } }[] = [];
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
  const scacPointer = { pointer: '/data/attributes/scac' };
  const autoDetect = !givenScac && attrs.auto_detect_vocc_scac === true;
  let scac = givenScac;
  if (autoDetect && requestNumber) {
    const detected = detectScac(ctx, requestNumber, attrs.request_type);
    if (!detected) {
      // As the reference: the request exists and has failed, no shipment will be looked up.
      const row = await tracking.createTrackingRequest(accountId, {
        requestType: attrs.request_type,
        requestNumber,
        scac: '',
        refNumbers: attrs.ref_numbers,
        shipmentTags: attrs.shipment_tags,
        customerId: options.customerId,
        initialCustomFields,
      });
      await tracking.setTrackingRequestStatus(row.id, 'failed', {
        failedReason: 'scac_auto_detect_failed',
      });
      return (await tracking.trackingRequest(row.id))!;
    }
    scac = detected;
  }
  // SCAC `TEST` takes the reference API's test numbers (TEST-TR-SUCCEEDED, TEST-TR-FAILED).
  const testLine =
    scac === TEST_SCAC && requestNumber.startsWith('TEST-')
      ? ({
          scac: TEST_SCAC,
          name: 'Test line',
          container_prefixes: '["TEST"]',
          tracks_by: '["bill_of_lading","booking_number","container"]',
        } as const)
      : undefined;
  const line = testLine ?? ref.linesByAnyScac.get(scac);
  if (!scac) {
    errors.push({
      detail: "Scac can't be blank (or set auto_detect_vocc_scac to true)",
      code: 'blank',
      source: scacPointer,
    });
  } else if (!line) {
    errors.push({
      detail: `Scac '${scac}' is not recognized`,
      code: 'invalid',
      source: scacPointer,
    });
  } else if (!testLine && unconfiguredLine(ctx.config.supportedScacs, line.scac)) {
    const supported = ctx.config.supportedScacs!;
    errors.push({
      detail:
        `Scac '${scac}' is not supported on this service: no carrier source is configured for ` +
        `${line.name}. Supported: ${supported.length ? supported.join(', ') : 'none'} ` +
        `(and TEST for the test numbers).`,
      code: 'unsupported',
      source: scacPointer,
    });
  } else if (!lineTracksBy(line, attrs.request_type)) {
    // The reference names no answer for this; it is refused like an unsupported SCAC, at the
    // attribute that cannot be served.
    const kinds = TRACKING_NUMBER_KINDS.filter((k) => lineTracksBy(line, k));
    errors.push({
      detail:
        `Request type '${attrs.request_type}' is not supported for ${line.name} (${line.scac}): ` +
        `it is tracked by ${kinds.map((k) => KIND_WORDS[k]).join(' or ')}`,
      code: 'unsupported',
      source: { pointer: '/data/attributes/request_type' },
    });
  }
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
  const row = await tracking.createTrackingRequest(accountId, {
    requestType: attrs.request_type,
    requestNumber,
    scac: line!.scac,
    refNumbers: attrs.ref_numbers,
    shipmentTags: attrs.shipment_tags,
    customerId: options.customerId,
    initialCustomFields,
  });
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

export function registerTrackingRequestRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  const { render, ref } = ctx;
  const tracking = ctx.stores.tracking;
  const reads = ctx.stores.reads;

  /** `tracked_object` is included unless the request names its includes (as the reference). */
  function includesOf(raw: unknown) {
    const includes = splitCustomFieldsInclude(raw === undefined ? 'tracked_object' : raw);
    return { ...includes, paths: parseInclude(includes.rest, 'tracking_request') };
  }

  async function document(
    accountId: string,
    rows: Parameters<typeof renderTrackingRequest>[0][],
    includes: ReturnType<typeof includesOf>,
  ) {
    const data = rows.map(renderTrackingRequest);
    const included = await resolveIncludes(data, includes.paths, (type, ids) =>
      render.load(accountId, type, ids),
    );
    return withCustomFields(ctx, accountId, 'tracking_request', includes, data, included);
  }

  app.get(
    '/tracking_requests',
    {
      schema: {
        tags: ['Tracking Requests'],
        summary: 'List tracking requests, most recent first',
        querystring: ListQuery,
        response: { 200: TrackingRequestListDocument },
      },
    },
    async (request, reply) => {
      const account = accountOf(request);
      const query = request.query as Record<string, string | undefined>;
      const page = parsePage(query);
      const include = includesOf(query.include);
      const range = (param: string) => isoFilter(query[param], param);
      const { total, rows } = await reads.trackingRequests(
        account.id,
        {
          text: query.q || undefined,
          requestNumber: query['filter[request_number]'] || undefined,
          status: query['filter[status]'] || undefined,
          scac: query['filter[scac]']?.toUpperCase() || undefined,
          createdFrom: range('filter[created_at][start]'),
          createdUntil: range('filter[created_at][end]'),
          updatedFrom: range('filter[updated_at][start]'),
          updatedUntil: range('filter[updated_at][end]'),
        },
        page,
      );
      const doc = await document(account.id, rows, include);
      return sendCollection(request, reply, page, Number(total), doc);
    },
  );

  app.get(
    '/tracking_requests/:id',
    {
      schema: {
        tags: ['Tracking Requests'],
        summary: 'Get a tracking request',
        params: IdParams,
        querystring: Type.Object({ ...IncludeQuery }),
        response: { 200: TrackingRequestDocument },
      },
    },
    async (request, reply) => {
      const account = accountOf(request);
      const { id } = request.params as { id: string };
      const include = includesOf((request.query as { include?: string }).include);
      const row = isUuid(id) ? await reads.ownedTrackingRequest(account.id, id) : undefined;
      if (!row) throw notFound();
      const doc = await document(account.id, [row], include);
      return sendDocument(reply, 200, { data: doc.data[0], included: doc.included });
    },
  );

  app.post(
    '/tracking_requests',
    {
      schema: {
        tags: ['Tracking Requests'],
        summary: 'Create a tracking request',
        body: TrackingRequestCreateBody,
        response: { 201: TrackingRequestDocument },
      },
      config: { trackingRequestCreation: true },
    },
    async (request, reply) => {
      const account = accountOf(request);
      const { attributes: attrs, relationships } = (request.body as TrackingRequestCreateBody).data;
      const customerId = relationships?.customer?.data.id;
      if (customerId !== undefined) {
        const party = isUuid(customerId)
          ? await ctx.stores.parties.owned(account.id, customerId)
          : undefined;
        if (!party) {
          throw new ApiError(422, `No party with id ${customerId}`, {
            code: 'not_found',
            source: { pointer: '/data/relationships/customer/data/id' },
          });
        }
      }
      const row = await createTrackingRequest(ctx, account.id, attrs, { customerId });
      return sendDocument(reply, 201, { data: renderTrackingRequest(row) });
    },
  );

  app.patch(
    '/tracking_requests/:id',
    {
      schema: {
        tags: ['Tracking Requests'],
        summary: 'Edit the ref numbers and tags of a tracking request',
        params: IdParams,
        body: TrackingRequestUpdateBody,
        response: { 200: TrackingRequestDocument },
      },
    },
    async (request, reply) => {
      const account = accountOf(request);
      const { id } = request.params as { id: string };
      const attrs = (request.body as TrackingRequestUpdateBody).data.attributes;
      if (!isUuid(id)) throw notFound();
      const ok = await tracking.updateTrackingRequest(account.id, id, {
        refNumbers: attrs.ref_numbers,
        tags: attrs.tags,
      });
      if (!ok) throw notFound();
      const row = await reads.ownedTrackingRequest(account.id, id);
      if (!row) throw notFound();
      return sendDocument(reply, 200, { data: renderTrackingRequest(row) });
    },
  );

  app.post(
    '/tracking_requests/infer_number',
    {
      schema: {
        tags: ['Tracking Requests'],
        summary: 'Infer the number type and the shipping line from a tracking number',
        body: InferNumberBody,
        response: { 200: InferNumberDocument },
      },
    },
    async (request, reply) => {
      accountOf(request);
      const { number } = request.body as InferNumberBody;
      const result = inferNumber(number, ref.lines);
      if (!result) {
        throw new ApiError(422, 'This reference number is not valid.', {
          source: { pointer: '/number' },
        });
      }
      return sendDocument(reply, 200, { data: result });
    },
  );
}
