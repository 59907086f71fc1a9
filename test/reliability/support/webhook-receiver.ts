/**
 * A webhook receiver on 127.0.0.1 that records every delivery by its `webhook-id` header, checks
 * the signature, answers some deliveries with a 500 (so the service must retry) and answers
 * others slowly (so deliveries are in flight when the service is killed).
 */
import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

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
  deliveries: number;
  close(): Promise<void>;
}

export async function startWebhookReceiver(options: ReceiverOptions): Promise<WebhookReceiver> {
  const sockets = new Set<Socket>();
  const receiver: WebhookReceiver = {
    url: '',
    secret: null,
    bodies: new Map(),
    acknowledged: new Map(),
    rejected: [],
    deliveries: 0,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      receiver.deliveries++;
      const body = Buffer.concat(chunks).toString('utf8');
      const id = req.headers['webhook-id'];
      const signature = req.headers['x-t49-webhook-signature'];
      if (typeof id !== 'string' || id === '') {
        receiver.rejected.push('delivery without webhook-id');
        res.writeHead(400).end();
        return;
      }
      if (
        receiver.secret &&
        signature !== createHmac('sha256', receiver.secret).update(body).digest('hex')
      ) {
        receiver.rejected.push(`bad signature on ${id}`);
        res.writeHead(400).end();
        return;
      }
      const seen = receiver.bodies.get(id) ?? new Set<string>();
      seen.add(body);
      receiver.bodies.set(id, seen);
      const answer = () => {
        if (options.random() < options.failureRate) {
          res.writeHead(500).end();
          return;
        }
        // Counted before the answer leaves: the service may die before it reads it.
        receiver.acknowledged.set(id, (receiver.acknowledged.get(id) ?? 0) + 1);
        res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
      };
      if (options.random() < options.slowRate) setTimeout(answer, options.slowMs);
      else answer();
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  return receiver;
}
