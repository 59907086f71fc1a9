import { createHmac } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAuthenticator } from '../../../../src/service/feeds/auth';
import { Secret } from '../../../../src/service/feeds/config';
import {
  CallbackVerifier,
  dcsaCallbackPlugin,
  type CallbackVerdict,
} from '../../../../src/service/feeds/dcsa/callback';
import type { DcsaEvent } from '../../../../src/shared/feeds/dcsa';
import { DcsaSubscriptionClient } from '../../../../src/service/feeds/dcsa/subscriptions';
import { startServer, type TestServer } from '../../../support/http-server';
import { CONTAINER, journeyEvents } from './fixtures';

const SECRET = Buffer.alloc(32, 7).toString('base64');

function sign(body: string, secret = SECRET): string {
  return `sha256=${createHmac('sha256', Buffer.from(secret, 'base64')).update(body).digest('hex')}`;
}

let app: FastifyInstance;
let base: string;
let delivered: { scac: string; subscriptionId: string; events: DcsaEvent[] }[];
let verdicts: CallbackVerdict[];

beforeEach(async () => {
  delivered = [];
  verdicts = [];
  app = Fastify();
  const verifier = new CallbackVerifier((id) =>
    id === 'sub-1' ? { scac: 'MSCU', secret: SECRET } : null,
  );
  await app.register(dcsaCallbackPlugin, {
    prefix: '/callbacks/dcsa',
    verifier,
    sink: (delivery) => {
      delivered.push(delivery);
      return Promise.resolve();
    },
    onVerdict: (v) => verdicts.push(v),
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/callbacks/dcsa`;
});
afterEach(() => app.close());

function post(id: string, body: string, signature?: string): Promise<Response> {
  return fetch(`${base}/${id}`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      ...(signature ? { 'Notification-Signature': signature } : {}),
    },
    body,
  });
}

describe('DCSA subscription callbacks', () => {
  it('answers the HEAD probe with 204', async () => {
    const response = await fetch(`${base}/sub-1`, { method: 'HEAD' });
    expect(response.status).toBe(204);
  });

  it('passes correctly signed events to the sink', async () => {
    const body = JSON.stringify(journeyEvents().slice(0, 3));
    const response = await post('sub-1', body, sign(body));
    expect(response.status).toBe(204);
    expect(delivered).toHaveLength(1);
    expect(delivered[0]?.scac).toBe('MSCU');
    expect(delivered[0]?.events).toHaveLength(3);
  });

  it('refuses a forged or missing signature and changes nothing', async () => {
    const body = JSON.stringify(journeyEvents().slice(0, 1));
    const forged = await post('sub-1', body, sign(body, Buffer.alloc(32, 9).toString('base64')));
    expect(forged.status).toBe(401);
    const json = (await forged.json()) as { errors: { source: { header?: string } }[] };
    expect(json.errors[0]?.source.header).toBe('Notification-Signature');
    expect((await post('sub-1', body)).status).toBe(401);
    expect(delivered).toEqual([]);
    expect(verdicts.map((v) => v.kind)).toEqual(['refused', 'refused']);
  });

  it('acknowledges a replayed callback without applying it twice', async () => {
    const body = JSON.stringify(journeyEvents().slice(0, 2));
    expect((await post('sub-1', body, sign(body))).status).toBe(204);
    expect((await post('sub-1', body, sign(body))).status).toBe(204);
    expect(delivered).toHaveLength(1);
    expect(verdicts.map((v) => v.kind)).toEqual(['accepted', 'replayed']);
  });

  it('takes each pushed event on its own; refuses a body that is not JSON and an unknown subscription', async () => {
    const events = journeyEvents().slice(0, 2) as unknown[];
    const unlisted = { ...journeyEvents()[2], equipmentEventTypeCode: 'WASH', eventID: 'w-1' };
    const timeless = { eventType: 'EQUIPMENT', equipmentEventTypeCode: 'LOAD', eventID: 'e-42' };
    const mixed = JSON.stringify([...events, timeless, unlisted]);
    expect((await post('sub-1', mixed, sign(mixed))).status).toBe(204);
    expect(delivered[0]?.events.map((e) => e.eventID)).toEqual([
      ...events.map((e) => (e as { eventID: string }).eventID),
      'w-1',
    ]);
    const accepted = verdicts.find((v) => v.kind === 'accepted');
    expect(accepted?.kind === 'accepted' ? accepted.skipped : []).toEqual([
      {
        page: 1,
        index: 2,
        eventType: 'EQUIPMENT',
        eventID: 'e-42',
        reason: expect.stringMatching(/eventDateTime/) as unknown,
      },
    ]);
    expect((await post('sub-1', '{not json', sign('{not json'))).status).toBe(400);
    const ok = JSON.stringify(events);
    expect((await post('sub-9', ok, sign(ok))).status).toBe(404);
    expect(delivered).toHaveLength(1);
  });
});

describe('DCSA subscription client', () => {
  let carrier: TestServer;
  afterEach(() => carrier.close());

  it('creates a subscription with a callback URL and a fresh secret, and deletes it', async () => {
    carrier = await startServer((req, res) => {
      if (req.headers['x-api-key'] !== 'k') {
        res.writeHead(401);
        res.end();
        return;
      }
      res.writeHead(req.method === 'POST' ? 201 : 204, { 'Content-Type': 'application/json' });
      res.end(
        req.method === 'POST'
          ? JSON.stringify({ subscriptionID: 'abc', ...JSON.parse(req.body) })
          : '',
      );
    });
    const client = new DcsaSubscriptionClient('MSCU', {
      baseUrl: carrier.baseUrl,
      signer: createAuthenticator({
        type: 'headers',
        headers: { 'X-API-Key': new Secret('k', 't') },
      }),
    });
    const created = await client.create(
      { kind: 'equipmentReference', value: CONTAINER },
      'http://127.0.0.1:1/callbacks/dcsa/x',
    );
    expect(created.outcome).toBe('created');
    if (created.outcome !== 'created') return;
    expect(created.subscriptionID).toBe('abc');
    const sent = JSON.parse(carrier.requests[0]!.body) as Record<string, string>;
    expect(sent.callbackUrl).toBe('http://127.0.0.1:1/callbacks/dcsa/x');
    expect(sent.equipmentReference).toBe(CONTAINER);
    expect(Buffer.from(sent.secret!, 'base64')).toHaveLength(32);
    expect(sent.secret).toBe(created.secret);
    expect((await client.delete('abc')).outcome).toBe('deleted');
    expect(carrier.requests[1]?.method).toBe('DELETE');
    expect(carrier.requests[1]?.url.pathname).toBe('/v2/event-subscriptions/abc');
  });
});
