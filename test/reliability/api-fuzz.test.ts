/**
 * Fuzzes the /v2 API with generated malformed requests (bad JSON, wrong types, huge and deeply
 * nested bodies, unicode and control characters, bad query parameters and headers, wrong methods
 * and content types). Every answer must be a 4xx JSON:API error document; no 5xx, no crash, and
 * the service still answers normally afterwards.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/service';

/** Deterministic PRNG (mulberry32) so a failure can be replayed from the seed. */
function prng(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (max: number) => Math.floor(next() * max),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!,
  };
}

interface FuzzRequest {
  kind: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer | string;
}

const COLLECTIONS = [
  '/containers',
  '/shipments',
  '/tracking_requests',
  '/webhooks',
  '/webhook_notifications',
];
const WEIRD_STRINGS = [
  '',
  ' ',
  '\u0000',
  '\u0007\u001b[31m',
  '𝔘𝔫𝔦𝔠𝔬𝔡𝔢',
  '\u202eevil',
  'é'.repeat(500),
  "' OR 1=1 --",
  '"; DROP TABLE containers; --',
  '../../etc/passwd',
  '%00',
  '%ZZ',
  '<script>alert(1)</script>',
  '9'.repeat(400),
  '-1',
  '1e309',
  'NaN',
  '{}',
  '[]',
];

function nested(depth: number): string {
  return '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
}

