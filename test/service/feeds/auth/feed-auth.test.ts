import { afterEach, describe, expect, it } from 'vitest';
import { createAuthenticator } from '../../../../src/service/feeds/auth';
import { Secret } from '../../../../src/service/feeds/config';
import { DcsaClient } from '../../../../src/service/feeds/dcsa/client';
import { joinUrl, sendFeedRequest } from '../../../../src/service/feeds/http';
import { LineDeadlinesClient } from '../../../../src/service/feeds/line-deadlines/client';
import { SourceLimiter } from '../../../../src/service/feeds/limiter';
import { startServer, type TestServer } from '../../../support/http-server';

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** A token endpoint plus a DCSA events endpoint that accepts only the newest token. */
async function oauthCarrier(options: { expiresIn?: number; secret?: string } = {}) {
  let issued = 0;
  let valid = new Set<string>();
  const server = await startServer((req, res) => {
    if (req.url.pathname === '/oauth2/token') {
      const form = new URLSearchParams(req.body);
      if (
        form.get('grant_type') !== 'client_credentials' ||
        form.get('client_secret') !== (options.secret ?? 'right')
      ) {
        res.writeHead(401, { 'Content-Type': 'application/json' });
        res.end('{"error":"invalid_client"}');
        return;
      }
      issued += 1;
      const token = `t${issued}`;
      valid.add(token);
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(
        JSON.stringify({
          access_token: token,
          token_type: 'Bearer',
          expires_in: options.expiresIn ?? 3600,
        }),
      );
      return;
    }
    const token = (req.headers.authorization ?? '').replace(/^Bearer /, '');
    if (!valid.has(token)) {
      res.writeHead(401);
      res.end();
      return;
    }
    const deadline = /\/x-import-deadlines\/([A-Z0-9]+)$/.exec(req.url.pathname);
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(
      deadline
        ? JSON.stringify({
            equipmentReference: deadline[1],
            locode: 'USLAX',
            lastFreeDay: '2026-02-09T23:59:59-08:00',
            updatedDateTime: '2026-02-01T10:00:00Z',
          })
        : '[]',
    );
  });
  servers.push(server);
  return {
    server,
    revokeAll: () => {
      valid = new Set();
    },
    tokenRequests: () => server.requests.filter((r) => r.url.pathname === '/oauth2/token').length,
  };
}

function oauth(tokenUrl: string, secret = 'right', now?: () => number) {
  return createAuthenticator(
    {
      type: 'oauth2_client_credentials',
      tokenUrl,
      clientId: new Secret('client', 'test'),
      clientSecret: new Secret(secret, 'test'),
      scope: 'tnt',
    },
    { now },
  );
}

