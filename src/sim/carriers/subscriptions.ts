/**
 * DCSA event subscriptions on a simulated carrier: the subscriber registers a callback URL, a
 * shared secret and one reference; whenever events for that reference become visible, the
 * carrier POSTs them with `Notification-Signature: sha256=<HMAC of the body>`. The simulated
 * world only ever calls back to the loopback interface.
 */
import { createHmac, randomUUID } from 'node:crypto';

export interface SimSubscription {
  subscriptionID: string;
  scac: string;
  callbackUrl: string;
  secret: string;
  /** The one reference filter, e.g. `{ equipmentReference: 'MSCU1234565' }`. */
  filter: Record<string, string>;
  /** Creation time (simulated) of the newest event already pushed. */
  pushedUntil: number;
}

const REFERENCE_KEYS = [
  'equipmentReference',
  'carrierBookingReference',
  'transportDocumentReference',
];

export type CreateResult =
  { ok: true; subscription: SimSubscription } | { ok: false; message: string };

export class SimSubscriptions {
  private readonly byId = new Map<string, SimSubscription>();
  /** Callbacks the subscriber refused or that failed, for tests and diagnostics. */
  failedPushes = 0;
  /** The push under way: one at a time, as a carrier does, so the same events never go twice. */
  private pushing: Promise<number> | null = null;

  create(scac: string, body: unknown, now: number): CreateResult {
    if (typeof body !== 'object' || body === null)
      return { ok: false, message: 'body must be an object' };
    const b = body as Record<string, unknown>;
    let callback: URL;
    try {
      callback = new URL(String(b.callbackUrl));
    } catch {
      return { ok: false, message: 'callbackUrl must be a URL' };
    }
    if (
      callback.protocol !== 'http:' ||
      !['127.0.0.1', 'localhost', '[::1]'].includes(callback.hostname)
    ) {
      return {
        ok: false,
        message: 'the simulated carrier only calls back to the loopback interface',
      };
    }
    if (typeof b.secret !== 'string' || Buffer.from(b.secret, 'base64').length < 32) {
      return { ok: false, message: 'secret must be base64 of at least 32 bytes' };
    }
    const filter: Record<string, string> = {};
    for (const key of REFERENCE_KEYS) if (typeof b[key] === 'string') filter[key] = b[key];
    if (Object.keys(filter).length !== 1) {
      return { ok: false, message: `exactly one of ${REFERENCE_KEYS.join(', ')} is required` };
    }
    const subscription: SimSubscription = {
      subscriptionID: randomUUID(),
      scac,
      callbackUrl: callback.href,
      secret: b.secret,
      filter,
      pushedUntil: now,
    };
    this.byId.set(subscription.subscriptionID, subscription);
    return { ok: true, subscription };
  }

  delete(scac: string, id: string): boolean {
    const found = this.byId.get(id);
    if (!found || found.scac !== scac) return false;
    this.byId.delete(id);
    return true;
  }

  all(): SimSubscription[] {
    return [...this.byId.values()];
  }

  /**
   * Pushes, per subscription, the events that became visible since the last push. `eventsFor`
   * returns the visible events matching a filter, each with its creation time. A failed push is
   * retried next time (the window only moves on a 2xx).
   */
  async push(
    now: number,
    eventsFor: (
      scac: string,
      filter: Record<string, string>,
    ) => { createdAt: number; body: unknown }[],
  ): Promise<number> {
    // A push asked for while one runs waits for it, then sends whatever is still new.
    while (this.pushing) await this.pushing.catch(() => 0);
    this.pushing = this.pushOnce(now, eventsFor);
    try {
      return await this.pushing;
    } finally {
      this.pushing = null;
    }
  }

  private async pushOnce(
    now: number,
    eventsFor: (
      scac: string,
      filter: Record<string, string>,
    ) => { createdAt: number; body: unknown }[],
  ): Promise<number> {
    let pushed = 0;
    for (const s of this.all()) {
      const fresh = eventsFor(s.scac, s.filter).filter(
        (e) => e.createdAt > s.pushedUntil && e.createdAt <= now,
      );
      if (fresh.length === 0) continue;
      const body = JSON.stringify(fresh.map((e) => e.body));
      const signature = createHmac('sha256', Buffer.from(s.secret, 'base64'))
        .update(body)
        .digest('hex');
      try {
        const response = await fetch(s.callbackUrl, {
          method: 'POST',
          headers: {
            'Content-Type': 'application/json',
            'Notification-Signature': `sha256=${signature}`,
            'Subscription-ID': s.subscriptionID,
            'API-Version': '2.2.0',
          },
          body,
          redirect: 'error',
          signal: AbortSignal.timeout(5_000),
        });
        await response.arrayBuffer();
        if (response.ok) {
          s.pushedUntil = Math.max(...fresh.map((e) => e.createdAt));
          pushed += fresh.length;
        } else this.failedPushes += 1;
      } catch {
        this.failedPushes += 1;
      }
    }
    return pushed;
  }
}
