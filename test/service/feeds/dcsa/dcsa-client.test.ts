import { afterEach, describe, expect, it } from 'vitest';
import { DcsaClient } from '../../../../src/service/feeds/dcsa/client';
import { CarrierRegistry } from '../../../../src/service/feeds';
import { startServer, sendJson, type TestServer } from '../../../support/http-server';
import { CONTAINER, journeyEvents } from './fixtures';

let server: TestServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

const query = { kind: 'equipmentReference' as const, value: CONTAINER };

describe('DCSA client against a real HTTP server', () => {
  it('follows Next-Page cursors to the end and sends the credentials', async () => {
    const events = journeyEvents();
    const pages = [events.slice(0, 12), events.slice(12, 24), events.slice(24)];
    server = await startServer((req, res) => {
      if (req.headers['api-key'] !== 'secret-key') return sendJson(res, 401, { message: 'no key' });
      const cursor = req.url.searchParams.get('cursor');
      const index = cursor === null ? 0 : Number(cursor.replace('page-', ''));
      const headers: Record<string, string> = { 'Current-Page': `/v2/events?cursor=page-${index}` };
      // Page 2 links with a full path, page 1 with a bare cursor token, as servers differ.
      if (index === 0) headers['Next-Page'] = 'page-1';
      if (index === 1) headers['Next-Page'] = '/tnt/v2/events?cursor=page-2&limit=12';
      sendJson(res, 200, pages[index], headers);
    });
    const client = new DcsaClient('MSCU', {
      baseUrl: `${server.baseUrl}/tnt`,
      credentials: { kind: 'api-key', key: 'secret-key' },
      timeoutMs: 2000,
      pageSize: 12,
    });
    const result = await client.lookup(query);
    expect(result.outcome).toBe('found');
    if (result.outcome !== 'found') return;
    expect(result.pages).toBe(3);
    expect(result.truncated).toBe(false);
    expect(result.events.map((e) => e.eventID)).toEqual(events.map((e) => e.eventID));
    expect(server.requests[0]?.url.pathname).toBe('/tnt/v2/events');
    expect(server.requests[0]?.url.searchParams.get('equipmentReference')).toBe(CONTAINER);
    expect(server.requests[0]?.url.searchParams.get('limit')).toBe('12');
    expect(client.stats()).toMatchObject({ requests: 3, found: 1 });
  });

  it('stops at the page cap and says the result is truncated', async () => {
    server = await startServer((req, res) => {
      const n = Number(req.url.searchParams.get('cursor') ?? '0');
      sendJson(res, 200, [journeyEvents()[n % 30]], { 'Next-Page': `/v2/events?cursor=${n + 1}` });
    });
    const client = new DcsaClient('MSCU', {
      baseUrl: server.baseUrl,
      maxPages: 4,
      timeoutMs: 2000,
    });
    const result = await client.lookup({ kind: 'carrierBookingReference', value: 'BK1' });
    expect(result).toMatchObject({ outcome: 'found', pages: 4, truncated: true });
    expect(server.requests).toHaveLength(4);
    expect(server.requests[0]?.url.searchParams.get('carrierBookingReference')).toBe('BK1');
  });

  it('reports not found for a 404 and for an empty list', async () => {
    server = await startServer((req, res) => {
      if (req.url.searchParams.get('transportDocumentReference') === 'UNKNOWN') {
        return sendJson(res, 404, { message: 'not found' });
      }
      sendJson(res, 200, []);
    });
    const client = new DcsaClient('MSCU', { baseUrl: server.baseUrl, timeoutMs: 2000 });
    expect(
      await client.lookup({ kind: 'transportDocumentReference', value: 'UNKNOWN' }),
    ).toMatchObject({
      outcome: 'not_found',
      status: 404,
    });
    expect(
      await client.lookup({ kind: 'transportDocumentReference', value: 'EMPTY' }),
    ).toMatchObject({
      outcome: 'not_found',
      status: 200,
    });
    expect(client.stats().notFound).toBe(2);
  });

  it('classifies 5xx as a server error and 401 as rejected', async () => {
    server = await startServer((req, res) => {
      if (req.headers.authorization !== 'Bearer good')
        return sendJson(res, 401, { message: 'bad token' });
      sendJson(res, 503, { message: 'maintenance' });
    });
    const good = new DcsaClient('MSCU', {
      baseUrl: server.baseUrl,
      credentials: { kind: 'bearer', token: 'good' },
      timeoutMs: 2000,
    });
    expect(await good.lookup(query)).toMatchObject({ outcome: 'server_error', status: 503 });
    const bad = new DcsaClient('MSCU', {
      baseUrl: server.baseUrl,
      credentials: { kind: 'bearer', token: 'bad' },
      timeoutMs: 2000,
    });
    expect(await bad.lookup(query)).toMatchObject({ outcome: 'rejected', status: 401 });
  });

  it('reports a timeout as unreachable, and a closed port too', async () => {
    server = await startServer(() => {
      // Never answers.
    });
    const slow = new DcsaClient('MSCU', { baseUrl: server.baseUrl, timeoutMs: 150 });
    expect(await slow.lookup(query)).toMatchObject({ outcome: 'unreachable', reason: 'timeout' });
    const closedBase = server.baseUrl;
    await server.close();
    server = null;
    const down = new DcsaClient('MSCU', { baseUrl: closedBase, timeoutMs: 1000 });
    expect(await down.lookup(query)).toMatchObject({ outcome: 'unreachable', reason: 'network' });
    expect(down.stats().unreachable).toBe(1);
  });

  it('reports a body that is not JSON, or not an event list, as malformed', async () => {
    server = await startServer((req, res) => {
      if (req.url.searchParams.get('equipmentReference') === 'HTML') {
        res.writeHead(200, { 'Content-Type': 'text/html' });
        res.end('<html>proxy error</html>');
        return;
      }
      if (req.url.searchParams.get('equipmentReference') === 'TRUNC') {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end('[{"eventType":"TRANSPORT",');
        return;
      }
      sendJson(res, 200, { events: [] });
    });
    const client = new DcsaClient('MSCU', { baseUrl: server.baseUrl, timeoutMs: 2000 });
    for (const value of ['HTML', 'TRUNC', 'OBJECT']) {
      const result = await client.lookup({ kind: 'equipmentReference', value });
      expect(result.outcome, value).toBe('malformed');
    }
    expect(client.stats().malformed).toBe(3);
  });

  it('skips and counts an unusable event among good ones', async () => {
    const events = journeyEvents().slice(0, 5);
    const broken = { ...events[2], eventDateTime: '2026-13-45T99:00:00Z' };
    const unknownType = { eventType: 'OPERATIONS', eventID: 'x' };
    server = await startServer((_req, res) =>
      sendJson(res, 200, [events[0], events[1], broken, events[3], unknownType, events[4]]),
    );
    const client = new DcsaClient('MSCU', { baseUrl: server.baseUrl, timeoutMs: 2000 });
    const result = await client.lookup(query);
    expect(result.outcome).toBe('found');
    if (result.outcome !== 'found') return;
    expect(result.events.map((e) => e.eventID)).toEqual(
      [events[0], events[1], events[3], events[4]].map((e) => e?.eventID),
    );
    expect(result.dropped).toHaveLength(2);
    expect(result.dropped[0]).toMatchObject({
      page: 1,
      index: 2,
      eventType: events[2]?.eventType,
      eventID: events[2]?.eventID,
    });
    expect(result.dropped[0]?.reason).toMatch(/eventDateTime/);
    expect(result.dropped[1]).toMatchObject({ index: 4, eventType: 'OPERATIONS', eventID: 'x' });
    expect(result.dropped[1]?.reason).toMatch(/eventDateTime/);
    expect(client.stats().droppedRecords).toBe(2);
  });

  it('refuses a Next-Page link to another host', async () => {
    server = await startServer((_req, res) =>
      sendJson(res, 200, journeyEvents().slice(0, 1), {
        'Next-Page': 'http://198.51.100.7/v2/events?cursor=x',
      }),
    );
    const client = new DcsaClient('MSCU', { baseUrl: server.baseUrl, timeoutMs: 2000 });
    expect(await client.lookup(query)).toMatchObject({ outcome: 'malformed' });
    expect(server.requests).toHaveLength(1);
  });
});

describe('carrier registry', () => {
  it('routes by SCAC and reports an unknown SCAC as unsupported', async () => {
    server = await startServer((_req, res) => sendJson(res, 200, journeyEvents().slice(0, 2)));
    const registry = new CarrierRegistry({
      carriers: { mscu: { baseUrl: server.baseUrl, timeoutMs: 2000 } },
    });
    expect(registry.supportedScacs()).toEqual(['MSCU']);
    expect(await registry.lookup('MSCU', query)).toMatchObject({ outcome: 'found' });
    expect(await registry.lookup('ZZZZ', query)).toMatchObject({
      outcome: 'unsupported',
      scac: 'ZZZZ',
    });
    expect(await registry.importDeadlines('ZZZZ', CONTAINER)).toMatchObject({
      outcome: 'unsupported',
    });
  });
});
