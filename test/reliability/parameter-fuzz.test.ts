/**
 * Generated abuse of every documented parameter: the routes and their query, path and header
 * parameters are read from the service's own OpenAPI document, and each parameter gets built-in
 * object property names (`__proto__`, `constructor`, …), numeric extremes (1e308, 2^63, -0,
 * NaN, …) and odd text; parameter names themselves are abused too, bodies carry the same values
 * in every attribute, and requests carry abused headers. At least 10,000 requests; every answer
 * must be a JSON document that is not a 5xx, and the service must still answer normally after.
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
    int: (max: number) => Math.floor(next() * max),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!,
  };
}

const PROTOTYPE_NAMES = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'valueOf',
  'hasOwnProperty',
  'isPrototypeOf',
  '__defineGetter__',
  '__lookupSetter__',
  'constructor.prototype',
  '__proto__.__proto__',
  'shipment.__proto__',
  'containers.constructor',
];
const NUMERIC_EXTREMES = [
  '0',
  '-0',
  '-1',
  '1e308',
  '-1e308',
  '1e309',
  '1e-308',
  '5e-324',
  '9007199254740991',
  '9007199254740993',
  '307445734561825861',
  '9223372036854775807',
  '9223372036854775808',
  '18446744073709551616',
  '2147483648',
  '-2147483649',
  '4294967296',
  'NaN',
  'Infinity',
  '-Infinity',
  '0x10',
  '1_000',
  '00001',
  '1.0',
  '1.5',
  '9'.repeat(400),
];
const ODD_TEXT = [
  '',
  ' ',
  '\u0000',
  '\u2028',
  '\ud800',
  '𝔘𝔫𝔦',
  "' OR 1=1 --",
  '%',
  '[]',
  '{}',
  'true',
  'null',
  'x'.repeat(5000),
];
const VALUES = [...PROTOTYPE_NAMES, ...NUMERIC_EXTREMES, ...ODD_TEXT];
/** Abused parameter names, added to any route. */
const ODD_PARAMETER_NAMES = [
  '__proto__',
  '__proto__[x]',
  'constructor[prototype][x]',
  'filter[__proto__]',
  'filter[constructor]',
  'page[__proto__]',
  'page[constructor]',
  'include[__proto__]',
  'fields[__proto__]',
  'sort',
  'page[number][]',
  'include[]',
];

interface Operation {
  method: string;
  /** With `{id}` where the path parameter goes. */
  path: string;
  query: string[];
  pathParams: string[];
  headerParams: string[];
  hasBody: boolean;
}

