/**
 * Verifies DCSA subscription callbacks before anything reaches the tracking engine:
 *
 * - a HEAD probe (sent by carriers when a subscription is created) is answered 204;
 * - `Notification-Signature: sha256=<hex>` must be the HMAC-SHA256 of the raw body under the
 *   subscription's secret (the base64-decoded bytes), compared in constant time;
 * - a body already accepted (same subscription, same signature) is acknowledged but not passed
 *   on again, so a replay or a carrier's retry never applies twice;
 * - the body must be an array of events, each valid per the DCSA event schema.
 *
 * The Fastify plugin exposes `POST|HEAD {prefix}/:subscriptionId` with no API key (carriers
 * authenticate by signature) and hands validated events to the given sink.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsync } from 'fastify';
import { Value } from 'typebox/value';
import { EVENT_SCHEMA_BY_TYPE, type DcsaEvent } from './schema';

export interface CallbackSubscription {
  scac: string;
  /** The shared secret as sent when subscribing (base64). */
  secret: string;
}

export type CallbackVerdict =
  | { kind: 'accepted'; subscriptionId: string; scac: string; events: DcsaEvent[] }
  | { kind: 'replayed'; subscriptionId: string; scac: string }
  | {
      kind: 'refused';
      /** The carrier of the subscription named, when it exists. */
      scac: string | null;
      status: 400 | 401 | 404;
      reason: 'unknown_subscription' | 'bad_signature' | 'malformed_body';
      detail: string;
    };

const MAX_REMEMBERED = 10_000;

export class CallbackVerifier {
  /** Signatures already accepted per subscription, oldest first (bounded). */
  private readonly seen = new Map<string, true>();

  constructor(private readonly lookup: (subscriptionId: string) => CallbackSubscription | null) {}

  verify(
    subscriptionId: string,
    signatureHeader: string | undefined,
    rawBody: Buffer,
  ): CallbackVerdict {
    const subscription = this.lookup(subscriptionId);
    if (!subscription) {
      return {
        kind: 'refused',
        scac: null,
        status: 404,
        reason: 'unknown_subscription',
        detail: 'no such subscription',
      };
    }
    const expected = createHmac('sha256', Buffer.from(subscription.secret, 'base64'))
      .update(rawBody)
      .digest();
    const match = /^sha256=([0-9a-fA-F]{64})$/.exec((signatureHeader ?? '').trim());
    const given = match ? Buffer.from(match[1]!, 'hex') : null;
    if (!given || !timingSafeEqual(given, expected)) {
      return {
        kind: 'refused',
        scac: subscription.scac,
        status: 401,
        reason: 'bad_signature',
        detail: 'Notification-Signature missing or not the HMAC-SHA256 of the body',
      };
    }
    const replayKey = `${subscriptionId}:${expected.toString('hex')}`;
    if (this.seen.has(replayKey))
      return { kind: 'replayed', subscriptionId, scac: subscription.scac };

    let body: unknown;
    try {
      body = JSON.parse(rawBody.toString('utf8'));
    } catch {
      return {
        kind: 'refused',
        scac: subscription.scac,
        status: 400,
        reason: 'malformed_body',
        detail: 'body is not JSON',
      };
    }
    if (!Array.isArray(body)) {
      return {
        kind: 'refused',
        scac: subscription.scac,
        status: 400,
        reason: 'malformed_body',
        detail: 'expected an array of events',
      };
    }
    const events: DcsaEvent[] = [];
    for (const [index, event] of body.entries()) {
      const type = (event as { eventType?: unknown } | null)?.eventType;
      const schema =
        typeof type === 'string' && Object.hasOwn(EVENT_SCHEMA_BY_TYPE, type)
          ? EVENT_SCHEMA_BY_TYPE[type as keyof typeof EVENT_SCHEMA_BY_TYPE]
          : null;
      if (!schema || !Value.Check(schema, event)) {
        // All or nothing: a half-applied notification would be harder to reason about than a retry.
        return {
          kind: 'refused',
          scac: subscription.scac,
          status: 400,
          reason: 'malformed_body',
          detail: `event ${index} is not a valid DCSA event`,
        };
      }
      events.push(event as DcsaEvent);
    }
    this.seen.set(replayKey, true);
    if (this.seen.size > MAX_REMEMBERED) {
      const oldest = this.seen.keys().next().value;
      if (oldest !== undefined) this.seen.delete(oldest);
    }
    return { kind: 'accepted', subscriptionId, scac: subscription.scac, events };
  }
}

export interface CallbackPluginOptions {
  verifier: CallbackVerifier;
  /** Receives validated events; the service applies them through its usual path. */
  sink: (delivery: { scac: string; subscriptionId: string; events: DcsaEvent[] }) => Promise<void>;
  /** Told about every verdict, for metrics and the audit log. */
  onVerdict?: (verdict: CallbackVerdict) => void;
  /** Largest body accepted, in bytes. */
  bodyLimit?: number;
}

export const dcsaCallbackPlugin: FastifyPluginAsync<CallbackPluginOptions> = async (app, opts) => {
  // Signatures are over the exact bytes received, so the body stays raw.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    '*',
    { parseAs: 'buffer', bodyLimit: opts.bodyLimit ?? 1_000_000 },
    (_r, body, done) => {
      done(null, body);
    },
  );

  // Not part of the /v2 API description: carriers call these, clients never do.
  app.head<{ Params: { subscriptionId: string } }>(
    '/:subscriptionId',
    { schema: { hide: true } },
    (_req, reply) => reply.status(204).send(),
  );

  app.post<{ Params: { subscriptionId: string }; Body: Buffer }>(
    '/:subscriptionId',
    { schema: { hide: true } },
    async (req, reply) => {
      const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      const signature = req.headers['notification-signature'];
      const verdict = opts.verifier.verify(
        req.params.subscriptionId,
        Array.isArray(signature) ? signature[0] : signature,
        raw,
      );
      opts.onVerdict?.(verdict);
      if (verdict.kind === 'refused') {
        return reply
          .status(verdict.status)
          .type('application/vnd.api+json')
          .send({
            errors: [
              {
                status: String(verdict.status),
                title: verdict.reason.replace(/_/g, ' '),
                detail: verdict.detail,
                source:
                  verdict.reason === 'bad_signature' ? { header: 'Notification-Signature' } : {},
              },
            ],
          });
      }
      if (verdict.kind === 'accepted') {
        await opts.sink({
          scac: verdict.scac,
          subscriptionId: verdict.subscriptionId,
          events: verdict.events,
        });
      }
      return reply.status(204).send();
    },
  );
};
