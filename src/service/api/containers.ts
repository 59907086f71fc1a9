import { Type } from 'typebox';
import {
  ContainerDocument,
  ContainerListDocument,
  RawEventListDocument,
  TransportEventListDocument,
} from '../../shared/api/documents';
import { RouteFeatureCollection, extension } from '../../shared/api/resources';
import type { ServiceContext } from '../context';
import { ApiError, notFound } from '../jsonapi/errors';
import { parseInclude, resolveIncludes } from '../jsonapi/include';
import { serializeDocument } from '../jsonapi/document';
import { DocumentMemo } from '../resources/document-memo';
import { parsePage } from '../jsonapi/pagination';
import {
  IdParams,
  IncludeQuery,
  PageQuery,
  accountOf,
  collectionDocument,
  isUuid,
  isoFilter,
  sendCollection,
  sendDocument,
  sendJsonText,
  sendNotModified,
  sendSerializedDocument,
  type ApiPlugin,
} from './http';
import {
  CUSTOM_FIELD_FILTER_DESCRIPTION,
  splitCustomFieldsInclude,
  withCustomFields,
} from '../custom-fields';

const ListQuery = Type.Object({
  ...PageQuery,
  ...IncludeQuery,
  'filter[number]': Type.Optional(Type.String()),
  'filter[updated_at][start]': Type.Optional(
    Type.String({
      format: 'date-time',
      description: 'Only containers updated at or after.',
      ...extension,
    }),
  ),
});

export const ROUTING_NOT_ENABLED = 'Routing data feature is not enabled for this account';

/** The account's container with this id, or undefined. */
async function findOwned(ctx: ServiceContext, accountId: string, id: string) {
  if (!isUuid(id)) return undefined;
  return ctx.stores.reads.ownedContainer(accountId, id);
}

/** GET /containers: cached renderings reused, the total kept per filter. */
const listRoute: ApiPlugin = async (app, { ctx }) => {
  const { render } = ctx;
  const reads = ctx.stores.reads;
  const pages = new DocumentMemo();

  app.get(
    '/containers',
    {
      schema: {
        tags: ['Containers'],
        summary: 'List containers, most recent first',
        description: CUSTOM_FIELD_FILTER_DESCRIPTION,
        querystring: ListQuery,
        response: { 200: ContainerListDocument },
      },
    },
    async (request, reply) => {
      const account = accountOf(request);
      const query = request.query;
      const page = parsePage(query);
      const includes = splitCustomFieldsInclude(query.include);
      const include = parseInclude(includes.rest, 'container');
      const customFields = await ctx.customFields.listFilters(account.id, 'container', query);
      const number = query['filter[number]'];
      const since = isoFilter(query['filter[updated_at][start]'], 'filter[updated_at][start]');
      // Only ids and updated_at here: cached renderings are reused, full rows read for the rest.
      const readAt = render.generation();
      const mark = reads.mark();
      const filter = {
        number: typeof number === 'string' && number ? number.toUpperCase() : undefined,
        updatedSince: since,
        customFields,
      };
      const totalKey = `containers|${account.id}|${filter.number ?? ''}|${since ?? ''}|${JSON.stringify(customFields ?? null)}`;
      const knownTotal = render.keptTotal(totalKey, readAt);
      const listed = await reads.containerKeys(account.id, filter, page, knownTotal, mark);
      if (knownTotal === undefined) render.keepTotal(totalKey, readAt, Number(listed.total));
      const contents = { primaryType: 'container', include, customFields: includes.customFields };
      const slot = pages.slot(account.id, request, listed, contents);
      if (slot.kept !== undefined) return sendSerializedDocument(reply, slot.kept);
      const rendered = await render.containersByKey(listed.rows, readAt);
      const included = await resolveIncludes(rendered, include, (type, ids) =>
        render.load(account.id, type, ids, mark),
      );
      const doc = await withCustomFields(
        ctx,
        account.id,
        'container',
        includes,
        rendered,
        included,
      );
      const total = Number(listed.total);
      if (!slot.keep) return sendCollection(request, reply, page, total, doc);
      const body = serializeDocument(collectionDocument(request, page, total, doc));
      return sendSerializedDocument(reply, slot.keep(body));
    },
  );
};

