/**
 * Verifies DCSA subscription callbacks before anything reaches the tracking engine:
 *
 * - a HEAD probe (sent by carriers when a subscription is created) is answered 204;
 * - `Notification-Signature: sha256=<hex>` must be the HMAC-SHA256 of the raw body under the
 *   subscription's secret (the base64-decoded bytes), compared in constant time;
 * - a body already accepted (same subscription, same signature) is acknowledged but not passed
 *   on again, so a replay or a carrier's retry never applies twice; the service remembers the
 *   accepted bodies in its store, so this holds across instances and restarts;
 * - the body must be an array of events; each is taken on its own (`checkEvent`, as for the
 *   polled feed): an unusable one is skipped and named in the verdict, the others applied.
 *
 * The Fastify plugin exposes `POST|HEAD {prefix}/:subscriptionId` with no API key (carriers
 * authenticate by signature) and hands validated events to the given sink.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsync } from 'fastify';
import { checkEvent, type DroppedEvent } from './client';
import type { DcsaEvent } from '../../../shared/feeds/dcsa';

export interface CallbackSubscription {
  scac: string;
  /** The shared secret as sent when subscribing (base64). */
  secret: string;
}

export type CallbackVerdict =
  | {
      kind: 'accepted';
      subscriptionId: string;
      scac: string;
      events: DcsaEvent[];
      /** Events of the body skipped as unusable (page 1, their index in the body). */
      skipped: DroppedEvent[];
      /** The body's signature (hex), its key in the replay record. */
      digest: string;
    }
  | { kind: 'replayed'; subscriptionId: string; scac: string }
  | {
      kind: 'refused';
      /** The carrier of the subscription named, when it exists. */
      scac: string | null;
      status: 400 | 401 | 404;
      reason: 'unknown_subscription' | 'bad_signature' | 'malformed_body';
      detail: string;
    };

/**
 * Where the bodies already accepted are remembered. The service keeps them in its store
 * (`storedReplayRecord`), shared by every instance; `memoryReplayRecord` serves one process.
 */
export interface ReplayRecord {
  /**
   * Records the body's receipt; true for exactly one caller per (subscription, digest), even
   * when several receive it at once; false for a replay.
   */
  recordFirst(subscriptionId: string, digest: string): Promise<boolean>;
  /** Forgets a receipt whose events could not be applied, so the carrier's retry applies them. */
  forget(subscriptionId: string, digest: string): Promise<void>;
}

/** The receipts owner of the store, as far as the verifier needs it. */
export interface StoredReceipts {
  recordFirst(subscriptionId: string, digest: string, receivedAtMs: number): Promise<boolean>;
  forget(subscriptionId: string, digest: string): Promise<void>;
  prune(beforeMs: number, keep: number): Promise<number>;
}

/** Carriers retry within hours; a week covers any retry schedule with room to spare. */
export const REPLAY_RETENTION_MS = 7 * 86_400_000;
/** At most this many receipts are kept, however many arrive within the retention. */
export const MAX_RECEIPTS = 100_000;
/** Pruning runs with a receipt at most this often per instance. */
const PRUNE_EVERY_MS = 60_000;

/** Receipts kept in the store (callback_receipts), pruned after REPLAY_RETENTION_MS. */
export function storedReplayRecord(
  receipts: StoredReceipts,
  now: () => number,
  limits: { retentionMs?: number; maxReceipts?: number } = {},
): ReplayRecord {
  let prunedAt = -Infinity;
  return {
    async recordFirst(subscriptionId, digest) {
      const at = now();
      const first = await receipts.recordFirst(subscriptionId, digest, at);
      if (first && at - prunedAt >= PRUNE_EVERY_MS) {
        prunedAt = at;
        // The receipt stands either way: a failed prune is tried again a minute later.
        await receipts
          .prune(
            at - (limits.retentionMs ?? REPLAY_RETENTION_MS),
            limits.maxReceipts ?? MAX_RECEIPTS,
          )
          .catch(() => undefined);
      }
      return first;
    },
    forget: (subscriptionId, digest) => receipts.forget(subscriptionId, digest),
  };
}

/** Receipts held by this process alone (oldest dropped past `max`). */
export function memoryReplayRecord(max = 10_000): ReplayRecord {
  const seen = new Set<string>();
  return {
    recordFirst(subscriptionId, digest) {
      const key = `${subscriptionId}:${digest}`;
      if (seen.has(key)) return Promise.resolve(false);
      seen.add(key);
      if (seen.size > max) {
        const oldest = seen.values().next().value;
        if (oldest !== undefined) seen.delete(oldest);
      }
      return Promise.resolve(true);
    },
    forget(subscriptionId, digest) {
      seen.delete(`${subscriptionId}:${digest}`);
      return Promise.resolve();
    },
  };
}

export class CallbackVerifier {
  constructor(
    private readonly lookup: (subscriptionId: string) => CallbackSubscription | null,
    private readonly replays: ReplayRecord = memoryReplayRecord(),
  ) {}

  async verify(
    subscriptionId: string,
    signatureHeader: string | undefined,
    rawBody: Buffer,
  ): Promise<CallbackVerdict> {
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
    const skipped: DroppedEvent[] = [];
    for (const [index, item] of (body as unknown[]).entries()) {
      const checked = checkEvent(item);
      if (checked.ok) events.push(checked.event);
      else {
        const id = (item as { eventID?: unknown } | null)?.eventID;
        skipped.push({
          page: 1,
          index,
          eventType: checked.eventType,
          eventID: typeof id === 'string' ? id : null,
          reason: checked.reason,
        });
      }
    }
    // Recorded only once the body is known good: a malformed body stays refused on retry.
    const digest = expected.toString('hex');
    if (!(await this.replays.recordFirst(subscriptionId, digest)))
      return { kind: 'replayed', subscriptionId, scac: subscription.scac };
    return {
      kind: 'accepted',
      subscriptionId,
      scac: subscription.scac,
      events,
      skipped,
      digest,
    };
  }

  /** Undoes the receipt of an accepted body whose events could not be applied. */
  forget(verdict: Extract<CallbackVerdict, { kind: 'accepted' }>): Promise<void> {
    return this.replays.forget(verdict.subscriptionId, verdict.digest);
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
      const verdict = await opts.verifier.verify(
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
        try {
          await opts.sink({
            scac: verdict.scac,
            subscriptionId: verdict.subscriptionId,
            events: verdict.events,
          });
        } catch (error) {
          // Not applied: the carrier's retry must not be taken for a replay.
          await opts.verifier.forget(verdict).catch(() => undefined);
          throw error;
        }
      }
      return reply.status(204).send();
    },
  );
};
