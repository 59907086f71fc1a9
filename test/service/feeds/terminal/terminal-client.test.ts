import { afterEach, describe, expect, it } from 'vitest';
import type { TerminalContainerStatus } from '../../../../src/shared/feeds/terminal';
import { TerminalClient } from '../../../../src/service/feeds/terminal/client';
import { sendJson, startServer, type TestServer } from '../../../support/http-server';

let server: TestServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

function status(container_number: string): TerminalContainerStatus {
  return {
    container_number,
    facility: {
      kind: 'terminal',
      firms_code: 'Y258',
      smdg_code: 'APMT',
      name: 'APM Terminals Pier 400',
      locode: 'USLAX',
      time_zone: 'America/Los_Angeles',
    },
    checked_at: '2026-02-03T10:00:00Z',
    discharged_at: '2026-02-03T04:00:00Z',
    rail_unloaded_at: null,
    available_for_pickup: false,
    holds: [{ name: 'customs', status: 'hold', description: null }],
    fees: [{ type: 'demurrage', amount: 0, currency_code: 'USD' }],
    last_free_day: '2026-02-08T07:59:00Z',
    pickup_appointment_at: null,
    yard_location: 'R12-04-3',
    full_out_at: null,
    full_out_chassis_number: null,
    empty_returned_at: null,
  };
}

/** A record with a hold status and a fee type the contract's lists do not name. */
const oddValues = (n: string): TerminalContainerStatus => ({
  ...status(n),
  // A kind of facility and a place code outside the contract's lists (an off-dock yard).
  facility: { ...status(n).facility, kind: 'off_dock_yard', locode: 'US-LAX-7' },
  holds: [
    { name: 'usda', status: 'inspection_scheduled', description: 'USDA exam booked' },
    { name: 'customs', status: 'hold', description: null },
  ],
  fees: [
    { type: 'storage', amount: 95, currency_code: 'USD' },
    { type: 'demurrage', amount: 300, currency_code: 'USD' },
  ],
});

const KNOWN = new Set(Array.from({ length: 130 }, (_, i) => `MSCU${String(1000000 + i)}`));

async function terminal(): Promise<TestServer> {
  return startServer((req, res) => {
    if (req.headers.authorization !== 'Bearer t0ken')
      return sendJson(res, 401, { error: 'unauthorized' });
    if (req.method === 'GET') {
      const number = req.url.pathname.split('/').pop() ?? '';
      if (number === 'BADU0000001')
        return sendJson(res, 200, { ...status(number), available_for_pickup: 'yes' });
      if (number === 'SLOW0000001') return; // never answers
      if (number === 'ODDU0000001') return sendJson(res, 200, oddValues(number));
      return KNOWN.has(number)
        ? sendJson(res, 200, status(number))
        : sendJson(res, 404, { error: 'unknown' });
    }
    const { container_numbers } = JSON.parse(req.body) as { container_numbers: string[] };
    if (container_numbers.length > 100) return sendJson(res, 400, { error: 'too many' });
    const containers: unknown[] = container_numbers.filter((n) => KNOWN.has(n)).map(status);
    if (container_numbers.includes('MSCU1000001'))
      containers[1] = { ...status('MSCU1000001'), holds: 'none' };
    sendJson(res, 200, { containers, not_found: container_numbers.filter((n) => !KNOWN.has(n)) });
  });
}

/** A client that presents the terminal's token. */
const withToken = (terminal: TestServer, timeoutMs = 2000) =>
  new TerminalClient({
    baseUrl: terminal.baseUrl,
    credentials: { kind: 'bearer', token: 't0ken' },
    timeoutMs,
  });

describe('terminal client', () => {
  it('reads one container, with bearer auth; 404 means not known yet', async () => {
    server = await terminal();
    const client = withToken(server);
    const found = await client.getContainer('mscu1000005');
    expect(found).toEqual({ outcome: 'found', status: status('MSCU1000005') });
    expect(await client.getContainer('TGHU9999999')).toEqual({ outcome: 'not_found' });
    expect(await client.getContainer('BADU0000001')).toMatchObject({ outcome: 'malformed' });
    const noAuth = new TerminalClient({ baseUrl: server.baseUrl, timeoutMs: 2000 });
    expect(await noAuth.getContainer('MSCU1000005')).toMatchObject({
      outcome: 'rejected',
      status: 401,
    });
    expect(client.stats()).toMatchObject({ requests: 3, found: 1, notFound: 1, malformed: 1 });
  });

  it('keeps a facility kind, place code, hold status or fee type beyond the documented ones as sent, with the record', async () => {
    server = await terminal();
    const client = withToken(server);
    expect(await client.getContainer('ODDU0000001')).toEqual({
      outcome: 'found',
      status: oddValues('ODDU0000001'),
    });
  });

  it('times out a silent terminal', async () => {
    server = await terminal();
    const client = withToken(server, 150);
    expect(await client.getContainer('SLOW0000001')).toMatchObject({
      outcome: 'unreachable',
      reason: 'timeout',
    });
  });

  it('splits large batches, drops a bad record and lists unknown numbers', async () => {
    server = await terminal();
    const client = withToken(server);
    const numbers = [...[...KNOWN].slice(0, 120), 'TGHU9999999', 'not-a-number'];
    const result = await client.queryContainers(numbers);
    expect(
      server.requests.map(
        (r) => (JSON.parse(r.body) as { container_numbers: string[] }).container_numbers.length,
      ),
    ).toEqual([100, 21]);
    expect(result.found.size).toBe(119);
    expect(result.found.has('MSCU1000001')).toBe(false);
    expect(result.invalid.map((i) => i.container_number)).toEqual(['NOT-A-NUMBER', 'MSCU1000001']);
    expect(result.notFound).toEqual(['TGHU9999999']);
    expect(result.failures).toEqual([]);
    expect(client.stats().droppedRecords).toBe(1);
  });

  it('reports a batch that fails as a whole with its numbers', async () => {
    server = await startServer((_req, res) => sendJson(res, 502, { error: 'bad gateway' }));
    const client = new TerminalClient({ baseUrl: server.baseUrl, timeoutMs: 2000 });
    const result = await client.queryContainers(['MSCU1000000', 'MSCU1000002']);
    expect(result.failures).toMatchObject([{ outcome: 'server_error', status: 502 }]);
    expect(result.failedNumbers).toEqual(['MSCU1000000', 'MSCU1000002']);
  });
});
