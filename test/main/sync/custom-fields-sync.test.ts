/*
 * Custom fields into the cache and onto the board: a real service on 127.0.0.1, a real cache
 * file, values set through the service's API as a user of it would.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cache } from '../../../src/main/cache/cache';
import { containersCsv } from '../../../src/main/cache/csv';
import { SyncEngine } from '../../../src/main/sync/engine';
import { ManualClock } from '../../../src/shared/clock';
import type { ContainerQuery } from '../../../src/shared/desktop';
import { seedShipment, startTestService, type TestService } from '../../support/service';
import { tempDir } from '../../support/cache-fixtures';

let t: TestService;
let first: Awaited<ReturnType<typeof seedShipment>>;
let second: Awaited<ReturnType<typeof seedShipment>>;
let tmp: ReturnType<typeof tempDir>;
let cache: Cache;
let engine: SyncEngine;
let clock: ManualClock;

async function define(
  entityType: 'Container' | 'Shipment',
  slug: string,
  name: string,
  dataType: string,
  options: [string, string][] = [],
) {
  const def = await t.send('POST', '/custom_field_definitions', {
    data: {
      type: 'custom_field_definition',
      attributes: {
        entity_type: entityType,
        api_slug: slug,
        display_name: name,
        data_type: dataType,
      },
    },
  });
  expect(def.status).toBe(201);
  for (const [label, value] of options) {
    const option = await t.send('POST', `/custom_field_definitions/${def.body.data.id}/options`, {
      data: { type: 'custom_field_option', attributes: { label, value } },
    });
    expect(option.status).toBe(201);
  }
}

async function setValue(
  records: 'containers' | 'shipments',
  id: string,
  slug: string,
  value: unknown,
) {
  const res = await t.send('PATCH', `/${records}/${id}/custom_fields/${slug}`, {
    data: { type: 'custom_field', attributes: { value } },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

const TRUCKERS: [string, string][] = [
  ['Acme Drayage', 'acme'],
  ['Bay Haulers', 'bay'],
];

/** The board's rows of a query as number -> the custom field's shown value (and its origin). */
function column(query: ContainerQuery, slug: string) {
  return cache.board
    .containers(
      { showCompleted: true, sort: { column: 'number', direction: 'asc' }, ...query },
      clock.now(),
    )
    .rows.map((r) => {
      const v = r.customFields[slug];
      return [r.number, v ? `${v.text}${v.fromShipment ? ' (shipment)' : ''}` : null];
    });
}

beforeAll(async () => {
  t = await startTestService();
  first = await seedShipment(t, t.accountA, 'MEDUCF0001');
  second = await seedShipment(t, t.accountA, 'MEDUCF0002');
  await define('Container', 'trucker', 'Trucker', 'enum', TRUCKERS);
  await define('Shipment', 'trucker', 'Trucker', 'enum', TRUCKERS);
  await define('Shipment', 'po_number', 'PO number', 'short_text');
  await define('Container', 'weight', 'Weight (kg)', 'number');
  const [c1, c2] = first.containers;
  await setValue('containers', c1!.id, 'trucker', 'acme');
  await setValue('shipments', first.shipment.id, 'trucker', 'bay');
  await setValue('shipments', first.shipment.id, 'po_number', 'PO-7781 Alpha');
  await setValue('containers', c1!.id, 'weight', 12000);
  await setValue('containers', c2!.id, 'weight', 9000);
  await setValue('containers', second.containers[0]!.id, 'weight', 20500.5);

  tmp = tempDir('quayside-cf-sync-');
  cache = Cache.open(tmp.dir);
  clock = new ManualClock(t.clock.now());
  engine = new SyncEngine({
    cache,
    clock,
    connection: () => ({ baseUrl: t.baseUrl, apiKey: t.keyA }),
    pageSize: 10,
  });
  const result = await engine.sync();
  expect(result.skipped).toEqual([]);
});
afterAll(async () => {
  cache?.close();
  tmp?.remove();
  await t?.close();
});

