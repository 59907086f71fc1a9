import { Type, type Static } from 'typebox';
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
import type { TrackingRequestsTable } from '../store/schema';
import { parseInclude, resolveIncludes } from '../jsonapi/include';
import { parsePage } from '../jsonapi/pagination';
import { renderTrackingRequest } from '../resources/render';
import {
  createRequestedTracking,
  editTrackingRequest,
  inferTrackingNumber,
  listTrackingRequests,
  trackingRequestOf,
} from '../tracking/requests';
import {
  IdParams,
  IncludeQuery,
  PageQuery,
  accountOf,
  isoFilter,
  sendCollection,
  sendDocument,
  type ApiPlugin,
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

const TAGS = ['Tracking Requests'];

/** `tracked_object` is included unless the request names its includes (as the reference). */
function includesOf(raw: string | undefined) {
  const includes = splitCustomFieldsInclude(raw === undefined ? 'tracked_object' : raw);
  return { ...includes, paths: parseInclude(includes.rest, 'tracking_request') };
}

/** Tracking requests rendered, with the includes and custom fields the request asked for. */
async function document(
  ctx: ServiceContext,
  accountId: string,
  rows: TrackingRequestsTable[],
  includes: ReturnType<typeof includesOf>,
) {
  const data = rows.map(renderTrackingRequest);
  const included = await resolveIncludes(data, includes.paths, (type, ids) =>
    ctx.render.load(accountId, type, ids),
  );
  return withCustomFields(ctx, accountId, 'tracking_request', includes, data, included);
}

/** The list filters of GET /tracking_requests; a timestamp that is not ISO 8601 is a 400. */
function listFilter(query: Static<typeof ListQuery>) {
  const range = (param: keyof typeof query & `filter[${string}_at]${string}`) =>
    isoFilter(query[param], param);
  return {
    text: query.q || undefined,
    requestNumber: query['filter[request_number]'] || undefined,
    status: query['filter[status]'] || undefined,
    scac: query['filter[scac]'] || undefined,
    createdFrom: range('filter[created_at][start]'),
    createdUntil: range('filter[created_at][end]'),
    updatedFrom: range('filter[updated_at][start]'),
    updatedUntil: range('filter[updated_at][end]'),
  };
}

const readRoutes: ApiPlugin = async (app, { ctx }) => {
  app.get(
    '/tracking_requests',
    {
      schema: {
        tags: TAGS,
        summary: 'List tracking requests, most recent first',
        querystring: ListQuery,
        response: { 200: TrackingRequestListDocument },
      },
    },
    async (request, reply) => {
      const account = accountOf(request);
      const page = parsePage(request.query);
      const include = includesOf(request.query.include);
      const filter = listFilter(request.query);
      const { total, rows } = await listTrackingRequests(ctx, account.id, filter, page);
      const doc = await document(ctx, account.id, rows, include);
      return sendCollection(request, reply, page, total, doc);
    },
  );

  app.get(
    '/tracking_requests/:id',
    {
      schema: {
        tags: TAGS,
        summary: 'Get a tracking request',
        params: IdParams,
        querystring: Type.Object({ ...IncludeQuery }),
        response: { 200: TrackingRequestDocument },
      },
    },
    async (request, reply) => {
      const account = accountOf(request);
      const include = includesOf(request.query.include);
      const row = await trackingRequestOf(ctx, account.id, request.params.id);
      const doc = await document(ctx, account.id, [row], include);
      return sendDocument(reply, 200, { data: doc.data[0], included: doc.included });
    },
  );
};

const writeRoutes: ApiPlugin = async (app, { ctx }) => {
  app.post(
    '/tracking_requests',
    {
      schema: {
        tags: TAGS,
        summary: 'Create a tracking request',
        body: TrackingRequestCreateBody,
        response: { 201: TrackingRequestDocument },
      },
      config: { trackingRequestCreation: true },
    },
    async (request, reply) => {
      const row = await createRequestedTracking(ctx, accountOf(request).id, request.body);
      return sendDocument(reply, 201, { data: renderTrackingRequest(row) });
    },
  );

  app.patch(
    '/tracking_requests/:id',
    {
      schema: {
        tags: TAGS,
        summary: 'Edit the ref numbers and tags of a tracking request',
        params: IdParams,
        body: TrackingRequestUpdateBody,
        response: { 200: TrackingRequestDocument },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const edits = request.body.data.attributes;
      const row = await editTrackingRequest(ctx, accountOf(request).id, id, edits);
      return sendDocument(reply, 200, { data: renderTrackingRequest(row) });
    },
  );

  app.post(
    '/tracking_requests/infer_number',
    {
      schema: {
        tags: TAGS,
        summary: 'Infer the number type and the shipping line from a tracking number',
        body: InferNumberBody,
        response: { 200: InferNumberDocument },
      },
    },
    async (request, reply) => {
      accountOf(request);
      return sendDocument(reply, 200, { data: inferTrackingNumber(ctx, request.body.number) });
    },
  );
};

/** /tracking_requests: list, read, create, edit, and number inference. */
export const trackingRequestRoutes: ApiPlugin = async (app, options) => {
  await app.register(readRoutes, options);
  await app.register(writeRoutes, options);
};
