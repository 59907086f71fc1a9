/**
 * Trying a webhook target without creating a webhook, callable without HTTP: an example payload
 * of one event (GET /webhook_notifications/examples) and a signed test delivery of it
 * (POST /webhooks/trigger) with the outcome as the receiver answered it.
 */
import { v4 as uuidv4 } from 'uuid';
import { isoString } from '../../shared/clock';
import type { ServiceContext } from '../context';
import { ApiError } from '../jsonapi/errors';
import { isWebhookEvent } from './catalog';
import { exampleNotification } from './examples';
import type { Error422 } from './registrations';
import { USER_AGENT } from './sender';
import { signedHeaders } from './signing';
import { checkWebhookUrl } from './url-guard';

/** The example payload of `event`; a missing or unknown event is a 400 naming the parameter. */
export async function examplePayload(ctx: ServiceContext, event: string | undefined) {
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
  const now = isoString(ctx.clock.now());
  return { event, document: await exampleNotification(event, ctx.render.rendering, ctx.ref, now) };
}

/**
 * Sends an example payload of `event` to `url` now, signed with `secret` when given; an unknown
 * event or a refused target is a 422. The outcome as the trigger answers it.
 */
export async function triggerTestDelivery(
  ctx: ServiceContext,
  request: { url: string; event: string; secret?: string },
) {
  const { url, event, secret } = request;
  const errors: Error422[] = [];
  if (!isWebhookEvent(event)) {
    errors.push({
      detail: `${event} is not a webhook event; see GET /webhooks/events`,
      source: { pointer: '/event' },
    });
  }
  const refusal = await checkWebhookUrl(url, { allowPrivate: ctx.config.allowPrivateWebhooks });
  if (refusal) errors.push({ detail: refusal, source: { pointer: '/url' } });
  if (errors.length || !isWebhookEvent(event)) throw ApiError.many(422, errors);

  const id = uuidv4();
  const now = ctx.clock.now();
  const document = await exampleNotification(event, ctx.render.rendering, ctx.ref, isoString(now), {
    id,
  });
  const payload = JSON.stringify(document);
  const headers = signedHeaders(payload, id, Math.floor(now / 1000), secret);
  const result = await ctx.webhooks.sender.post(url, payload, headers);
  return {
    url,
    event,
    succeeded: result.succeeded,
    error: result.error,
    status_code: result.statusCode,
    latency_ms: result.latencyMs,
    request_headers: { 'Content-Type': 'application/json', 'User-Agent': USER_AGENT, ...headers },
    request_body: payload,
    response_headers: result.responseHeaders,
    response_body: result.responseBody,
  };
}
