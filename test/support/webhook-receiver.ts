/* eslint-disable @typescript-eslint/no-explicit-any -- received bodies are untyped JSON */
import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
  json: any;
}

/**
 * How the receiver answers the n-th request (0-based): a status, 'hold' (no answer until
 * released), or a status with headers, sent after `delayMs` of real time.
 */
export type Answer =
  number | 'hold' | { status: number; headers?: Record<string, string>; delayMs?: number };

/** A real HTTP receiver on 127.0.0.1 that records every request. */
export interface Receiver {
  url: string;
  received: Received[];
  /** Requests being held (answer 'hold') until released. */
  held: number;
  release(status?: number): void;
  close(): Promise<void>;
}

/**
 * Starts a receiver. `answer` picks each request's answer; `onAnswer` is told just before an
 * answer leaves (the sender may die before it reads it).
 */
export async function startReceiver(
  answer: (n: number, request: Received) => Answer = () => 200,
  onAnswer?: (request: Received, status: number) => void,
): Promise<Receiver> {
  const received: Received[] = [];
  const holding: http.ServerResponse[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let json: unknown = undefined;
      try {
        json = JSON.parse(body);
      } catch {
        // keep undefined: the test asserts on it
      }
      const n = received.length;
      const request = { headers: req.headers, body, json };
      received.push(request);
      const a = answer(n, request);
      if (a === 'hold') {
        holding.push(res);
        return;
      }
      const { status, headers, delayMs } = typeof a === 'number' ? { status: a } : a;
      const send = () => {
        onAnswer?.(request, status);
        res.writeHead(status, headers).end(status < 300 ? 'ok' : 'nope');
      };
      if (delayMs) setTimeout(send, delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    get held() {
      return holding.length;
    },
    release(status = 200) {
      for (const res of holding.splice(0)) res.writeHead(status).end();
    },
    async close() {
      for (const res of holding.splice(0)) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Verifies both signatures of a delivery independently of the service's code. */
export function verifySignatures(
  r: Received,
  secret: string,
): { reference: boolean; standard: boolean } {
  const expectedRef = createHmac('sha256', secret).update(r.body).digest('hex');
  const id = String(r.headers['webhook-id']);
  const ts = String(r.headers['webhook-timestamp']);
  // Generated secrets (whsec_...) key with their decoded bytes, as Standard Webhooks libraries do;
  // any other secret (e.g. a trigger's test secret) keys with its UTF-8 bytes.
  const key = secret.startsWith('whsec_')
    ? Buffer.from(secret.slice(6), 'base64')
    : Buffer.from(secret, 'utf8');
  const expectedStd = createHmac('sha256', key).update(`${id}.${ts}.${r.body}`).digest('base64');
  const sigs = String(r.headers['webhook-signature'] ?? '').split(' ');
  return {
    reference: r.headers['x-t49-webhook-signature'] === expectedRef,
    standard: sigs.includes(`v1,${expectedStd}`),
  };
}