describe('feed authentication', () => {
  it('sends static headers, bearer and basic credentials', async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end('{}');
    });
    servers.push(server);
    const kinds = [
      createAuthenticator({
        type: 'headers',
        headers: { 'X-IBM-Client-Id': new Secret('id1', 't') },
      }),
      createAuthenticator({ type: 'bearer', token: new Secret('tok', 't') }),
      createAuthenticator({
        type: 'basic',
        username: new Secret('u', 't'),
        password: new Secret('p', 't'),
      }),
      createAuthenticator({ type: 'none' }),
    ];
    for (const signer of kinds) {
      await sendFeedRequest({ baseUrl: server.baseUrl, signer }, joinUrl(server.baseUrl, 'x'), {});
    }
    const headers = server.requests.map((r) => r.headers);
    expect(headers[0]?.['x-ibm-client-id']).toBe('id1');
    expect(headers[1]?.authorization).toBe('Bearer tok');
    expect(headers[2]?.authorization).toBe(`Basic ${Buffer.from('u:p').toString('base64')}`);
    expect(headers[3]?.authorization).toBeUndefined();
  });

  it('fetches one OAuth2 token for concurrent requests and reuses it', async () => {
    const carrier = await oauthCarrier();
    const signer = oauth(`${carrier.server.baseUrl}/oauth2/token`);
    const client = new DcsaClient('MAEU', { baseUrl: carrier.server.baseUrl, signer });
    const results = await Promise.all(
      ['A', 'B', 'C', 'D'].map((v) =>
        client.lookup({ kind: 'equipmentReference', value: `MSKU000000${v}` }),
      ),
    );
    expect(results.map((r) => r.outcome)).toEqual([
      'not_found',
      'not_found',
      'not_found',
      'not_found',
    ]);
    await client.lookup({ kind: 'equipmentReference', value: 'MSKU0000005' });
    expect(carrier.tokenRequests()).toBe(1);
    const form = new URLSearchParams(carrier.server.requests[0]?.body);
    expect(form.get('scope')).toBe('tnt');
  });

  it("asks the line's import deadlines with the same OAuth2 token as its events", async () => {
    const carrier = await oauthCarrier();
    const signer = oauth(`${carrier.server.baseUrl}/oauth2/token`);
    const config = { baseUrl: carrier.server.baseUrl, signer };
    const events = new DcsaClient('MAEU', config);
    const deadlines = new LineDeadlinesClient('MAEU', config);
    await events.lookup({ kind: 'equipmentReference', value: 'MSKU0000005' });
    const found = await deadlines.getDeadlines('MSKU0000005');
    expect(found).toMatchObject({
      outcome: 'found',
      deadlines: { lastFreeDay: '2026-02-10T07:59:59.000Z', locode: 'USLAX' },
    });
    expect(carrier.tokenRequests()).toBe(1);
    // A revoked token is renewed once, as for the events.
    carrier.revokeAll();
    expect((await deadlines.getDeadlines('MSKU0000005')).outcome).toBe('found');
    expect(carrier.tokenRequests()).toBe(2);
  });

  it('refreshes the token shortly before it expires', async () => {
    const carrier = await oauthCarrier({ expiresIn: 600 });
    let now = 1_000_000;
    const signer = oauth(`${carrier.server.baseUrl}/oauth2/token`, 'right', () => now);
    const config = { baseUrl: carrier.server.baseUrl, signer };
    await sendFeedRequest(config, joinUrl(carrier.server.baseUrl, 'v2/events'), {});
    now += 530_000;
    await sendFeedRequest(config, joinUrl(carrier.server.baseUrl, 'v2/events'), {});
    expect(carrier.tokenRequests()).toBe(1);
    now += 20_000; // 550 s: inside the renewal margin before the 600 s expiry
    await sendFeedRequest(config, joinUrl(carrier.server.baseUrl, 'v2/events'), {});
    expect(carrier.tokenRequests()).toBe(2);
  });

  it('refreshes once and retries after a 401, then gives up', async () => {
    const carrier = await oauthCarrier();
    const signer = oauth(`${carrier.server.baseUrl}/oauth2/token`);
    const config = { baseUrl: carrier.server.baseUrl, signer };
    const url = joinUrl(carrier.server.baseUrl, 'v2/events');
    await sendFeedRequest(config, url, {});
    carrier.revokeAll();
    const retried = await sendFeedRequest(config, url, {});
    expect(retried.kind === 'response' && retried.status).toBe(200);
    expect(carrier.tokenRequests()).toBe(2);
    const eventCalls = (): number =>
      carrier.server.requests.filter((r) => r.url.pathname === '/v2/events').length;
    expect(eventCalls()).toBe(3);
  });

  it('reports a refused client secret as a rejected lookup naming the token endpoint', async () => {
    const carrier = await oauthCarrier();
    const signer = oauth(`${carrier.server.baseUrl}/oauth2/token`, 'wrong');
    const client = new DcsaClient('MAEU', { baseUrl: carrier.server.baseUrl, signer });
    const result = await client.lookup({ kind: 'equipmentReference', value: 'MSKU0000001' });
    expect(result.outcome).toBe('rejected');
    if (result.outcome !== 'rejected') return;
    expect(result.status).toBe(401);
    expect(result.error).toMatch(/token endpoint .* refused the client credentials/);
    expect(result.error).not.toContain('wrong');
  });

  it('reports an unreachable token endpoint as unreachable', async () => {
    const carrier = await oauthCarrier();
    const signer = oauth('http://127.0.0.1:1/oauth2/token');
    const client = new DcsaClient('MAEU', { baseUrl: carrier.server.baseUrl, signer });
    const result = await client.lookup({ kind: 'equipmentReference', value: 'MSKU0000001' });
    expect(result.outcome).toBe('unreachable');
  });

  it('does not follow a redirect with credentials attached', async () => {
    const other = await startServer((_req, res) => {
      res.writeHead(200);
      res.end('[]');
    });
    servers.push(other);
    const server = await startServer((_req, res) => {
      res.writeHead(302, { Location: `${other.baseUrl}/v2/events` });
      res.end();
    });
    servers.push(server);
    const signer = createAuthenticator({ type: 'bearer', token: new Secret('tok', 't') });
    await sendFeedRequest(
      { baseUrl: server.baseUrl, signer },
      joinUrl(server.baseUrl, 'v2/events'),
      {},
    );
    expect(other.requests).toHaveLength(0);
  });
});

