/** /v2 webhooks, webhook notifications, the event catalog, payload examples and the trigger. */
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { v4 as uuidv4 } from 'uuid';
import { ListDocument, SingleDocument } from '../../shared/api/common';
import { WebhookListDocument, WebhookNotificationListDocument } from '../../shared/api/documents';
import { WEBHOOK_EVENT_NAMES, WebhookResource } from '../../shared/api/resources';
import { isoString } from '../../shared/clock';
import type { ServiceContext } from '../context';
import { ApiError, notFound, type JsonApiErrorObject } from '../jsonapi/errors';
import { parseInclude, resolveIncludes, type Resource } from '../jsonapi/include';
import { parsePage } from '../jsonapi/pagination';
import type { WebhookNotificationsTable, WebhooksTable } from '../store/schema';
import { WEBHOOK_EVENT_CATEGORIES, isWebhookEvent } from '../webhooks/catalog';
import { exampleNotification } from '../webhooks/examples';
import { USER_AGENT } from '../webhooks/sender';
import { webhookHeaderErrors } from '../webhooks/header-rules';
import { generateSecret, signedHeaders } from '../webhooks/signing';
import { checkWebhookUrl } from '../webhooks/url-guard';
import {
  IdParams,
  IncludeQuery,
  PageQuery,
  accountOf,
  isUuid,
  requestBase,
  sendCollection,
  sendDocument,
} from './http';
import { renderWebhook, renderWebhookNotification } from '../resources/render';

type Error422 = Omit<JsonApiErrorObject, 'status' | 'title'>;

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
interface WebhookInput {
  url?: string;
  active?: boolean;
  events?: string[];
  headers?: { name: string; value: string }[] | null;
}

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

/** Checks what the schema cannot: url target, event names, header names and values. */
async function validateWebhookInput(
  input: WebhookInput,
  ctx: ServiceContext,
  pointerBase: string,
): Promise<void> {
  const errors: Error422[] = [];
  if (input.url !== undefined) {
    const refusal = await checkWebhookUrl(input.url, {
      allowPrivate: ctx.config.allowPrivateWebhooks,
    });
    if (refusal) errors.push({ detail: refusal, source: { pointer: `${pointerBase}/url` } });
  }
  input.events?.forEach((name, i) => {
    if (!isWebhookEvent(name)) {
      errors.push({
        detail: `${name} is not a webhook event; see GET /webhooks/events`,
        source: { pointer: `${pointerBase}/events/${i}` },
      });
    }
  });
  errors.push(...webhookHeaderErrors(input.headers, pointerBase));
  if (errors.length) throw ApiError.many(422, errors);
}

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

