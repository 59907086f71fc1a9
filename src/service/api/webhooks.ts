/**
 * /v2 webhooks, webhook notifications, the event catalog, payload examples and the trigger. The
 * rules live in src/service/webhooks (registrations.ts, trial.ts); these routes type, call and
 * render.
 */
import { Type } from 'typebox';
import { ListDocument, SingleDocument } from '../../shared/api/common';
import { WebhookListDocument, WebhookNotificationListDocument } from '../../shared/api/documents';
import { WEBHOOK_EVENT_NAMES, WebhookResource } from '../../shared/api/resources';
import type { ServiceContext } from '../context';
import { parseInclude, resolveIncludes, type Resource } from '../jsonapi/include';
import { parsePage } from '../jsonapi/pagination';
import { renderWebhook, renderWebhookNotification } from '../resources/render';
import type { WebhookNotificationsTable, WebhooksTable } from '../store/schema';
import { WEBHOOK_EVENT_CATEGORIES } from '../webhooks/catalog';
import {
  createWebhook,
  deleteWebhook,
  editWebhook,
  listNotifications,
  listWebhooks,
  notificationOf,
  webhookOf,
} from '../webhooks/registrations';
import { examplePayload, triggerTestDelivery } from '../webhooks/trial';
import {
  IdParams,
  IncludeQuery,
  PageQuery,
  accountOf,
  requestBase,
  sendCollection,
  sendDocument,
  sendJson,
  type ApiPlugin,
} from './http';

const WEBHOOKS = ['Webhooks'];
const NOTIFICATIONS = ['Webhook Notifications'];

const HeaderItem = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 100 }),
  value: Type.String({ maxLength: 1000 }),
});
const WebhookAttributes = {
  url: Type.String({ minLength: 1, maxLength: 2048, description: 'https endpoint' }),
  active: Type.Boolean({ default: true }),
  events: Type.Array(Type.String(), {
    minItems: 1,
    description: 'Names from GET /webhooks/events',
  }),
  headers: Type.Union([Type.Array(HeaderItem, { maxItems: 20 }), Type.Null()]),
};
const WebhookCreateBody = Type.Object({
  data: Type.Object({
    type: Type.Literal('webhook'),
    attributes: Type.Object({
      url: WebhookAttributes.url,
      active: Type.Optional(WebhookAttributes.active),
      // Optional as in the reference (only url and active are required): absent means every event.
      events: Type.Optional({
        ...WebhookAttributes.events,
        description: 'Names from GET /webhooks/events; absent: every event',
      }),
      headers: Type.Optional(WebhookAttributes.headers),
    }),
  }),
});
const WebhookUpdateBody = Type.Object({
  data: Type.Object({
    type: Type.Optional(Type.Literal('webhook')),
    id: Type.Optional(Type.String()),
    attributes: Type.Object({
      url: Type.Optional(WebhookAttributes.url),
      active: Type.Optional(WebhookAttributes.active),
      events: Type.Optional(WebhookAttributes.events),
      headers: Type.Optional(WebhookAttributes.headers),
    }),
  }),
});

const TriggerBody = Type.Object({
  url: Type.String({ minLength: 1, maxLength: 2048 }),
  event: Type.String(),
  secret: Type.Optional(Type.String({ maxLength: 500 })),
});

const TriggerResult = Type.Object({
  url: Type.String(),
  event: Type.String(),
  succeeded: Type.Boolean(),
  error: Type.Union([Type.String(), Type.Null()]),
  status_code: Type.Union([Type.Integer(), Type.Null()]),
  latency_ms: Type.Integer({ 'x-quayside-extension': true }),
  request_headers: Type.Record(Type.String(), Type.String()),
  request_body: Type.String(),
  response_headers: Type.Union([Type.Record(Type.String(), Type.String()), Type.Null()]),
  response_body: Type.Union([Type.String(), Type.Null()]),
});

const EventCatalogDocument = Type.Object({
  data: Type.Array(
    Type.Object({
      id: Type.String(),
      type: Type.Literal('webhook_event_category'),
      attributes: Type.Object({
        name: Type.String(),
        events: Type.Array(Type.Object({ name: Type.String(), description: Type.String() })),
      }),
    }),
  ),
});

