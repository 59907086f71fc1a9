/**
 * Every operation of the reference API (by method and path) is served and documented in
 * /v2/openapi.json, except the groups another part of the product owns or leaves out: documents,
 * email submissions and document schemas. Path parameter names may differ ({id} vs {imo}).
 */
import fs from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { referenceFile } from '../support/reference-files';
import { startTestService, type TestService } from '../support/service';

const referencePath = referenceFile('terminal49-v2-openapi.json');
const EXCLUDED_TAGS = new Set(['Documents', 'Email Submissions', 'Document Schemas']);
const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

interface OpenApi {
  paths: Record<string, Record<string, { tags?: string[] }>>;
}

const operationKey = (method: string, p: string) =>
  `${method.toUpperCase()} ${p.replace(/\{[^}]+\}/g, '{}')}`;

function operations(doc: OpenApi, include: (tags: string[]) => boolean): Map<string, string> {
  const out = new Map<string, string>();
  for (const [p, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (op && include(op.tags ?? []))
        out.set(operationKey(method, p), `${method.toUpperCase()} ${p}`);
    }
  }
  return out;
}

let t: TestService;
beforeAll(async () => {
  t = await startTestService();
});
afterAll(async () => t?.close());

it('serves and documents every reference operation outside documents and email', async () => {
  const reference = JSON.parse(fs.readFileSync(referencePath, 'utf8')) as OpenApi;
  const wanted = operations(reference, (tags) => !tags.some((tag) => EXCLUDED_TAGS.has(tag)));
  const res = await fetch(`${t.baseUrl}/openapi.json`);
  const served = operations((await res.json()) as OpenApi, () => true);
  const missing = [...wanted].filter(([key]) => !served.has(key)).map(([, name]) => name);
  expect(missing, `missing from /v2/openapi.json:\n${missing.join('\n')}`).toEqual([]);
  expect(wanted.size).toBeGreaterThan(60);
});

it('answers every documented operation with something other than "no route" (404 for an unknown id is fine)', async () => {
  const doc = (await (await fetch(`${t.baseUrl}/openapi.json`)).json()) as OpenApi;
  const unrouted: string[] = [];
  const fakeId = '00000000-0000-4000-8000-000000000000';
  for (const [p, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      if (!item[method]) continue;
      const url = t.baseUrl + p.replace(/\{[^}]+\}/g, fakeId);
      const res = await fetch(url, {
        method: method.toUpperCase(),
        headers: { Authorization: `Token ${t.keyA}`, 'Content-Type': 'application/json' },
        ...(method === 'get' || method === 'delete' ? {} : { body: '{}' }),
      });
      const body = (await res.json().catch(() => ({}))) as { errors?: { detail?: string }[] };
      if (res.status === 404 && body.errors?.[0]?.detail?.startsWith('No route for')) {
        unrouted.push(`${method.toUpperCase()} ${p}`);
      }
    }
  }
  expect(unrouted).toEqual([]);
});