/** Webhooks, their notifications, the event catalog, payload examples and the test trigger. */
export function registerWebhookRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  const { render, webhooks, clock, ref } = ctx;
  const store = ctx.stores.webhooks;

  async function ownWebhook(accountId: string, id: string): Promise<WebhooksTable> {
    const row = isUuid(id) ? await store.get(accountId, id) : undefined;
    if (!row) throw notFound(`No webhook ${id}`);
    return row;
  }

  /**
   * Resolves `include` for notifications: resources captured in each stored payload first (so
   * event objects built for the payload resolve too), then the current data.
   */
  async function notificationIncludes(
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
      return missing.length ? [...found, ...(await render.load(accountId, type, missing))] : found;
    });
  }

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
      const { total, rows } = await store.list(account.id, page);
      return sendCollection(request, reply, page, total, {
        data: rows.map(webhookResource),
      });
    },
  );

  app.post(
    '/webhooks',
    {
      schema: {
        tags: ['Webhooks'],
        summary: 'Create a webhook',
        description:
          'Registers an https endpoint for the listed events; without `events` it receives every event (the list is stored, so the response names each one). The response carries the generated `secret` that signs every delivery (`X-T49-Webhook-Signature`: hex HMAC-SHA256 of the body; Standard Webhooks `webhook-id`, `webhook-timestamp`, `webhook-signature`).',
        body: WebhookCreateBody,
        response: { 201: SingleDocument(WebhookResource) },
      },
    },
    async (request, reply) => {
      const account = accountOf(request);
      const { attributes } = (request.body as { data: { attributes: WebhookInput } }).data;
      await validateWebhookInput(attributes, ctx, '/data/attributes');
      const now = isoString(clock.now());
      const row = await store.create(account.id, {
        url: attributes.url!,
        active: attributes.active !== false,
        events: attributes.events ?? [...WEBHOOK_EVENT_NAMES],
        secret: generateSecret(),
        headers: attributes.headers,
        now,
      });
      return sendDocument(reply, 201, { data: webhookResource(row) });
    },
  );

  app.get(
    '/webhooks/events',
    {
      schema: {
        tags: ['Webhooks'],
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

  app.post(
    '/webhooks/trigger',
    {
      schema: {
        tags: ['Webhooks'],
        summary: 'Trigger a webhook test delivery',
        description:
          'Sends an example payload of `event` to `url` now (signed with `secret` when given) and answers with the outcome, without creating a webhook.',
        body: TriggerBody,
        response: { 200: TriggerResult },
      },
    },
    async (request, reply) => {
      accountOf(request);
      const body = request.body as { url: string; event: string; secret?: string };
      const errors: Error422[] = [];
      if (!isWebhookEvent(body.event)) {
        errors.push({
          detail: `${body.event} is not a webhook event; see GET /webhooks/events`,
          source: { pointer: '/event' },
        });
      }
      const refusal = await checkWebhookUrl(body.url, {
        allowPrivate: ctx.config.allowPrivateWebhooks,
      });
      if (refusal) errors.push({ detail: refusal, source: { pointer: '/url' } });
      if (errors.length || !isWebhookEvent(body.event)) throw ApiError.many(422, errors);

      const id = uuidv4();
      const document = await exampleNotification(
        body.event,
        render.rendering,
        ref,
        isoString(clock.now()),
        {
          id,
        },
      );
      const payload = JSON.stringify(document);
      const headers = signedHeaders(payload, id, Math.floor(clock.now() / 1000), body.secret);
      const result = await webhooks.sender.post(body.url, payload, headers);
      return reply
        .code(200)
        .type('application/json')
        .send(
          JSON.stringify({
            url: body.url,
            event: body.event,
            succeeded: result.succeeded,
            error: result.error,
            status_code: result.statusCode,
            latency_ms: result.latencyMs,
            request_headers: {
              'Content-Type': 'application/json',
              'User-Agent': USER_AGENT,
              ...headers,
            },
            request_body: payload,
            response_headers: result.responseHeaders,
            response_body: result.responseBody,
          }),
        );
    },
  );

  app.get(
    '/webhooks/:id',
    {
      schema: {
        tags: ['Webhooks'],
        summary: 'Get single webhook',
        params: IdParams,
        response: { 200: SingleDocument(WebhookResource) },
      },
    },
    async (request, reply) => {
      const account = accountOf(request);
      const row = await ownWebhook(account.id, (request.params as { id: string }).id);
      return sendDocument(reply, 200, { data: webhookResource(row) });
    },
  );

  app.patch(
    '/webhooks/:id',
    {
      schema: {
        tags: ['Webhooks'],
        summary: 'Edit a webhook',
        params: IdParams,
        body: WebhookUpdateBody,
        response: { 200: SingleDocument(WebhookResource) },
      },
    },
    async (request, reply) => {
      const account = accountOf(request);
      const row = await ownWebhook(account.id, (request.params as { id: string }).id);
      const { attributes } = (request.body as { data: { attributes: WebhookInput } }).data;
      await validateWebhookInput(attributes, ctx, '/data/attributes');
      const updated = await store.update(row, {
        url: attributes.url,
        active: attributes.active,
        events: attributes.events,
        headers: attributes.headers,
        now: isoString(clock.now()),
      });
      // Re-activated or re-pointed: pending notifications may be deliverable now.
      webhooks.worker.kick();
      return sendDocument(reply, 200, { data: webhookResource(updated) });
    },
  );

  app.delete(
    '/webhooks/:id',
    {
      schema: { tags: ['Webhooks'], summary: 'Delete a webhook', params: IdParams },
    },
    async (request, reply) => {
      const account = accountOf(request);
      const row = await ownWebhook(account.id, (request.params as { id: string }).id);
      await store.delete(row.id);
      return sendDocument(reply, 200, { meta: {} });
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
      const { total, rows } = await store.listNotifications(account.id, page);
      const data = rows.map(notificationResource);
      const included = await notificationIncludes(account.id, rows, data, include);
      return sendCollection(request, reply, page, total, { data, included });
    },
  );

  app.get(
    '/webhook_notifications/examples',
    {
      schema: {
        tags: ['Webhook Notifications'],
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
      const event = (request.query as { event?: string }).event;
      // As the real service: an example is of one event, which must be named.
      if (event === undefined || event === '') {
        throw new ApiError(400, 'event is required; see GET /webhooks/events', {
          source: { parameter: 'event' },
        });
      }
      if (!isWebhookEvent(event)) {
        throw new ApiError(400, `${event} is not a webhook event; see GET /webhooks/events`, {
          source: { parameter: 'event' },
        });
      }
      const doc = await exampleNotification(event, render.rendering, ref, isoString(clock.now()));
      return sendDocument(reply, 200, {
        data: [doc.data],
        included: doc.included,
        links: { self: `${requestBase(request)}?event=${encodeURIComponent(event)}` },
        meta: { size: 1, total: 1 },
      });
    },
  );

  app.get(
    '/webhook_notifications/:id',
    {
      schema: {
        tags: ['Webhook Notifications'],
        summary: 'Get a single webhook notification',
        description:
          'Includes the Quayside extension `delivery_attempts`: every attempt with its status code, latency and error.',
        params: IdParams,
        querystring: Type.Object({ ...IncludeQuery }),
      },
    },
    async (request, reply) => {
      const account = accountOf(request);
      const { id } = request.params as { id: string };
      const include = parseInclude(
        (request.query as { include?: string }).include,
        'webhook_notification',
      );
      const row = isUuid(id) ? await store.notification(account.id, id) : undefined;
      if (!row) throw notFound(`No webhook notification ${id}`);
      const attempts = await store.deliveryAttempts(row.id);
      const resource = notificationResource(row);
      resource.attributes.delivery_attempts = attempts;
      const included = await notificationIncludes(account.id, [row], [resource], include);
      return sendDocument(reply, 200, { data: resource, included });
    },
  );
}
