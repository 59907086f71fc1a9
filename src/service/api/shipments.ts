import { Type, type Static } from 'typebox';
import { ShipmentDocument, ShipmentListDocument } from '../../shared/api/documents';
import { extension } from '../../shared/api/resources';
import { editShipment, setShipmentTracking } from '../tracking/shipment-edits';
import type { ServiceContext } from '../context';
import type { ReadMark } from '../store/key-memo';
import { notFound } from '../jsonapi/errors';
import { parseInclude, resolveIncludes, type Resource } from '../jsonapi/include';
import { parsePage } from '../jsonapi/pagination';
import {
  IdParams,
  IncludeQuery,
  PageQuery,
  accountOf,
  isUuid,
  isoFilter,
  sendCollection,
  sendDocument,
  type ApiPlugin,
} from './http';
import {
  CUSTOM_FIELD_FILTER_DESCRIPTION,
  splitCustomFieldsInclude,
  withCustomFields,
} from '../custom-fields';

const ShipmentUpdateBody = Type.Object({
  data: Type.Object({
    type: Type.Optional(Type.Literal('shipment')),
    id: Type.Optional(Type.String()),
    attributes: Type.Object({
      ref_numbers: Type.Optional(Type.Array(Type.String({ maxLength: 200 }), { maxItems: 50 })),
      tags: Type.Optional(Type.Array(Type.String({ maxLength: 100 }), { maxItems: 50 })),
      custom_fields: Type.Optional(
        Type.Record(Type.String(), Type.Unknown(), {
          description: 'Values by api_slug (Quayside extension); null removes one.',
        }),
      ),
    }),
    relationships: Type.Optional(
      Type.Object({
        customer: Type.Optional(
          Type.Object({
            data: Type.Union([
              Type.Object({ type: Type.Literal('party'), id: Type.String() }),
              Type.Null(),
            ]),
          }),
        ),
        trucker: Type.Optional(
          Type.Object(
            {
              data: Type.Union([
                Type.Object({ type: Type.Literal('party'), id: Type.String() }),
                Type.Null(),
              ]),
            },
            {
              'x-quayside-extension': true,
              description:
                "Assigns every container of the shipment to one of the account's truckers (null clears it).",
            },
          ),
        ),
      }),
    ),
  }),
});
type ShipmentUpdateBody = Static<typeof ShipmentUpdateBody>;

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

/** Rendered shipments with their includes and custom fields. */
async function shipmentsDocument(
  ctx: ServiceContext,
  accountId: string,
  data: Resource[],
  rawInclude: unknown,
  /** The request's read mark (AccountReads.mark), where it took one. */
  mark?: ReadMark,
) {
  const includes = splitCustomFieldsInclude(rawInclude);
  const include = parseInclude(includes.rest, 'shipment');
  const included = await resolveIncludes(data, include, (type, ids) =>
    ctx.render.load(accountId, type, ids, mark),
  );
  return withCustomFields(ctx, accountId, 'shipment', includes, data, included);
}

const listRoute: ApiPlugin = async (app, { ctx }) => {
  const { render } = ctx;
  const reads = ctx.stores.reads;
  const document = (accountId: string, data: Resource[], rawInclude: unknown) =>
    shipmentsDocument(ctx, accountId, data, rawInclude);

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
      const query = request.query;
      const page = parsePage(query);
      // Checked before the list is read: a bad include is a 400 either way.
      parseInclude(splitCustomFieldsInclude(query.include).rest, 'shipment');
      const customFields = await ctx.customFields.listFilters(account.id, 'shipment', query);
      const since = isoFilter(query['filter[updated_at][start]'], 'filter[updated_at][start]');
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
      const doc = await document(account.id, await render.shipments(rows), query.include);
      return sendCollection(request, reply, page, Number(total), doc);
    },
  );
};

/** GET /shipments/:id with its includes and custom fields. */
const detailRoute: ApiPlugin = async (app, { ctx }) => {
  const { render } = ctx;
  const reads = ctx.stores.reads;

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
      const include = request.query.include;
      parseInclude(splitCustomFieldsInclude(include).rest, 'shipment');
      const readAt = render.generation();
      const mark = reads.mark();
      const id = request.params.id;
      // The key is enough while the rendered copy is current: the full row is read on a miss.
      const key = isUuid(id) ? await reads.ownedShipmentKey(account.id, id, mark) : undefined;
      const data = key ? await render.shipmentsByKey([key], readAt) : [];
      if (data.length === 0) throw notFound();
      const doc = await shipmentsDocument(ctx, account.id, data, include, mark);
      return sendDocument(reply, 200, { data: doc.data[0], included: doc.included });
    },
  );
};

/** PATCH /shipments/:id and stopping or resuming its tracking. */
const editRoutes: ApiPlugin = async (app, { ctx }) => {
  const { render } = ctx;
  const document = (accountId: string, data: Resource[], rawInclude: unknown) =>
    shipmentsDocument(ctx, accountId, data, rawInclude);

  app.patch(
    '/shipments/:id',
    {
      schema: {
        tags: ['Shipments'],
        summary: 'Edit a shipment: ref numbers, tags, customer (party) and custom fields',
        description:
          "Quayside extensions: `relationships.trucker` assigns every container of the shipment to a trucker party (null clears it); `relationships.customer` names one of the account's parties (null clears it; the shipment shows its company name as customer_name) and `attributes.custom_fields` sets custom fields by api_slug (null removes one). Every value is checked before anything is written.",
        params: IdParams,
        body: ShipmentUpdateBody,
        response: { 200: ShipmentDocument },
      },
    },
    async (request, reply) => {
      const account = accountOf(request);
      const row = await editShipment(ctx, account.id, request.params.id, request.body.data);
      const doc = await document(account.id, await render.shipments([row]), 'custom_fields');
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
        const row = await setShipmentTracking(ctx, account.id, request.params.id, action);
        const doc = await document(account.id, await render.shipments([row]), undefined);
        return sendDocument(reply, 200, { data: doc.data[0] });
      },
    );
  }
};

export const shipmentRoutes: ApiPlugin = async (app, options) => {
  await app.register(listRoute, options);
  await app.register(detailRoute, options);
  await app.register(editRoutes, options);
};