interface FuzzRequest {
  kind: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/** Percent-encodes; a lone surrogate goes out as its raw (invalid UTF-8) bytes. */
const enc = (v: string) => {
  try {
    return encodeURIComponent(v);
  } catch {
    return v
      .replace(/[\ud800-\udfff]/g, '%ED%A0%80')
      .replace(/[^%\w]/g, (c) => encodeURIComponent(c));
  }
};

/** Header values Node will send (latin-1, no line breaks); others are sent percent-encoded. */
const headerSafe = (v: string) => (/^[\t\x20-\x7e\x80-\xff]*$/.test(v) ? v : enc(v));

function bodyFor(value: unknown, rnd: ReturnType<typeof prng>): string {
  const name = rnd.pick(PROTOTYPE_NAMES);
  const shapes: unknown[] = [
    { data: { type: value, attributes: { [name]: value } } },
    {
      data: {
        type: 'tracking_request',
        attributes: { request_type: value, request_number: value, scac: value },
      },
    },
    {
      data: {
        type: 'webhook',
        attributes: {
          url: value,
          events: [value],
          active: value,
          headers: [{ name: value, value }],
        },
      },
    },
    {
      data: {
        type: 'webhook',
        attributes: {
          url: 'https://10.0.0.1/x',
          events: ['container.created'],
          headers: [{ name, value: String(value) }],
        },
      },
    },
    {
      data: {
        id: value,
        type: 'tracking_request',
        attributes: { ref_numbers: [value], tags: [value] },
      },
    },
    { url: 'https://127.0.0.1/x', event: value, secret: value },
    { number: value },
    { [name]: { [name]: value } },
  ];
  const shape = JSON.stringify(rnd.pick(shapes));
  // JSON.stringify cannot write `__proto__` as an own key of a literal: put it in as text too.
  return rnd.int(4) === 0
    ? shape.replace(/^\{/, `{"__proto__":{"polluted":${JSON.stringify(value)}},`)
    : shape;
}

function generate(
  seed: number,
  minimum: number,
  ops: Operation[],
  ids: Record<string, string>,
  key: string,
): FuzzRequest[] {
  const rnd = prng(seed);
  const auth = { Authorization: `Token ${key}` };
  const realId = (path: string) => ids[path.split('/')[1] ?? ''] ?? crypto.randomUUID();
  const pathOf = (op: Operation, id?: string) =>
    op.path.replace(/\{[^}]+\}/g, enc(id ?? realId(op.path)));
  const base = (op: Operation): FuzzRequest => ({
    kind: '',
    method: op.method,
    path: pathOf(op),
    headers: op.hasBody ? { ...auth, 'Content-Type': 'application/vnd.api+json' } : auth,
    ...(op.hasBody ? { body: bodyFor(rnd.pick(VALUES), rnd) } : {}),
  });
  const out: FuzzRequest[] = [];
  // Every value in every query parameter, path parameter and header parameter.
  for (const op of ops) {
    for (const value of VALUES) {
      for (const q of op.query) {
        out.push({ ...base(op), kind: `query ${q}`, path: `${pathOf(op)}?${q}=${enc(value)}` });
      }
      for (const p of op.pathParams)
        out.push({ ...base(op), kind: `path ${p}`, path: pathOf(op, value || '%20') });
      for (const h of op.headerParams) {
        out.push({
          ...base(op),
          kind: `header ${h}`,
          headers: { ...base(op).headers, [h]: headerSafe(value) },
        });
      }
    }
    for (const name of ODD_PARAMETER_NAMES) {
      out.push({
        ...base(op),
        kind: 'odd parameter name',
        path: `${pathOf(op)}?${name}=${enc(rnd.pick(VALUES))}`,
      });
    }
    if (op.hasBody) {
      for (const value of [
        ...VALUES,
        1e308,
        -1e308,
        Number.MAX_SAFE_INTEGER + 2,
        -0,
        null,
        true,
        [],
        {},
      ]) {
        out.push({ ...base(op), kind: 'body', body: bodyFor(value, rnd) });
      }
    }
  }
  // Header abuse on any route.
  const abusedHeaders = (): Record<string, string> =>
    rnd.pick<Record<string, string>>([
      { Authorization: `Token ${key}${'x'.repeat(rnd.int(8000))}` },
      { Authorization: `Token ${rnd.pick(PROTOTYPE_NAMES)}` },
      { Authorization: `Token ${rnd.pick(NUMERIC_EXTREMES)}` },
      { Authorization: `Token\t${key}` },
      {
        Authorization: `TOKEN ${key}`,
        Accept: rnd.pick(['*/*', 'text/html', 'application/vnd.api+json; ext=x', '\u00ff']),
      },
      {
        ...auth,
        'Content-Type': rnd.pick([
          'application/vnd.api+json; charset=latin1',
          'application/json; x=__proto__',
          '__proto__/constructor',
        ]),
      },
      {
        ...auth,
        'X-Forwarded-For': rnd.pick([
          '__proto__',
          '::ffff:0:127.0.0.1',
          '1e308',
          '999.999.999.999',
        ]),
      },
      {
        ...auth,
        'If-None-Match': rnd.pick(['*', '"__proto__"', 'W/"', '"' + '9'.repeat(400) + '"']),
      },
      { ...auth, Range: `bytes=${rnd.pick(NUMERIC_EXTREMES)}-` },
      { ...auth, 'Accept-Encoding': rnd.pick(['__proto__', 'gzip;q=1e308', 'br;q=NaN']) },
      {
        ...auth,
        [rnd.pick(['__proto__', 'constructor', 'toString', 'x-' + 'h'.repeat(200)])]: headerSafe(
          rnd.pick(VALUES),
        ),
      },
      { ...auth, 'Content-Length': rnd.pick(['0', '-1', '1e308', '18446744073709551616']) },
    ]);
  while (out.length < minimum) {
    const op = rnd.pick(ops);
    const roll = rnd.int(3);
    if (roll === 0) {
      const headers = abusedHeaders();
      // Content-Length lies only make sense without a body the client would then send anyway.
      out.push({
        ...base(op),
        kind: 'header abuse',
        headers,
        ...(headers['Content-Length'] ? { body: undefined, method: 'GET' } : {}),
      });
    } else {
      const params = [...op.query, ...ODD_PARAMETER_NAMES];
      const parts = Array.from(
        { length: 1 + rnd.int(4) },
        () => `${rnd.pick(params)}=${enc(rnd.pick(VALUES))}`,
      );
      out.push({ ...base(op), kind: 'parameter mix', path: `${pathOf(op)}?${parts.join('&')}` });
    }
  }
  return out;
}

function send(baseUrl: string, fuzz: FuzzRequest): Promise<{ status: number; body: string }> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        method: fuzz.method,
        path: `${url.pathname}${fuzz.path}`,
        headers: fuzz.headers,
        timeout: 10_000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }),
        );
        res.on('error', reject);
      },
    );
    req.on('timeout', () =>
      req.destroy(new Error(`timeout: ${fuzz.kind} ${fuzz.method} ${fuzz.path}`)),
    );
    req.on('error', reject);
    if (fuzz.body !== undefined) req.write(fuzz.body);
    req.end();
  });
}

