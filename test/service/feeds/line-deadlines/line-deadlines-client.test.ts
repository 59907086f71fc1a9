import { afterEach, describe, expect, it } from 'vitest';
import { LineDeadlinesClient } from '../../../../src/service/feeds/line-deadlines/client';
import { CarrierRegistry } from '../../../../src/service/feeds';
import { sendJson, startServer, type TestServer } from '../../../support/http-server';

let server: TestServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

async function carrier(): Promise<TestServer> {
  return startServer((req, res) => {
    if (req.headers['api-key'] !== 'k') return sendJson(res, 403, { message: 'forbidden' });
    const ref = req.url.pathname.split('/').pop();
    switch (ref) {
      case 'MSCU6639870':
        return sendJson(res, 200, {
          equipmentReference: 'MSCU6639870',
          lastFreeDay: '2026-02-10T23:59:00-08:00',
          locode: 'USLAX',
          updatedDateTime: '2026-02-03T12:00:00Z',
          carrierNote: 'ignored',
        });
      case 'MSCU0000001':
        return sendJson(res, 200, {
          equipmentReference: 'MSCU0000001',
          lastFreeDay: 'soon',
          locode: 'USLAX',
          updatedDateTime: '2026-02-03T12:00:00Z',
        });
      case 'MSCU0000002':
        return sendJson(res, 200, {
          equipmentReference: 'MSCU0000009',
          lastFreeDay: null,
          locode: 'USLAX',
          updatedDateTime: '2026-02-03T12:00:00Z',
        });
      case 'MSCU0000003':
        return sendJson(res, 500, { message: 'oops' });
      default:
        return sendJson(res, 404, { message: 'none' });
    }
  });
}

describe('line import deadlines client', () => {
  it('reads the line LFD in UTC and tells a missing LFD from a broken answer', async () => {
    server = await carrier();
    const client = new LineDeadlinesClient('MSCU', {
      baseUrl: server.baseUrl,
      credentials: { kind: 'api-key', key: 'k' },
      timeoutMs: 2000,
    });
    expect(await client.getDeadlines('MSCU6639870')).toEqual({
      outcome: 'found',
      deadlines: {
        equipmentReference: 'MSCU6639870',
        lastFreeDay: '2026-02-11T07:59:00.000Z',
        locode: 'USLAX',
        updatedDateTime: '2026-02-03T12:00:00.000Z',
      },
    });
    expect(server.requests[0]?.url.pathname).toBe('/x-import-deadlines/MSCU6639870');
    expect(await client.getDeadlines('MSCU7777777')).toEqual({ outcome: 'not_found' });
    expect(await client.getDeadlines('MSCU0000001')).toMatchObject({ outcome: 'malformed' });
    expect(await client.getDeadlines('MSCU0000002')).toMatchObject({
      outcome: 'malformed',
      error: expect.stringMatching(/MSCU0000009/),
    });
    expect(await client.getDeadlines('MSCU0000003')).toMatchObject({
      outcome: 'server_error',
      status: 500,
    });
    expect(client.stats()).toMatchObject({
      requests: 5,
      found: 1,
      notFound: 1,
      malformed: 2,
      serverErrors: 1,
    });
  });

  it('is reachable through the carrier registry with the carrier credentials', async () => {
    server = await carrier();
    const registry = new CarrierRegistry({
      carriers: {
        MSCU: {
          baseUrl: server.baseUrl,
          credentials: { kind: 'api-key', key: 'k' },
          timeoutMs: 2000,
        },
      },
    });
    expect(await registry.importDeadlines('mscu', 'MSCU6639870')).toMatchObject({
      outcome: 'found',
    });
  });
});
