/*
 * Malformed custom field records from a service: skipped and reported, and the cache keeps what
 * it had rather than a part of the new state. A small /v2 server on 127.0.0.1 serves exactly the
 * records under test.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cache } from '../../../src/main/cache/cache';
import { SyncEngine } from '../../../src/main/sync/engine';
import { ManualClock } from '../../../src/shared/clock';
import { tempDir } from '../../support/cache-fixtures';

const KEY = 'test-key';
const UPDATED = '2026-03-01T12:00:00.000Z';

/** What the server sends; the tests change it between runs. */
const served = {
  definitions: [] as unknown[],
  value: {} as unknown,
};

const definition = (id: string, slug: string, dataType: string) => ({
  id,
  type: 'custom_field_definition',
  attributes: {
    entity_type: 'Container',
    api_slug: slug,
    display_name: slug.toUpperCase(),
    data_type: dataType,
  },
});

function body(path: string): unknown {
  if (path === '/v2/custom_field_definitions') return { data: served.definitions };
  if (path === '/v2/shipments') {
    return {
      data: [
        {
          id: 's1',
          type: 'shipment',
          attributes: { bill_of_lading_number: 'MEDU0000001', updated_at: UPDATED },
          relationships: { custom_fields: { data: [] } },
          links: { self: '/v2/shipments/s1' },
        },
      ],
    };
  }
  if (path === '/v2/containers') {
    return {
      data: [
        {
          id: 'c1',
          type: 'container',
          attributes: { number: 'MSCU1234565', current_status: 'new', updated_at: UPDATED },
          relationships: {
            shipment: { data: { id: 's1', type: 'shipment' } },
            custom_fields: { data: [{ id: 'v1', type: 'custom_field' }] },
          },
        },
      ],
      included: [served.value],
    };
  }
  if (path === '/v2/containers/c1/transport_events') return { data: [] };
  return null;
}

let server: Server;
let baseUrl: string;
let tmp: ReturnType<typeof tempDir>;
let cache: Cache;
let engine: SyncEngine;

beforeAll(async () => {
  server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    const answer = req.headers.authorization === `Token ${KEY}` ? body(path) : null;
    res.writeHead(answer ? 200 : 404, { 'content-type': 'application/vnd.api+json' });
    res.end(JSON.stringify(answer ?? { errors: [{ status: '404', title: 'Not Found' }] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v2`;
  tmp = tempDir('quayside-cf-tolerant-');
  cache = Cache.open(tmp.dir);
  engine = new SyncEngine({
    // Each test changes the served definitions: read them on every run.
    customFieldDefinitionsEveryMs: 0,
    cache,
    clock: new ManualClock(Date.parse(UPDATED)),
    connection: () => ({ baseUrl, apiKey: KEY }),
  });
});
afterAll(async () => {
  cache?.close();
  tmp?.remove();
  await new Promise((resolve) => server?.close(resolve));
});

describe('malformed custom field records', () => {
  it('stores well-formed ones', async () => {
    served.definitions = [definition('d1', 'trucker', 'short_text')];
    served.value = {
      id: 'v1',
      type: 'custom_field',
      attributes: { api_slug: 'trucker', value: 'Acme', display_value: 'Acme' },
      relationships: { definition: { data: { id: 'd1', type: 'custom_field_definition' } } },
    };
    expect((await engine.sync()).skipped).toEqual([]);
    expect(cache.customFieldValuesOf('container', 'c1')).toEqual({ trucker: 'Acme' });
    expect(cache.board.customFieldColumns().map((c) => c.slug)).toEqual(['trucker']);
  });

  it('skips a value without `value` and keeps the cached one; a definition beyond the documented enums is kept as sent', async () => {
    served.definitions = [
      definition('d1', 'trucker', 'short_text'),
      definition('d2', 'colour', 'colour_picker'),
      {
        ...definition('d3', 'cargo_class', 'short_text'),
        attributes: {
          ...definition('d3', 'cargo_class', 'short_text').attributes,
          entity_type: 'Cargo',
        },
      },
    ];
    served.value = { id: 'v1', type: 'custom_field', attributes: { api_slug: 'trucker' } };
    const result = await engine.sync();
    expect(result.skipped.map((s) => [s.type, s.id])).toEqual([['custom_field', 'v1']]);
    expect(cache.customFieldValuesOf('container', 'c1')).toEqual({ trucker: 'Acme' });
    expect(cache.customFieldDefinitions().map((d) => [d.id, d.entityType, d.dataType])).toEqual([
      ['d1', 'Container', 'short_text'],
      ['d2', 'Container', 'colour_picker'],
      ['d3', 'Cargo', 'short_text'],
    ]);
    expect(cache.board.customFieldColumns().map((c) => c.slug)).toContain('trucker');
    expect(
      cache.board.containers({ search: 'acme' }, Date.parse(UPDATED)).rows.map((r) => r.id),
    ).toEqual(['c1']);
  });

  it('an unusable definition is skipped alone: the others are stored, its cached copy stays', async () => {
    served.definitions = [
      definition('d1', 'trucker', 'short_text'),
      { id: 'd2', type: 'custom_field_definition', attributes: { api_slug: 'colour' } },
      definition('d4', 'broker', 'short_text'),
    ];
    const result = await engine.sync();
    expect(result.skipped.map((s) => [s.type, s.id])).toEqual([
      ['custom_field_definition', 'd2'],
      ['custom_field', 'v1'], // still without its value
    ]);
    expect(cache.customFieldDefinitions().map((d) => [d.id, d.apiSlug, d.dataType])).toEqual([
      ['d1', 'trucker', 'short_text'],
      ['d2', 'colour', 'colour_picker'],
      ['d4', 'broker', 'short_text'],
    ]);
  });
});