describe('per-source limiter', () => {
  function fakeTime() {
    let now = 0;
    const slept: number[] = [];
    return {
      now: () => now,
      sleep: (ms: number) => {
        slept.push(ms);
        now += ms;
        return Promise.resolve();
      },
      slept,
    };
  }

  it('spreads requests to the configured rate per minute', async () => {
    const time = fakeTime();
    const limiter = new SourceLimiter({ requestsPerMinute: 2, now: time.now, sleep: time.sleep });
    const started: number[] = [];
    for (let i = 0; i < 5; i++) await limiter.run(() => Promise.resolve(started.push(time.now())));
    expect(started).toEqual([0, 0, 60_000, 60_000, 120_000]);
    expect(limiter.stats().waits).toBe(2);
  });

  it('keeps at most the configured number of requests in flight', async () => {
    const limiter = new SourceLimiter({ concurrency: 2 });
    let inFlight = 0;
    let peak = 0;
    let done = 0;
    const releases: (() => void)[] = [];
    const tasks = Array.from({ length: 5 }, () =>
      limiter.run(async () => {
        inFlight += 1;
        peak = Math.max(peak, inFlight);
        await new Promise<void>((resolve) => releases.push(resolve));
        inFlight -= 1;
        done += 1;
      }),
    );
    while (done < 5) {
      await new Promise((r) => setImmediate(r));
      releases.shift()?.();
    }
    await Promise.all(tasks);
    expect(peak).toBe(2);
  });

  it('pauses only the carrier that answered 429 with Retry-After', async () => {
    const time = fakeTime();
    const slow = new SourceLimiter({ now: time.now, sleep: time.sleep });
    const other = new SourceLimiter({ now: time.now, sleep: time.sleep });
    const server = await startServer((req, res) => {
      if (req.url.pathname === '/slow/x' && server.requests.length === 1) {
        res.writeHead(429, { 'Retry-After': '30' });
        res.end();
        return;
      }
      res.writeHead(200);
      res.end('{}');
    });
    servers.push(server);
    await sendFeedRequest(
      { baseUrl: server.baseUrl, gate: slow },
      joinUrl(server.baseUrl, 'slow/x'),
      {},
    );
    await sendFeedRequest(
      { baseUrl: server.baseUrl, gate: other },
      joinUrl(server.baseUrl, 'other/x'),
      {},
    );
    expect(time.slept).toEqual([]);
    await sendFeedRequest(
      { baseUrl: server.baseUrl, gate: slow },
      joinUrl(server.baseUrl, 'slow/x'),
      {},
    );
    expect(time.slept).toEqual([30_000]);
  });
});
