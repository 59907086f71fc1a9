import { Type, type Static } from 'typebox';
import { ShipmentDocument, ShipmentListDocument } from '../../shared/api/documents';
import { extension } from '../../shared/api/resources';
import { checkedTrucker } from './container-actions';
import { ApiError, notFound } from '../jsonapi/errors';
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

export const shipmentRoutes: ApiPlugin = async (app, { ctx }) => {
  const { render } = ctx;
  const reads = ctx.stores.reads;

  async function document(accountId: string, data: Resource[], rawInclude: unknown) {
    const includes = splitCustomFieldsInclude(rawInclude);
    const include = parseInclude(includes.rest, 'shipment');
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
      const query = request.query;
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
      const doc = await document(account.id, await render.shipments(rows), query.include);
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
      const include = request.query.include;
      parseInclude(splitCustomFieldsInclude(include).rest, 'shipment');
      const readAt = render.generation();
      const id = request.params.id;
      // The key is enough while the rendered copy is current: the full row is read on a miss.
      const key = isUuid(id) ? await reads.ownedShipmentKey(account.id, id) : undefined;
      const data = key ? await render.shipmentsByKey([key], readAt) : [];
      if (data.length === 0) throw notFound();
      const doc = await document(account.id, data, include);
      return sendDocument(reply, 200, { data: doc.data[0], included: doc.included });
    },
  );

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
      const id = request.params.id;
      if (!(await findOwned(account.id, id))) throw notFound();
      const { attributes, relationships } = request.body.data;
      const clean = (list: string[] | undefined) =>
        list && [...new Set(list.map((v) => v.trim()).filter(Boolean))];
      let customer: { id: string; companyName: string } | null | undefined;
      const customerRef = relationships?.customer?.data;
      if (customerRef === null) customer = null;
      else if (customerRef) {
        const party = isUuid(customerRef.id)
          ? await ctx.stores.parties.owned(account.id, customerRef.id)
          : undefined;
        if (!party) {
          throw new ApiError(422, `No party with id ${customerRef.id}`, {
            code: 'not_found',
            source: { pointer: '/data/relationships/customer/data/id' },
          });
        }
        customer = { id: party.id, companyName: party.company_name };
      }
      const truckerRef = relationships?.trucker;
      const truckerId = !truckerRef
        ? undefined
        : truckerRef.data === null
          ? null
          : await checkedTrucker(
              ctx,
              account.id,
              truckerRef.data.id,
              '/data/relationships/trucker/data/id',
            );
      if (attributes.custom_fields) {
        await ctx.customFields.setMany(
          account.id,
          { type: 'shipment', id },
          attributes.custom_fields,
          '/data/attributes/custom_fields',
        );
      }
      await ctx.stores.edits.editShipment(account.id, id, {
        refNumbers: clean(attributes.ref_numbers),
        tags: clean(attributes.tags),
        customer,
      });
      if (truckerId !== undefined) {
        await ctx.stores.edits.assignShipmentTrucker(account.id, id, truckerId);
      }
      const row = await findOwned(account.id, id);
      const doc = await document(account.id, await render.shipments([row!]), 'custom_fields');
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
        const id = request.params.id;
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
        const doc = await document(account.id, await render.shipments([row!]), undefined);
        return sendDocument(reply, 200, { data: doc.data[0] });
      },
    );
  }
};
