/**
 * The account's webhooks as use cases, callable without HTTP: what a webhook may be (a target
 * the URL guard allows, known event names, headers the header rules allow), creating one with
 * its signing secret, editing, deleting, and the account's notifications with their attempts.
 */
import { WEBHOOK_EVENT_NAMES } from '../../shared/api/resources';
import { isoString } from '../../shared/clock';
import type { ServiceContext } from '../context';
import { ApiError, notFound, type JsonApiErrorObject } from '../jsonapi/errors';
import { isUuid } from '../jsonapi/ids';
import type { Page } from '../jsonapi/pagination';
import type { WebhooksTable } from '../store/schema';
import { isWebhookEvent } from './catalog';
import { webhookHeaderErrors } from './header-rules';
import { generateSecret } from './signing';
import { checkWebhookUrl } from './url-guard';

export type Error422 = Omit<JsonApiErrorObject, 'status' | 'title'>;

/** What a request may set on a webhook (every member optional: an edit names what changes). */
export interface WebhookInput {
  url?: string;
  active?: boolean;
  events?: string[];
  headers?: { name: string; value: string }[] | null;
}

const ATTRIBUTES = '/data/attributes';

/** Checks what the schema cannot: url target, event names, header names and values. */
async function validateWebhookInput(
  ctx: ServiceContext,
  input: WebhookInput,
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

/** One page of the account's webhooks. */
export function listWebhooks(ctx: ServiceContext, accountId: string, page: Page) {
  return ctx.stores.webhooks.list(accountId, page);
}

/** The account's webhook with this id; any other is a 404. */
export async function webhookOf(
  ctx: ServiceContext,
  accountId: string,
  id: string,
): Promise<WebhooksTable> {
  const row = isUuid(id) ? await ctx.stores.webhooks.get(accountId, id) : undefined;
  if (!row) throw notFound(`No webhook ${id}`);
  return row;
}

/** A new webhook with a generated secret; without `events` it receives every event. */
export async function createWebhook(
  ctx: ServiceContext,
  accountId: string,
  input: WebhookInput & { url: string },
): Promise<WebhooksTable> {
  await validateWebhookInput(ctx, input, ATTRIBUTES);
  return ctx.stores.webhooks.create(accountId, {
    url: input.url,
    active: input.active !== false,
    events: input.events ?? [...WEBHOOK_EVENT_NAMES],
    secret: generateSecret(),
    headers: input.headers,
    now: isoString(ctx.clock.now()),
  });
}

/** Edits the account's webhook; pending notifications are looked at again at once. */
export async function editWebhook(
  ctx: ServiceContext,
  accountId: string,
  id: string,
  input: WebhookInput,
): Promise<WebhooksTable> {
  const row = await webhookOf(ctx, accountId, id);
  await validateWebhookInput(ctx, input, ATTRIBUTES);
  const updated = await ctx.stores.webhooks.update(row, {
    url: input.url,
    active: input.active,
    events: input.events,
    headers: input.headers,
    now: isoString(ctx.clock.now()),
  });
  // Re-activated or re-pointed: pending notifications may be deliverable now.
  ctx.webhooks.worker.kick();
  return updated;
}

/** Deletes the account's webhook with its notifications. */
export async function deleteWebhook(ctx: ServiceContext, accountId: string, id: string) {
  const row = await webhookOf(ctx, accountId, id);
  await ctx.stores.webhooks.delete(row.id);
}

/** One page of the account's webhook notifications. */
export function listNotifications(ctx: ServiceContext, accountId: string, page: Page) {
  return ctx.stores.webhooks.listNotifications(accountId, page);
}

/** The account's notification with this id and every delivery attempt; any other is a 404. */
export async function notificationOf(ctx: ServiceContext, accountId: string, id: string) {
  const row = isUuid(id) ? await ctx.stores.webhooks.notification(accountId, id) : undefined;
  if (!row) throw notFound(`No webhook notification ${id}`);
  return { row, attempts: await ctx.stores.webhooks.deliveryAttempts(row.id) };
}