/** GET /containers/:id with its includes and custom fields. */
const detailRoute: ApiPlugin = async (app, { ctx }) => {
  const { render } = ctx;
  const reads = ctx.stores.reads;
  const documents = new DocumentMemo();

  app.get(
    '/containers/:id',
    {
      schema: {
        tags: ['Containers'],
        summary: 'Get a container',
        params: IdParams,
        querystring: Type.Object({ ...IncludeQuery }),
        response: { 200: ContainerDocument },
      },
    },
    async (request, reply) => {
      const account = accountOf(request);
      const includes = splitCustomFieldsInclude(request.query.include);
      const include = parseInclude(includes.rest, 'container');
      const readAt = render.generation();
      const mark = reads.mark();
      const id = request.params.id;
      // The key is enough while the rendered copy is current: the full row is read on a miss.
      const key = isUuid(id) ? await reads.ownedContainerKey(account.id, id, mark) : undefined;
      if (!key) throw notFound();
      const contents = { primaryType: 'container', include, customFields: includes.customFields };
      const slot = documents.slot(account.id, request, key, contents);
      if (slot.kept !== undefined) return sendSerializedDocument(reply, slot.kept);
      const rendered = await render.containersByKey([key], readAt);
      if (rendered.length === 0) throw notFound();
      const included = await resolveIncludes(rendered, include, (type, ids) =>
        render.load(account.id, type, ids, mark),
      );
      const doc = await withCustomFields(
        ctx,
        account.id,
        'container',
        includes,
        rendered,
        included,
      );
      const document = { data: doc.data[0], included: doc.included };
      if (!slot.keep) return sendDocument(reply, 200, document);
      return sendSerializedDocument(reply, slot.keep(serializeDocument(document)));
    },
  );
};

/** A container's transport events and raw carrier milestones. */
const eventRoutes: ApiPlugin = async (app, { ctx }) => {
  const { render } = ctx;
  const reads = ctx.stores.reads;

  app.get(
    '/containers/:id/transport_events',
    {
      schema: {
        tags: ['Containers'],
        summary: "A container's transport events, newest first",
        params: IdParams,
        querystring: Type.Object({ ...PageQuery, ...IncludeQuery }),
        response: { 200: TransportEventListDocument },
      },
    },
    async (request, reply) => {
      const account = accountOf(request);
      const query = request.query;
      const page = parsePage(query);
      const include = parseInclude(query.include, 'transport_event');
      const container = await findOwned(ctx, account.id, request.params.id);
      if (!container) throw notFound();
      const { total, rows } = await reads.transportEvents(container.id, page);
      const data = rows.map((r) => render.transportEvent(r));
      const included = await resolveIncludes(data, include, (type, ids) =>
        render.load(account.id, type, ids),
      );
      return sendCollection(
        request,
        reply,
        page,
        Number(total),
        { data, included },
        { selfWithoutPage: true },
      );
    },
  );

  app.get(
    '/containers/:id/raw_events',
    {
      schema: {
        tags: ['Containers'],
        summary: "A container's raw carrier milestones, including estimated future events",
        params: IdParams,
        response: { 200: RawEventListDocument },
      },
    },
    async (request, reply) => {
      const account = accountOf(request);
      const container = await findOwned(ctx, account.id, request.params.id);
      if (!container) throw notFound();
      const rows = await reads.rawEvents(container.id);
      return sendDocument(reply, 200, { data: rows.map((r) => render.rawEvent(r)) });
    },
  );
};

/** A container's route map (routing entitlement), with ETags. */
const mapRoute: ApiPlugin = async (app, { ctx }) => {
  app.get(
    '/containers/:id/map_geojson',
    {
      schema: {
        tags: ['Routing'],
        summary: 'The route of a container as a GeoJSON FeatureCollection (routing entitlement)',
        params: IdParams,
        headers: Type.Object({
          'if-none-match': Type.Optional(
            Type.String({ description: 'ETag of a copy the client holds; 304 when current' }),
          ),
        }),
        response: {
          200: RouteFeatureCollection,
          304: Type.Null({ description: 'Not modified: the If-None-Match ETag is current' }),
        },
      },
    },
    async (request, reply) => {
      const account = accountOf(request);
      if (!account.routingEnabled) throw new ApiError(403, ROUTING_NOT_ENABLED);
      const container = await findOwned(ctx, account.id, request.params.id);
      if (!container) throw notFound();
      const shipment = await ctx.stores.tracking.shipment(container.shipment_id);
      if (!shipment) throw notFound();
      const ifNoneMatch = request.headers['if-none-match'];
      const answer = await ctx.routeMaps.respond({ container, shipment, ifNoneMatch });
      reply.header('ETag', answer.etag).header('Cache-Control', answer.cacheControl);
      // Not modified: the client's copy is current; no body.
      if (answer.status === 304) return sendNotModified(reply);
      return sendJsonText(reply, answer.body);
    },
  );
};

export const containerRoutes: ApiPlugin = async (app, options) => {
  await app.register(listRoute, options);
  await app.register(detailRoute, options);
  await app.register(eventRoutes, options);
  await app.register(mapRoute, options);
};
