import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { ShipmentDocument, ShipmentListDocument } from '../../shared/api/documents';
import { extension } from '../../shared/api/resources';
import type { ServiceContext } from '../context';
import { ApiError, notFound } from '../jsonapi/errors';
import { parseInclude, resolveIncludes } from '../jsonapi/include';
import { parsePage } from '../jsonapi/pagination';
import type { ShipmentsTable } from '../store/schema';
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
import {
  CUSTOM_FIELD_FILTER_DESCRIPTION,
  splitCustomFieldsInclude,
  withCustomFields,
} from '../custom-fields';

const ListQuery = Type.Object({
  ...PageQuery,
  ...IncludeQuery,
  q: Type.Optional(
    Type.String({ description: 'Matches bill of lading, reference and container numbers.' }),
  ),
  number: Type.Optional(Type.String({ description: 'The original tracking request number.' })),
  'filter[tracking_stopped]': Type.Optional(Type.Boolean()),
  'filter[updated_at][start]': Type.Optional(
    Type.String({
      format: 'date-time',
      description: 'Only shipments updated at or after.',
      ...extension,
    }),
  ),
});

export function registerShipmentRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  const { render } = ctx;
  const reads = ctx.stores.reads;

  async function document(accountId: string, rows: ShipmentsTable[], rawInclude: unknown) {
    const includes = splitCustomFieldsInclude(rawInclude);
    const include = parseInclude(includes.rest, 'shipment');
    const data = await render.shipments(rows);
    const included = await resolveIncludes(data, include, (type, ids) =>
      render.load(accountId, type, ids),
    );
    return withCustomFields(ctx, accountId, 'shipment', includes, data, included);
  }

  async function findOwned(accountId: string, id: string) {
    if (!isUuid(id)) return undefined;
    return reads.ownedShipment(accountId, id);
  }

  app.get(
    '/shipments',
    {
      schema: {
        tags: ['Shipments'],
        summary: 'List shipments, most recent first',
        description: CUSTOM_FIELD_FILTER_DESCRIPTION,
        querystring: ListQuery,
        response: { 200: ShipmentListDocument },
      },
    },
    async (request, reply) => {
      const account = accountOf(request);
      const query = request.query as Record<string, unknown>;
      const page = parsePage(query);
      // Checked before the list is read: a bad include is a 400 either way.
      parseInclude(splitCustomFieldsInclude(query.include).rest, 'shipment');
      const customFields = await ctx.customFields.listFilters(account.id, 'shipment', query);
      const since = isoFilter(
        query['filter[updated_at][start]'] as string | undefined,
        'filter[updated_at][start]',
      );
      const stopped = query['filter[tracking_stopped]'];
      const { total, rows } = await reads.shipments(
        account.id,
        {
          text: typeof query.q === 'string' && query.q ? query.q.toUpperCase() : undefined,
          number:
            typeof query.number === 'string' && query.number
              ? query.number.toUpperCase()
              : undefined,
          trackingStopped: typeof stopped === 'boolean' ? stopped : undefined,
          updatedSince: since,
          customFields,
        },
        page,
      );
      const doc = await document(account.id, rows, query.include);
      return sendCollection(request, reply, page, Number(total), doc);
    },
  );

  app.get(
    '/shipments/:id',
    {
      schema: {
        tags: ['Shipments'],
        summary: 'Get a shipment',
        params: IdParams,
        querystring: Type.Object({ ...IncludeQuery }),
        response: { 200: ShipmentDocument },
      },
    },
    async (request, reply) => {
      const account = accountOf(request);
      const include = (request.query as { include?: string }).include;
      parseInclude(splitCustomFieldsInclude(include).rest, 'shipment');
      const row = await findOwned(account.id, (request.params as { id: string }).id);
      if (!row) throw notFound();
      const doc = await document(account.id, [row], include);
      return sendDocument(reply, 200, { data: doc.data[0], included: doc.included });
    },
  );

  for (const action of ['stop_tracking', 'resume_tracking'] as const) {
    app.patch(
      `/shipments/:id/${action}`,
      {
        schema: {
          tags: ['Shipments'],
          summary:
            action === 'stop_tracking' ? 'Stop tracking a shipment' : 'Resume tracking a shipment',
          params: IdParams,
          response: { 200: ShipmentDocument },
        },
      },
      async (request, reply) => {
        const account = accountOf(request);
        const id = (request.params as { id: string }).id;
        const existing = await findOwned(account.id, id);
        if (!existing) throw notFound();
        if (
          action === 'resume_tracking' &&
          existing.line_tracking_stopped_reason === 'booking_cancelled'
        ) {
          throw new ApiError(422, 'Tracking cannot be resumed for a cancelled booking');
        }
        await ctx.tracking.setLineTracking(
          account.id,
          id,
          action === 'stop_tracking' ? 'cancelled_by_user' : null,
        );
        const row = await findOwned(account.id, id);
        const doc = await document(account.id, [row!], undefined);
        return sendDocument(reply, 200, { data: doc.data[0] });
      },
    );
  }
}