describe('custom fields in the cache', () => {
  it('offers each field once as a board column, with its type and options', () => {
    expect(cache.board.customFieldColumns()).toEqual([
      {
        slug: 'po_number',
        label: 'PO number',
        dataType: 'short_text',
        on: ['Shipment'],
        options: [],
      },
      {
        slug: 'trucker',
        label: 'Trucker',
        dataType: 'enum',
        on: ['Container', 'Shipment'],
        options: TRUCKERS.map(([label, value]) => ({ label, value })),
      },
      { slug: 'weight', label: 'Weight (kg)', dataType: 'number', on: ['Container'], options: [] },
    ]);
  });

  it("shows a container's own value, else its shipment's", () => {
    const [c1, c2] = first.containers;
    expect(column({}, 'trucker')).toEqual(
      [
        [c1!.number, 'Acme Drayage'],
        [second.containers[0]!.number, null],
        [c2!.number, 'Bay Haulers (shipment)'],
        [second.containers[1]!.number, null],
      ].sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
    );
    expect(column({}, 'po_number').filter(([, v]) => v !== null)).toHaveLength(2);
  });

  it('filters by option, by text and by range, and sorts by a field with empty cells last', () => {
    const [c1, c2] = first.containers;
    const numbers = (query: ContainerQuery) => column(query, 'weight').map(([n]) => n);
    expect(numbers({ customFields: [{ slug: 'trucker', anyOf: ['bay'] }] })).toEqual([c2!.number]);
    expect(numbers({ customFields: [{ slug: 'trucker', anyOf: ['acme', 'bay'] }] }).sort()).toEqual(
      [c1!.number, c2!.number].sort(),
    );
    expect(numbers({ customFields: [{ slug: 'po_number', contains: 'ALPHA' }] }).sort()).toEqual(
      [c1!.number, c2!.number].sort(),
    );
    expect(numbers({ customFields: [{ slug: 'weight', min: '10000', max: '20000' }] })).toEqual([
      c1!.number,
    ]);
    expect(() =>
      cache.board.containers({ customFields: [{ slug: 'weight', min: 'heavy' }] }, clock.now()),
    ).toThrow(/not a number/);
    const sorted = cache.board
      .containers({ sort: { column: 'cf:weight', direction: 'desc' } }, clock.now())
      .rows.map((r) => r.customFields.weight?.value ?? null);
    expect(sorted).toEqual([20500.5, 12000, 9000, null]);
  });

  it('finds containers by custom field values in the search', () => {
    const [c1, c2] = first.containers;
    const found = (search: string) =>
      cache.board
        .containers({ search }, clock.now())
        .rows.map((r) => r.number)
        .sort();
    expect(found('alpha')).toEqual([c1!.number, c2!.number].sort());
    expect(found('acme')).toEqual([c1!.number]);
  });

  it('exports the custom field columns the board shows, typed', () => {
    const lines = [
      ...containersCsv(
        cache.board,
        {
          showCompleted: true,
          sort: { column: 'number', direction: 'asc' },
          customFieldColumns: ['trucker', 'weight', 'nonexistent'],
        },
        clock.now(),
      ),
    ].map((l) => l.trimEnd().split(','));
    const header = lines[0]!;
    expect(header.slice(-2)).toEqual(['Trucker', 'Weight (kg)']);
    const byNumber = new Map(lines.slice(1).map((cells) => [cells[0], cells.slice(-2)]));
    expect(byNumber.get(first.containers[0]!.number)).toEqual(['Acme Drayage', '12000']);
    expect(byNumber.get(first.containers[1]!.number)).toEqual(['Bay Haulers', '9000']);
  });

  it('follows changes on the service: a removed value goes, the shipment value shows again', async () => {
    const [c1] = first.containers;
    // The service's clock moves on, so the changes are newer than the last sync's cursor.
    t.clock.advance(60_000);
    clock.advance(60_000);
    const removed = await fetch(`${t.baseUrl}/containers/${c1!.id}/custom_fields/trucker`, {
      method: 'DELETE',
      headers: { Authorization: `Token ${t.keyA}` },
    });
    expect(removed.status).toBe(204);
    await setValue('shipments', second.shipment.id, 'po_number', 'PO-9000');
    const result = await engine.sync();
    expect(result.mode).toBe('incremental');
    expect(cache.customFieldValuesOf('container', c1!.id)).toEqual({ weight: 12000 });
    expect(cache.customFieldValuesOf('shipment', second.shipment.id)).toEqual({
      po_number: 'PO-9000',
    });
    expect(column({ search: 'acme' }, 'trucker')).toEqual([]);
    expect(column({}, 'trucker').find(([n]) => n === c1!.number)).toEqual([
      c1!.number,
      'Bay Haulers (shipment)',
    ]);
  });

  it('reads the definitions again only after a while, or at once when a value names a new one', async () => {
    t.clock.advance(60_000);
    clock.advance(60_000);
    const quiet = await engine.sync();
    // The shipment and container pages only: the definitions read minutes ago still hold.
    expect(quiet.requests).toBe(2);
    expect(cache.board.customFieldColumns().map((c) => c.slug)).not.toContain('dock');

    await define('Container', 'dock', 'Dock door', 'short_text');
    await setValue('containers', second.containers[0]!.id, 'dock', 'D-14');
    t.clock.advance(60_000);
    clock.advance(60_000);
    const named = await engine.sync();
    expect(named.skipped).toEqual([]);
    // The value named a definition the cache did not have: the definitions were read at once
    // (the list, and the options of the two enum ones) after the two pages.
    expect(named.requests).toBe(2 + 1 + 2);
    expect(cache.board.customFieldColumns().map((c) => c.slug)).toContain('dock');
    expect(cache.customFieldValuesOf('container', second.containers[0]!.id)).toMatchObject({
      dock: 'D-14',
    });
  });

  it('keeps working from the cache when the service is gone', async () => {
    const offline = new SyncEngine({
      cache,
      clock,
      connection: () => ({ baseUrl: 'http://127.0.0.1:9/v2', apiKey: 'k' }),
      client: { maxAttempts: 1 },
    });
    await expect(offline.sync()).rejects.toThrow();
    expect(column({ customFields: [{ slug: 'weight', min: '1' }] }, 'weight')).toHaveLength(3);
  });
});