describe('parameter fuzzing', () => {
  let t: TestService;
  let ops: Operation[];
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    // Private webhook targets stay refused: no generated url may lead to a delivery attempt.
    // The request limit is above the run's count (its clock never moves on): the last read
    // must be answered, not limited.
    t = await startTestService({ requestsPerMinute: 1_000_000 });
    const { tracking } = t.service.store;
    const shipment = await tracking.createShipment(t.accountA, {
      billOfLadingNumber: 'FUZZBL0002',
      scac: 'MAEU',
    });
    const container = await tracking.createContainer(t.accountA, shipment.id, {
      number: 'MSKU1234565',
    });
    const request = await tracking.createTrackingRequest(t.accountA, {
      requestType: 'bill_of_lading',
      requestNumber: 'FUZZBL0003',
      scac: 'MSCU',
    });
    const definition = await t.send('POST', '/custom_field_definitions', {
      data: {
        type: 'custom_field_definition',
        attributes: {
          entity_type: 'Container',
          api_slug: 'trucker',
          display_name: 'Trucker',
          data_type: 'short_text',
        },
      },
    });
    const value = await t.send('POST', `/containers/${container.id}/custom_fields`, {
      data: { type: 'custom_field', attributes: { api_slug: 'trucker', value: 'Acme' } },
    });
    const party = await t.send('POST', '/parties', {
      data: { attributes: { company_name: 'Fuzz Freight' } },
    });
    Object.assign(ids, {
      custom_field_definitions: definition.body.data.id,
      custom_fields: value.body.data.id,
      parties: party.body.data.id,
      shipments: shipment.id,
      containers: container.id,
      tracking_requests: request.id,
      ports: 'USLAX',
      metro_areas: 'USCHI',
      vessels: '9839430',
      shipping_lines: 'MSCU',
    });
    const doc = (await t.get('/openapi.json')).body as {
      paths: Record<
        string,
        Record<string, { parameters?: { in: string; name: string }[]; requestBody?: unknown }>
      >;
    };
    ops = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, op]) => {
        const params = op.parameters ?? [];
        const named = (where: string) => params.filter((p) => p.in === where).map((p) => p.name);
        return {
          method: method.toUpperCase(),
          path,
          query: named('query'),
          pathParams: named('path'),
          headerParams: named('header'),
          hasBody: op.requestBody !== undefined,
        };
      }),
    );
  });
  afterAll(() => t?.close());

  it('answers at least 10,000 abused requests without a 5xx', async () => {
    expect(ops.length).toBeGreaterThanOrEqual(25);
    const requests = generate(20261123, 10_000, ops, ids, t.keyA);
    const failures: string[] = [];
    const byStatus = new Map<number, number>();
    for (let start = 0; start < requests.length; start += 32) {
      const batch = requests.slice(start, start + 32);
      const answers = await Promise.all(batch.map((fuzz) => send(t.baseUrl, fuzz)));
      answers.forEach((answer, index) => {
        const fuzz = batch[index]!;
        byStatus.set(answer.status, (byStatus.get(answer.status) ?? 0) + 1);
        const describe = `${fuzz.kind}: ${fuzz.method} ${fuzz.path.slice(0, 100)} -> ${answer.status} ${answer.body.slice(0, 160)}`;
        if (answer.status >= 500 || answer.status < 200) failures.push(describe);
        else if (answer.status !== 204 && answer.status !== 304) {
          try {
            JSON.parse(answer.body);
          } catch {
            failures.push(`not JSON: ${describe}`);
          }
        }
      });
    }
    console.log(
      `parameter fuzzing: ${requests.length} requests over ${ops.length} operations; answers by status ${JSON.stringify(Object.fromEntries([...byStatus].sort((a, b) => a[0] - b[0])))}`,
    );
    expect(failures.slice(0, 20)).toEqual([]);
    expect(requests.length).toBeGreaterThanOrEqual(10_000);
    expect([...byStatus.keys()].filter((s) => s >= 500)).toEqual([]);

    const after = await t.get(`/containers/${ids.containers}`);
    expect(after.status).toBe(200);
    expect(after.body.data.attributes.number).toBe('MSKU1234565');
  }, 180_000);
});
