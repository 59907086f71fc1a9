/**
 * A webhook receiver for the reliability tests: records every delivery by its `webhook-id`
 * header, checks the signature, answers some deliveries with a 500 (so the service must retry)
 * and answers others slowly (so deliveries are in flight when the service is killed). Built on
 * the one receiver, webhook-receiver.ts.
 */
import { startReceiver, verifySignatures } from './webhook-receiver';

export interface ReceiverOptions {
  /** Share of deliveries answered with HTTP 500. */
  failureRate: number;
  /** Share of deliveries answered after `slowMs`. */
  slowRate: number;
  slowMs: number;
  random: () => number;
}

export interface WebhookReceiver {
  url: string;
  /** Set once the webhook is registered: every delivery's reference signature is checked. */
  secret: string | null;
  /** Distinct bodies seen per notification id (any answer). */
  readonly bodies: Map<string, Set<string>>;
  /** Deliveries answered 200, per notification id. */
  readonly acknowledged: Map<string, number>;
  /** Deliveries without an id or with a bad signature. */
  readonly rejected: string[];
  readonly deliveries: number;
  close(): Promise<void>;
}

export async function startWebhookReceiver(options: ReceiverOptions): Promise<WebhookReceiver> {
  const bodies = new Map<string, Set<string>>();
  const acknowledged = new Map<string, number>();
  const rejected: string[] = [];
  let secret: string | null = null;
  const receiver = await startReceiver(
    (_, request) => {
      const id = request.headers['webhook-id'];
      if (typeof id !== 'string' || id === '') {
        rejected.push('delivery without webhook-id');
        return 400;
      }
      if (secret && !verifySignatures(request, secret).reference) {
        rejected.push(`bad signature on ${id}`);
        return 400;
      }
      bodies.set(id, (bodies.get(id) ?? new Set<string>()).add(request.body));
      if (options.random() < options.failureRate) return 500;
      const delayMs = options.random() < options.slowRate ? options.slowMs : 0;
      return { status: 200, headers: { 'Content-Type': 'application/json' }, delayMs };
    },
    // Counted before the answer leaves: the service may die before it reads it.
    (request, status) => {
      if (status !== 200) return;
      const id = String(request.headers['webhook-id']);
      acknowledged.set(id, (acknowledged.get(id) ?? 0) + 1);
    },
  );
  return {
    url: receiver.url,
    get secret() {
      return secret;
    },
    set secret(value: string | null) {
      secret = value;
    },
    bodies,
    acknowledged,
    rejected,
    get deliveries() {
      return receiver.received.length;
    },
    close: () => receiver.close(),
  };
}
