/**
 * DCSA T&T 2.2 event subscriptions (push): create one per tracked reference with a callback URL
 * on this service and a fresh shared secret, delete it when tracking stops. The secret is what
 * the carrier signs each callback with (`Notification-Signature`); the caller stores it with the
 * subscription id so the callback route can verify.
 */
import { randomBytes } from 'node:crypto';
import { joinUrl, sendFeedRequest, type HttpSourceConfig } from '../http';
import { classifyFailure, type FeedFailure } from '../outcome';
import type { DcsaQuery } from './client';

/** DCSA secrets are base64 of at least 32 random bytes. */
export function newSubscriptionSecret(): string {
  return randomBytes(32).toString('base64');
}

export type CreateSubscriptionResult =
  { outcome: 'created'; subscriptionID: string; secret: string } | FeedFailure;

export type DeleteSubscriptionResult = { outcome: 'deleted' } | FeedFailure;

export class DcsaSubscriptionClient {
  constructor(
    readonly scac: string,
    private readonly config: HttpSourceConfig,
  ) {}

  async create(query: DcsaQuery, callbackUrl: string): Promise<CreateSubscriptionResult> {
    const secret = newSubscriptionSecret();
    const response = await sendFeedRequest(
      this.config,
      joinUrl(this.config.baseUrl, 'v2/event-subscriptions'),
      {
        method: 'POST',
        headers: { 'API-Version-Major': '2' },
        body: { callbackUrl, secret, [query.kind]: query.value },
      },
    );
    const failure = classifyFailure(response);
    if (failure) return failure;
    if (response.kind !== 'response' || response.status === 404) {
      return {
        outcome: 'rejected',
        status: 404,
        error: 'subscriptions not offered',
        retryAfterMs: null,
      };
    }
    const id = (response.body as { subscriptionID?: unknown } | null)?.subscriptionID;
    if (typeof id !== 'string' || id === '') {
      return {
        outcome: 'malformed',
        status: response.status,
        error: 'no subscriptionID in answer',
      };
    }
    return { outcome: 'created', subscriptionID: id, secret };
  }

  async delete(subscriptionID: string): Promise<DeleteSubscriptionResult> {
    const response = await sendFeedRequest(
      this.config,
      joinUrl(this.config.baseUrl, `v2/event-subscriptions/${encodeURIComponent(subscriptionID)}`),
      { method: 'DELETE', headers: { 'API-Version-Major': '2' } },
    );
    const failure = classifyFailure(response);
    if (failure) return failure;
    // Already gone is what we wanted.
    return { outcome: 'deleted' };
  }
}