function generate(
  seed: number,
  count: number,
  validKey: string,
  ids: { container: string },
): FuzzRequest[] {
  const rnd = prng(seed);
  const auth = { Authorization: `Token ${validKey}` };
  const jsonApi = { ...auth, 'Content-Type': 'application/vnd.api+json' };
  const weird = () => encodeURIComponent(rnd.pick(WEIRD_STRINGS.filter((w) => w.trim() !== '')));
  const generators: Array<() => FuzzRequest> = [
    () => ({
      kind: 'bad json',
      method: 'POST',
      path: '/tracking_requests',
      headers: jsonApi,
      body: rnd.pick([
        '{',
        '{"data":',
        'nul',
        '[1,2',
        '{"data": {"type": "tracking_request",}}',
        '\u0000\u0001',
        '"str',
      ]),
    }),
    () => ({
      kind: 'wrong types',
      method: 'POST',
      path: '/tracking_requests',
      headers: jsonApi,
      body: JSON.stringify({
        data: {
          type: rnd.pick(['tracking_request', 'container', 7, null]),
          attributes: {
            request_type: rnd.pick([1, null, [], 'teleport', {}]),
            request_number: rnd.pick([12, null, true, '', ' ', rnd.pick(WEIRD_STRINGS)]),
            scac: rnd.pick([['MAEU'], 3, 'NOPE', '', null]),
          },
        },
      }),
    }),
    () => ({
      kind: 'not an object',
      method: 'POST',
      path: '/tracking_requests',
      headers: jsonApi,
      body: rnd.pick(['[]', '1', 'true', 'null', '"x"', '{"data": []}', '{"data": "x"}']),
    }),
    () => ({
      kind: 'deeply nested',
      method: 'POST',
      path: rnd.pick(['/tracking_requests', '/webhooks']),
      headers: jsonApi,
      body: nested(500 + rnd.int(5000)),
    }),
    () => ({
      kind: 'huge body',
      method: 'POST',
      path: '/tracking_requests',
      headers: jsonApi,
      body: Buffer.alloc(1024 * 1024 + 1 + rnd.int(1024), 0x61),
    }),
    () => ({
      kind: 'wrong content type',
      method: rnd.pick(['POST', 'PATCH']),
      path: rnd.pick(['/tracking_requests', `/tracking_requests/${crypto.randomUUID()}`]),
      headers: {
        ...auth,
        'Content-Type': rnd.pick([
          'text/plain',
          'application/xml',
          'multipart/form-data; boundary=x',
          'application/x-www-form-urlencoded',
        ]),
      },
      body: 'data=1',
    }),
    () => ({
      kind: 'bad query',
      method: 'GET',
      path: rnd.pick([
        `${rnd.pick(COLLECTIONS.slice(0, 3))}?${rnd.pick(['page[size]', 'page[number]'])}=${rnd.pick(['-1', '0', 'abc', '1.5', '', '%', weird()])}`,
        `${rnd.pick(COLLECTIONS.slice(0, 3))}?include=${rnd.pick(['nope', 'shipment,nope', 'a.b.c.d', weird()])}`,
        `/tracking_requests?${rnd.pick(['filter[created_at][start]', 'filter[created_at][end]', 'filter[updated_at][start]', 'filter[status]'])}=${rnd.pick(['abc', 'a.b.c.d', '2026-13-45', '-1', weird()])}`,
        `${rnd.pick(['/containers', '/shipments'])}?filter[updated_at][start]=${rnd.pick(['abc', '2026-02-30T25:00:00Z', weird()])}`,
        `/shipments?filter[tracking_stopped]=${rnd.pick(['maybe', '2', weird()])}`,
      ]),
      headers: auth,
    }),
    () => ({
      kind: 'bad id',
      method: 'GET',
      path: `${rnd.pick(['/containers/', '/shipments/', '/tracking_requests/', '/ports/', '/terminals/', '/vessels/', '/shipping_lines/'])}${weird()}`,
      headers: auth,
    }),
    () => ({
      kind: 'unknown route',
      method: rnd.pick(['GET', 'POST', 'DELETE']),
      path: `/${weird()}/${rnd.int(1000)}`,
      headers: auth,
    }),
    () => ({
      kind: 'wrong method',
      method: rnd.pick(['PUT', 'DELETE', 'PATCH', 'POST']),
      path: rnd.pick(['/containers', '/shipments', `/containers/${ids.container}`, '/ports']),
      headers: jsonApi,
      body: '{}',
    }),
    () => ({
      kind: 'odd method',
      method: rnd.pick(['PROPFIND', 'TRACE', 'MKCOL', 'SEARCH']),
      path: '/containers',
      headers: auth,
    }),
    () => ({
      kind: 'no auth',
      method: 'GET',
      path: rnd.pick(COLLECTIONS),
      headers: rnd.pick<Record<string, string>>([
        {},
        { Authorization: '' },
        { Authorization: 'Token' },
        { Authorization: 'Bearer x' },
        { Authorization: `Token ${weird()}` },
        { Authorization: `token  ${validKey}x` },
      ]),
    }),
    () => ({
      kind: 'bad header',
      method: 'POST',
      path: '/tracking_requests',
      headers: {
        Authorization: rnd.pick([`Token ${validKey}`, 'Token \u00ff\u00fe']),
        'Content-Type': rnd.pick([
          'application/vnd.api+json; ext="nope"',
          'application/json-patch+json',
          'vnd.api+json',
          'text/json',
        ]),
        ...rnd.pick<Record<string, string>>([
          {},
          { 'Content-Length': 'abc' },
          { 'Transfer-Encoding': 'gzip' },
        ]),
      },
      body: '{"data":{"type":"tracking_request","attributes":{"request_type":"container","request_number":"MSKU1234565","scac":"MAEU"}}}',
    }),
    () => ({
      kind: 'patch garbage',
      method: 'PATCH',
      path: rnd.pick([
        `/tracking_requests/${crypto.randomUUID()}`,
        `/shipments/${weird()}/stop_tracking`,
        `/containers/${ids.container}`,
      ]),
      headers: jsonApi,
      body: rnd.pick([
        '{"data":{"attributes":{"tags":"x"}}}',
        '{"data":{"attributes":{"ref_numbers":[1,2]}}}',
        '{',
        JSON.stringify({ data: { attributes: { tags: Array(10_000).fill('t') } } }),
      ]),
    }),
    () => ({
      kind: 'webhook garbage',
      method: 'POST',
      path: rnd.pick(['/webhooks', '/webhooks/trigger']),
      headers: rnd.pick([jsonApi, { ...auth, 'Content-Type': 'application/json' }]),
      body: JSON.stringify(
        rnd.pick([
          { url: weird(), event: 7 },
          { data: { type: 'webhook', attributes: { url: 'ftp://x', events: ['no.such.event'] } } },
          { url: 'http://169.254.169.254/latest', event: 'container.transport.vessel_arrived' },
          {},
        ]),
      ),
    }),
    () => ({
      kind: 'custom field garbage',
      method: rnd.pick(['POST', 'PATCH']),
      path: rnd.pick([
        '/custom_field_definitions',
        `/containers/${ids.container}/custom_fields`,
        `/containers/${ids.container}/custom_fields/${rnd.pick(['trucker', weird()])}`,
        '/custom_fields',
        `/custom_fields/${weird()}`,
        '/parties',
        `/shipments/${weird()}`,
        '/containers',
      ]),
      headers: jsonApi,
      body: JSON.stringify(
        rnd.pick([
          { data: { type: 'custom_field', attributes: { api_slug: 'trucker', value: {} } } },
          { data: { type: 'custom_field', attributes: { api_slug: '__proto__', value: 'one' } } },
          { data: { type: 'custom_field', attributes: { value: [[], null, Number.MAX_VALUE] } } },
          {
            data: {
              type: 'custom_field_definition',
              attributes: { entity_type: 'Box', api_slug: weird(), data_type: 'enum' },
            },
          },
          { data: { attributes: { company_name: rnd.pick([7, null, '', ' ', {}]) } } },
          { data: [{ type: 'container', id: weird(), attributes: { ref_numbers: [1] } }] },
          { data: { attributes: { custom_fields: { constructor: 'x' } } } },
        ]),
      ),
    }),
    () => ({
      kind: 'vessel route garbage',
      method: 'GET',
      path: `/vessels/${rnd.pick(['9839430', weird()])}/${rnd.pick(['future_positions', 'future_positions_with_coordinates'])}?port_id=${weird()}&previous_port_id=${weird()}&latitude=${rnd.pick(['91', 'x', '1e309', '-0'])}&longitude=${rnd.pick(['181', 'NaN', '0'])}`,
      headers: auth,
    }),
    () => ({
      kind: 'infer garbage',
      method: 'POST',
      path: '/tracking_requests/infer_number',
      headers: jsonApi,
      body: rnd.pick([
        '{}',
        '{"number": 5}',
        JSON.stringify({ number: 'x'.repeat(100_000) }),
        '{"data":{"attributes":{"number":null}}}',
      ]),
    }),
  ];
  return Array.from({ length: count }, () => rnd.pick(generators)());
}

