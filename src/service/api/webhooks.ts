import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { WebhookListDocument, WebhookNotificationListDocument } from '../../shared/api/documents';
import type { ServiceContext } from '../context';
import { parseInclude, resolveIncludes } from '../jsonapi/include';
import { collectionLinks, parsePage } from '../jsonapi/pagination';
import { IncludeQuery, PageQuery, accountOf, requestBase, sendDocument } from './http';
import { renderWebhook, renderWebhookNotification } from './render';

/** Read side of webhooks; registration and delivery live with the webhook delivery work. */
export function registerWebhookRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  const { db, render } = ctx;

  app.get(
    '/webhooks',
    {
      schema: {
        tags: ['Webhooks'],
        summary: 'List webhooks',
        querystring: Type.Object({ ...PageQuery }),
        response: { 200: WebhookListDocument },
      },
    },
    async (request, reply) => {
      const account = accountOf(request);
      const query = request.query as Record<string, unknown>;
      const page = parsePage(query);
      const base = db.selectFrom('webhooks').where('account_id', '=', account.id);
      const [{ total }, rows] = await Promise.all([
        base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
        base
          .selectAll()
          .orderBy('created_at', 'desc')
          .limit(page.size)
          .offset(page.offset)
          .execute(),
      ]);
      return sendDocument(reply, 200, {
        data: rows.map(renderWebhook),
        links: collectionLinks(requestBase(request), query, page, Number(total)),
        meta: { size: page.size, total: Number(total) },
      });
    },
  );

  app.get(
    '/webhook_notifications',
    {
      schema: {
        tags: ['Webhook Notifications'],
        summary: 'List webhook notifications',
        querystring: Type.Object({ ...PageQuery, ...IncludeQuery }),
        response: { 200: WebhookNotificationListDocument },
      },
    },
    async (request, reply) => {
      const account = accountOf(request);
      const query = request.query as Record<string, unknown>;
      const page = parsePage(query);
      const include = parseInclude(query.include, 'webhook_notification');
      const base = db.selectFrom('webhook_notifications').where('account_id', '=', account.id);
      const [{ total }, rows] = await Promise.all([
        base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
        base
          .selectAll()
          .orderBy('created_at', 'desc')
          .limit(page.size)
          .offset(page.offset)
          .execute(),
      ]);
      const data = rows.map(renderWebhookNotification);
      const included = await resolveIncludes(data, include, (type, ids) =>
        render.load(account.id, type, ids),
      );
      return sendDocument(reply, 200, {
        data,
        included,
        links: collectionLinks(requestBase(request), query, page, Number(total)),
        meta: { size: page.size, total: Number(total) },
      });
    },
  );
}
