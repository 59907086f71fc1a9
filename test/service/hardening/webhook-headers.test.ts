/**
 * Custom webhook headers that could never be sent are refused when registered (create and
 * update) with a 422 pointing at the header, instead of failing every delivery later.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/service';

let t: TestService;
beforeAll(async () => {
  t = await startTestService({ allowPrivateWebhooks: true });
});
afterAll(async () => t?.close());

const attributes = (headers: unknown) => ({
  url: 'http://127.0.0.1:9/hook',
  active: true,
  events: ['container.created'],
  headers,
});
const create = (headers: unknown) =>
  t.send('POST', '/webhooks', { data: { type: 'webhook', attributes: attributes(headers) } });

const BAD_HEADERS: [string, string, string][] = [
  ['x-ok', '\u2028', 'value'],
  ['x-ok', 'tab\u0000nul', 'value'],
  ['x-ok', 'del\u007f', 'value'],
  ['x-ok', ' padded', 'value'],
  ['x-ok', 'emoji 🚢', 'value'],
  ['x-ok', 'line\nbreak', 'value'],
  ['__proto__', 'x', 'name'],
  ['constructor', 'x', 'name'],
  ['hasOwnProperty', 'x', 'name'],
  ['x bad', 'x', 'name'],
  ['x:colon', 'x', 'name'],
  ['é', 'x', 'name'],
];

describe('webhook header validation', () => {
  it.each(BAD_HEADERS)('refuses %j: %j at creation', async (name, value, part) => {
    const res = await create([{ name, value }]);
    expect(res.status).toBe(422);
    expect(res.body.errors[0].source.pointer).toBe(`/data/attributes/headers/0/${part}`);
  });

  it('refuses a repeated name and nothing is stored', async () => {
    const res = await create([
      { name: 'X-Team', value: 'a' },
      { name: 'x-team', value: 'b' },
    ]);
    expect(res.status).toBe(422);
    expect(res.body.errors[0].source.pointer).toBe('/data/attributes/headers/1/name');
    expect((await t.get('/webhooks')).body.meta.total).toBe(0);
  });

  it('refuses them on update too, and accepts sendable headers', async () => {
    const created = await create([{ name: 'Authorization', value: 'Bearer abc.def\tghi' }]);
    expect(created.status).toBe(201);
    const id = created.body.data.id;
    for (const [name, value, part] of BAD_HEADERS) {
      const res = await t.send('PATCH', `/webhooks/${id}`, {
        data: { type: 'webhook', id, attributes: { headers: [{ name, value }] } },
      });
      expect(res.status, `${name}: ${value}`).toBe(422);
      expect(res.body.errors[0].source.pointer).toBe(`/data/attributes/headers/0/${part}`);
    }
    const stored = await t.get(`/webhooks/${id}`);
    expect(stored.body.data.attributes.headers).toEqual([
      { name: 'Authorization', value: 'Bearer abc.def\tghi' },
    ]);
  });
});