function webhookResource(row: WebhooksTable): Resource {
  const r = renderWebhook(row);
  return { ...r, attributes: { ...r.attributes, created_at: row.created_at } };
}

function notificationResource(row: WebhookNotificationsTable): Resource {
  const r = renderWebhookNotification(row);
  return {
    ...r,
    attributes: {
      ...r.attributes,
      // Quayside extensions: where delivery stands.
      attempt_count: row.attempt_count,
      last_attempt_at: row.last_attempt_at,
      next_attempt_at: row.next_attempt_at,
    },
  };
}

/**
 * Resolves `include` for notifications: resources captured in each stored payload first (so
 * event objects built for the payload resolve too), then the current data.
 */
async function notificationIncludes(
  ctx: ServiceContext,
  accountId: string,
  rows: WebhookNotificationsTable[],
  data: Resource[],
  include: string[][],
): Promise<Resource[]> {
  if (include.length === 0) return [];
  const captured = new Map<string, Resource>();
  for (const row of rows) {
    const doc = JSON.parse(row.payload) as { included?: Resource[] };
    for (const r of doc.included ?? []) captured.set(`${r.type}:${r.id}`, r);
  }
  return resolveIncludes(data, include, async (type, ids) => {
    const found = ids.flatMap((id) => captured.get(`${type}:${id}`) ?? []);
    const missing = ids.filter((id) => !captured.has(`${type}:${id}`));
    return missing.length
      ? [...found, ...(await ctx.render.load(accountId, type, missing))]
      : found;
  });
}

const webhookCollection: ApiPlugin = async (app, { ctx }) => {
  app.get(
    '/webhooks',
    {
      schema: {
        tags: WEBHOOKS,
        summary: 'List webhooks',
        querystring: Type.Object({ ...PageQuery }),
        response: { 200: WebhookListDocument },
      },
    },
    async (request, reply) => {
      const page = parsePage(request.query);
      const { total, rows } = await listWebhooks(ctx, accountOf(request).id, page);
      return sendCollection(request, reply, page, total, { data: rows.map(webhookResource) });
    },
  );

  app.post(
    '/webhooks',
    {
      schema: {
        tags: WEBHOOKS,
        summary: 'Create a webhook',
        description:
          'Registers an https endpoint for the listed events; without `events` it receives every event (the list is stored, so the response names each one). The response carries the generated `secret` that signs every delivery (`X-T49-Webhook-Signature`: hex HMAC-SHA256 of the body; Standard Webhooks `webhook-id`, `webhook-timestamp`, `webhook-signature`).',
        body: WebhookCreateBody,
        response: { 201: SingleDocument(WebhookResource) },
      },
    },
    async (request, reply) => {
      const row = await createWebhook(ctx, accountOf(request).id, request.body.data.attributes);
      return sendDocument(reply, 201, { data: webhookResource(row) });
    },
  );

  app.get(
    '/webhooks/events',
    {
      schema: {
        tags: WEBHOOKS,
        summary: 'List webhook events',
        response: { 200: EventCatalogDocument },
      },
    },
    async (request, reply) => {
      accountOf(request);
      return sendDocument(reply, 200, {
        data: WEBHOOK_EVENT_CATEGORIES.map((c) => ({
          id: c.id,
          type: 'webhook_event_category',
          attributes: { name: c.name, events: c.events },
        })),
      });
    },
  );
};

const triggerRoute: ApiPlugin = async (app, { ctx }) => {
  app.post(
    '/webhooks/trigger',
    {
      schema: {
        tags: WEBHOOKS,
        summary: 'Trigger a webhook test delivery',
        description:
          'Sends an example payload of `event` to `url` now (signed with `secret` when given) and answers with the outcome, without creating a webhook.',
        body: TriggerBody,
        response: { 200: TriggerResult },
      },
    },
    async (request, reply) => {
      accountOf(request);
      const result = await triggerTestDelivery(ctx, request.body);
      return sendJson(reply, 200, result);
    },
  );
};

