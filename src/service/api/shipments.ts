import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
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
import { likePattern } from './tracking-requests';

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
  const { db, render } = ctx;

  async function document(accountId: string, rows: ShipmentsTable[], include: string[][]) {
    const data = await render.shipments(rows);
    const included = await resolveIncludes(data, include, (type, ids) =>
      render.load(accountId, type, ids),
    );
    return { data, included };
  }

  async function findOwned(accountId: string, id: string) {
    if (!isUuid(id)) return undefined;
    return db
      .selectFrom('shipments')
      .selectAll()
      .where('id', '=', id)
      .where('account_id', '=', accountId)
      .executeTakeFirst();
  }

  app.get(
    '/shipments',
    {
      schema: {
        tags: ['Shipments'],
        summary: 'List shipments, most recent first',
        querystring: ListQuery,
        response: { 200: ShipmentListDocument },
      },
    },
    async (request, reply) => {
      const account = accountOf(request);
      const query = request.query as Record<string, unknown>;
      const page = parsePage(query);
      const include = parseInclude(query.include, 'shipment');
      let base = db.selectFrom('shipments').where('shipments.account_id', '=', account.id);
      if (typeof query.q === 'string' && query.q) {
        const pattern = likePattern(query.q.toUpperCase());
        const like = sql<string>`${pattern} escape '\\'`;
        base = base.where((eb) =>
          eb.or([
            eb('bill_of_lading_number', 'like', like),
            eb('ref_numbers', 'like', like),
            eb.exists(
              eb
                .selectFrom('containers')
                .select('containers.id')
                .whereRef('containers.shipment_id', '=', 'shipments.id')
                .where('containers.number', 'like', like),
            ),
          ]),
        );
      }
      if (typeof query.number === 'string' && query.number) {
        const number = query.number.toUpperCase();
        base = base.where((eb) =>
          eb.or([
            eb('bill_of_lading_number', '=', number),
            eb('normalized_number', '=', number),
            eb.exists(
              eb
                .selectFrom('tracking_requests')
                .select('tracking_requests.id')
                .whereRef('tracking_requests.shipment_id', '=', 'shipments.id')
                .where('tracking_requests.request_number', '=', number),
            ),
          ]),
        );
      }
      if (typeof query['filter[tracking_stopped]'] === 'boolean') {
        base = query['filter[tracking_stopped]']
          ? base.where('line_tracking_stopped_at', 'is not', null)
          : base.where('line_tracking_stopped_at', 'is', null);
      }
      const since = isoFilter(
        query['filter[updated_at][start]'] as string | undefined,
        'filter[updated_at][start]',
      );
      if (since) base = base.where('updated_at', '>=', since);
      const [{ total }, rows] = await Promise.all([
        base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
        base
          .selectAll()
          .orderBy(since ? 'updated_at' : 'created_at', since ? 'asc' : 'desc')
          .orderBy('id', 'desc')
          .limit(page.size)
          .offset(page.offset)
          .execute(),
      ]);
      const doc = await document(account.id, rows, include);
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
      const include = parseInclude((request.query as { include?: string }).include, 'shipment');
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
        const doc = await document(account.id, [row!], []);
        return sendDocument(reply, 200, { data: doc.data[0] });
      },
    );
  }
}