function send(
  baseUrl: string,
  fuzz: FuzzRequest,
): Promise<{ status: number; contentType: string; body: string }> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        method: fuzz.method,
        // The path is sent as generated: percent-escapes and odd bytes reach the router as a client would send them.
        path: `${url.pathname}${fuzz.path}`,
        headers: fuzz.headers,
        timeout: 10_000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            contentType: String(res.headers['content-type'] ?? ''),
            body: Buffer.concat(chunks).toString(),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('timeout', () =>
      req.destroy(new Error(`timeout: ${fuzz.kind} ${fuzz.method} ${fuzz.path}`)),
    );
    // A server may answer 413 and close before the whole body is written; that is an answer too.
    req.on('error', (error: NodeJS.ErrnoException) =>
      error.code === 'EPIPE' || error.code === 'ECONNRESET'
        ? resolve({
            status: 413,
            contentType: 'application/vnd.api+json',
            body: '{"errors":[{"status":"413","title":"closed early"}]}',
          })
        : reject(error),
    );
    if (fuzz.body !== undefined) req.write(fuzz.body);
    req.end();
  });
}

describe('API fuzzing', () => {
  let t: TestService;
  let containerId: string;

  beforeAll(async () => {
    t = await startTestService();
    const shipment = await t.service.store.tracking.createShipment(t.accountA, {
      billOfLadingNumber: 'FUZZBL0001',
      scac: 'MAEU',
    });
    const container = await t.service.store.tracking.createContainer(t.accountA, shipment.id, {
      number: 'MSKU1234565',
    });
    containerId = container.id;
    await t.send('POST', '/custom_field_definitions', {
      data: {
        type: 'custom_field_definition',
        attributes: {
          entity_type: 'Container',
          api_slug: 'trucker',
          display_name: 'Trucker',
          data_type: 'number',
        },
      },
    });
  });
  afterAll(() => t?.close());

  it('answers 2,000 malformed requests with JSON:API errors and never a 5xx', async () => {
    const requests = generate(20261121, 2000, t.keyA, { container: containerId });
    const failures: string[] = [];
    const byKind = new Map<string, number>();
    for (let start = 0; start < requests.length; start += 25) {
      const batch = requests.slice(start, start + 25);
      const answers = await Promise.all(batch.map((fuzz) => send(t.baseUrl, fuzz)));
      answers.forEach((answer, index) => {
        const fuzz = batch[index]!;
        byKind.set(fuzz.kind, (byKind.get(fuzz.kind) ?? 0) + 1);
        const describe = `${fuzz.kind}: ${fuzz.method} ${fuzz.path.slice(0, 80)} -> ${answer.status} ${answer.body.slice(0, 160)}`;
        if (answer.status >= 500 || answer.status < 400) {
          failures.push(describe);
          return;
        }
        let parsed: unknown;
        try {
          parsed = JSON.parse(answer.body);
        } catch {
          failures.push(`not JSON: ${describe}`);
          return;
        }
        const errors = (parsed as { errors?: Array<{ status?: unknown; title?: unknown }> }).errors;
        if (
          !Array.isArray(errors) ||
          errors.length === 0 ||
          errors.some((e) => typeof e.status !== 'string' || typeof e.title !== 'string')
        ) {
          failures.push(`not a JSON:API error: ${describe}`);
        }
      });
    }
    expect(failures.slice(0, 20)).toEqual([]);
    expect(byKind.size).toBeGreaterThanOrEqual(15);

    // Still alive and still right.
    const after = await t.get(`/containers/${containerId}`);
    expect(after.status).toBe(200);
    expect(after.body.data.attributes.number).toBe('MSKU1234565');
  }, 120_000);
});