const webhookMember: ApiPlugin = async (app, { ctx }) => {
  app.get(
    '/webhooks/:id',
    {
      schema: {
        tags: WEBHOOKS,
        summary: 'Get single webhook',
        params: IdParams,
        response: { 200: SingleDocument(WebhookResource) },
      },
    },
    async (request, reply) => {
      const row = await webhookOf(ctx, accountOf(request).id, request.params.id);
      return sendDocument(reply, 200, { data: webhookResource(row) });
    },
  );

  app.patch(
    '/webhooks/:id',
    {
      schema: {
        tags: WEBHOOKS,
        summary: 'Edit a webhook',
        params: IdParams,
        body: WebhookUpdateBody,
        response: { 200: SingleDocument(WebhookResource) },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const row = await editWebhook(ctx, accountOf(request).id, id, request.body.data.attributes);
      return sendDocument(reply, 200, { data: webhookResource(row) });
    },
  );

  app.delete(
    '/webhooks/:id',
    { schema: { tags: WEBHOOKS, summary: 'Delete a webhook', params: IdParams } },
    async (request, reply) => {
      await deleteWebhook(ctx, accountOf(request).id, request.params.id);
      return sendDocument(reply, 200, { meta: {} });
    },
  );
};

const notificationRoutes: ApiPlugin = async (app, { ctx }) => {
  app.get(
    '/webhook_notifications',
    {
      schema: {
        tags: NOTIFICATIONS,
        summary: 'List webhook notifications',
        querystring: Type.Object({ ...PageQuery, ...IncludeQuery }),
        response: { 200: WebhookNotificationListDocument },
      },
    },
    async (request, reply) => {
      const account = accountOf(request);
      const page = parsePage(request.query);
      const include = parseInclude(request.query.include, 'webhook_notification');
      const { total, rows } = await listNotifications(ctx, account.id, page);
      const data = rows.map(notificationResource);
      const included = await notificationIncludes(ctx, account.id, rows, data, include);
      return sendCollection(request, reply, page, total, { data, included });
    },
  );

  app.get(
    '/webhook_notifications/:id',
    {
      schema: {
        tags: NOTIFICATIONS,
        summary: 'Get a single webhook notification',
        description:
          'Includes the Quayside extension `delivery_attempts`: every attempt with its status code, latency and error.',
        params: IdParams,
        querystring: Type.Object({ ...IncludeQuery }),
      },
    },
    async (request, reply) => {
      const account = accountOf(request);
      const include = parseInclude(request.query.include, 'webhook_notification');
      const { row, attempts } = await notificationOf(ctx, account.id, request.params.id);
      const resource = notificationResource(row);
      resource.attributes.delivery_attempts = attempts;
      const included = await notificationIncludes(ctx, account.id, [row], [resource], include);
      return sendDocument(reply, 200, { data: resource, included });
    },
  );
};

const examplesRoute: ApiPlugin = async (app, { ctx }) => {
  app.get(
    '/webhook_notifications/examples',
    {
      schema: {
        tags: NOTIFICATIONS,
        summary: 'Get webhook notification payload examples',
        description:
          'The payload as it would be sent to a webhook endpoint for `event` (made-up data).',
        querystring: Type.Object({
          event: Type.Optional(
            Type.String({ description: `Required. One of: ${WEBHOOK_EVENT_NAMES.join(', ')}` }),
          ),
        }),
        response: { 200: ListDocument(Type.Unknown()) },
      },
    },
    async (request, reply) => {
      accountOf(request);
      const { event, document } = await examplePayload(ctx, request.query.event);
      return sendDocument(reply, 200, {
        data: [document.data],
        included: document.included,
        links: { self: `${requestBase(request)}?event=${encodeURIComponent(event)}` },
        meta: { size: 1, total: 1 },
      });
    },
  );
};

/** Webhooks, their notifications, the event catalog, payload examples and the test trigger. */
export const webhookRoutes: ApiPlugin = async (app, options) => {
  await app.register(webhookCollection, options);
  await app.register(triggerRoute, options);
  await app.register(webhookMember, options);
  await app.register(notificationRoutes, options);
  await app.register(examplesRoute, options);
};
