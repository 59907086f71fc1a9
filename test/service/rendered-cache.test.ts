/* eslint-disable @typescript-eslint/no-explicit-any -- API bodies are untyped JSON */
/**
 * Container and shipment resources are rendered once and reused while unchanged. Every change
 * must show on the next request, even one made in the same millisecond (the clock is not
 * advanced here unless a test says so) or written by another process, and nothing may leak
 * between accounts.
 */
import http from 'node:http';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startService } from '../../src/service';
import { DATABASE_FILE } from '../../src/service/store/db';
import { applyFeedAnswer } from '../support/feed-answers';
import { testStoreKind } from '../support/store-kinds';
import {
  FIXTURE_REFERENCE_DIR,
  seedShipment,
  startTestService,
  type TestService,
} from '../support/service';

let t: TestService;

/** Runs statements over a connection of its own, as another process (or instance) would. */
async function writeAsAnotherProcess(statements: [string, unknown[]][]) {
  if (t.database) {
    const client = new pg.Client({ connectionString: t.database.url });
    await client.connect();
    try {
      for (const [text, values] of statements) await client.query(text, values);
    } finally {
      await client.end();
    }
    return;
  }
  const other = new SQLite(path.join(t.dataDir, DATABASE_FILE));
  try {
    for (const [text, values] of statements)
      other.prepare(text.replace(/\$\d+/g, '?')).run(...values);
  } finally {
    other.close();
  }
}

beforeAll(async () => {
  // Strict reads on PostgreSQL: every request sees every commit that finished before it arrived.
  // With the default a change elsewhere shows once announced (the last test here).
  t = await startTestService({}, FIXTURE_REFERENCE_DIR, { readStalenessMs: 0 });
});

afterAll(async () => {
  await t?.close();
});

const LIST = '/containers?page[size]=100&include=shipment';

async function text(pathAndQuery: string, key = t.keyA, baseUrl = t.baseUrl): Promise<string> {
  const res = await fetch(baseUrl + pathAndQuery, { headers: { Authorization: `Token ${key}` } });
  expect(res.status).toBe(200);
  return res.text();
}

const containerIn = (doc: any, id: string) => doc.data.find((c: any) => c.id === id);
const shipmentIn = (doc: any, id: string) => doc.included.find((s: any) => s.id === id);

describe('rendered resource reuse', () => {
  it('serves the same bytes, a JSON.stringify of the document, when rendered and when reused', async () => {
    const seeded = await seedShipment(t, t.accountA, 'MEDU900000201');
    const first = await text(LIST);
    const second = await text(LIST);
    expect(second).toBe(first);
    expect(second).toBe(JSON.stringify(JSON.parse(second)));
    const detail = `/containers/${seeded.containers[0]!.id}?include=shipment`;
    expect(await text(detail)).toBe(await text(detail));
  });

  it('reuses the rendering of an unchanged container instead of rendering it again', async () => {
    const seeded = await seedShipment(t, t.accountA, 'MEDU900000208');
    const { render, stores } = t.service.store.context;
    const renderNow = async () => {
      const readAt = render.generation();
      const rows = await stores.resources.containers([seeded.containers[0]!.id]);
      return (await render.containers(rows, readAt))[0];
    };
    const first = await renderNow();
    expect(await renderNow()).toBe(first);
    await t.service.store.tracking.replaceRawEvents(seeded.containers[0]!.id, []);
    expect(await renderNow()).not.toBe(first);
  });

  it('shows attribute changes, new transport events and replaced raw events at once', async () => {
    const seeded = await seedShipment(t, t.accountA, 'MEDU900000202');
    const { tracking } = t.service.store;
    const id = seeded.containers[0]!.id;
    const detail = `/containers/${id}`;
    await text(LIST);
    await text(detail);

    // The inland rail terminal reports the box unloaded and available, in yard row 9.
    const now = new Date(t.clock.now()).toISOString();
    await applyFeedAnswer(t.service.store, id, {
      terminal: {
        facility: {
          kind: 'rail_terminal',
          firms_code: 'H572',
          smdg_code: null,
          name: 'Chicago rail ramp',
          locode: 'USCHI',
          time_zone: 'America/Chicago',
        },
        checked_at: now,
        discharged_at: null,
        rail_unloaded_at: now,
        available_for_pickup: true,
        holds: [],
        fees: [],
        last_free_day: null,
        pickup_appointment_at: null,
        yard_location: 'ROW 9',
        full_out_at: null,
        full_out_chassis_number: null,
        empty_returned_at: null,
      },
    });
    for (const doc of [
      JSON.parse(await text(LIST)),
      { data: [JSON.parse(await text(detail)).data] },
    ]) {
      expect(containerIn(doc, id).attributes.current_status).toBe('available');
      expect(containerIn(doc, id).attributes.location_at_pod_terminal).toBe('ROW 9');
    }

    // Later than the terminal's event, so the new one lists first.
    t.clock.advance(1000);
    const before = containerIn(JSON.parse(await text(LIST)), id).relationships;
    const event = await tracking.addTransportEvent(id, {
      event: 'container.transport.vessel_arrived',
      dataSource: 'shipping_line',
      timestamp: new Date(t.clock.now()).toISOString(),
      locationLocode: 'USLAX',
    });
    const raws = await tracking.replaceRawEvents(id, [
      {
        event: 'vessel_arrived',
        originalEvent: 'Arrived',
        timestamp: new Date(t.clock.now()).toISOString(),
        estimated: false,
        locationLocode: 'USLAX',
      },
    ]);
    for (const doc of [
      JSON.parse(await text(LIST)),
      { data: [JSON.parse(await text(detail)).data] },
    ]) {
      const rel = containerIn(doc, id).relationships;
      expect(rel.transport_events.data.map((e: any) => e.id)).toEqual([
        event.id,
        ...before.transport_events.data.map((e: any) => e.id),
      ]);
      expect(rel.raw_events.data).toEqual([{ id: raws[0]!.id, type: 'raw_event' }]);
    }
  });

  it("shows a new container in its shipment's containers relationship at once", async () => {
    const seeded = await seedShipment(t, t.accountA, 'MEDU900000203');
    const first = JSON.parse(await text(LIST));
    expect(shipmentIn(first, seeded.shipment.id).relationships.containers.data).toHaveLength(2);
    const detail = `/shipments/${seeded.shipment.id}`;
    expect(JSON.parse(await text(detail)).data.relationships.containers.data).toHaveLength(2);
    const added = await t.service.store.tracking.createContainer(t.accountA, seeded.shipment.id, {
      number: 'MSCU2030004',
    });
    const after = JSON.parse(await text(LIST));
    expect(containerIn(after, added.id)).toBeDefined();
    const members = shipmentIn(after, seeded.shipment.id).relationships.containers.data;
    expect(members.map((c: any) => c.id)).toContain(added.id);
    expect(after.meta.total).toBe(first.meta.total + 1);
    const detailAfter = JSON.parse(await text(detail)).data.relationships.containers.data;
    expect(detailAfter.map((c: any) => c.id)).toContain(added.id);
  });

  it('bumps updated_at when the raw events are replaced, so incremental syncs see it', async () => {
    const seeded = await seedShipment(t, t.accountA, 'MEDU900000204');
    const id = seeded.containers[1]!.id;
    t.clock.advance(60_000);
    const since = new Date(t.clock.now()).toISOString();
    const sync = `/containers?filter[updated_at][start]=${encodeURIComponent(since)}`;
    expect(JSON.parse(await text(sync)).data).toHaveLength(0);
    t.clock.advance(60_000);
    await t.service.store.tracking.replaceRawEvents(id, []);
    const doc = JSON.parse(await text(sync));
    expect(doc.data.map((c: any) => c.id)).toEqual([id]);
    expect(doc.data[0].attributes.updated_at).toBe(new Date(t.clock.now()).toISOString());
    expect(doc.data[0].relationships.raw_events.data).toEqual([]);
  });

  it('shows a change written by another process once its updated_at moved', async () => {
    const seeded = await seedShipment(t, t.accountA, 'MEDU900000205');
    const id = seeded.containers[0]!.id;
    await text(LIST);
    // Twice each: a detail read again with nothing written reuses what it read the first time.
    for (let i = 0; i < 2; i++) {
      await text(`/containers/${id}?include=shipment`);
      await text(`/shipments/${seeded.shipment.id}`);
    }
    const at = new Date(t.clock.now() + 1).toISOString();
    await writeAsAnotherProcess([
      [
        'update containers set seal_number = $1, updated_at = $2 where id = $3',
        ['SEAL-OTHER', at, id],
      ],
      [
        'update shipments set customer_name = $1, updated_at = $2 where id = $3',
        ['Other Co', at, seeded.shipment.id],
      ],
    ]);
    // The detail routes first (the list would render the new rows for them), with a detail's
    // included shipment.
    const detail = JSON.parse(await text(`/containers/${id}?include=shipment`));
    expect(detail.data.attributes.seal_number).toBe('SEAL-OTHER');
    expect(detail.included[0].attributes.customer_name).toBe('Other Co');
    expect(
      JSON.parse(await text(`/shipments/${seeded.shipment.id}`)).data.attributes.customer_name,
    ).toBe('Other Co');
    const doc = JSON.parse(await text(LIST));
    expect(containerIn(doc, id).attributes.seal_number).toBe('SEAL-OTHER');
    expect(shipmentIn(doc, seeded.shipment.id).attributes.customer_name).toBe('Other Co');
  });

  it("never serves one account's containers or shipments to another", async () => {
    const seeded = await seedShipment(t, t.accountA, 'MEDU900000206');
    const id = seeded.containers[0]!.id;
    await text(`/containers/${id}?include=shipment`);
    const res = await t.get(`/containers/${id}?include=shipment`, t.keyB);
    expect(res.status).toBe(404);
    await text(`/shipments/${seeded.shipment.id}`);
    expect((await t.get(`/shipments/${seeded.shipment.id}`, t.keyB)).status).toBe(404);
    const listB = JSON.parse(await text(LIST, t.keyB));
    expect(listB.data).toEqual([]);
    expect(listB.included).toEqual([]);
  });
});

describe('whole documents kept (list pages and container details)', () => {
  /** GET `LIST` as account A with the Host header `host`; the parsed document. */
  const listAsHost = (host: string) =>
    new Promise<any>((resolve, reject) => {
      const request = http.request(
        t.baseUrl + LIST,
        { headers: { Authorization: `Token ${t.keyA}`, Host: host } },
        (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (body += chunk));
          res.on('end', () => resolve(JSON.parse(body)));
        },
      );
      request.on('error', reject);
      request.end();
    });

  /** The container's detail with its shipment, as account A. */
  const detailOf = (id: string) => `/containers/${id}?include=shipment`;

  it.each([
    ['a list page', 'MEDU900000211', () => LIST],
    ["a container's detail", 'MEDU900000213', detailOf],
  ])('renders %s again only once something it shows has changed', async (_name, bl, pathTo) => {
    const seeded = await seedShipment(t, t.accountA, bl);
    const asked = pathTo(seeded.containers[0]!.id);
    const { render } = t.service.store.context;
    const renders = vi.spyOn(render, 'containersByKey');
    try {
      // The first asks read and keep; after them the document is sent as kept.
      for (let i = 0; i < 3; i++) await text(asked);
      renders.mockClear();
      const kept = await text(asked);
      expect(await text(asked)).toBe(kept);
      expect(renders).not.toHaveBeenCalled();

      await t.service.store.tracking.replaceRawEvents(seeded.containers[0]!.id, []);
      const changed = await text(asked);
      expect(changed).not.toBe(kept);
      expect(renders).toHaveBeenCalled();
      // What the first request after the change made is kept: the next is sent as it is.
      renders.mockClear();
      expect(await text(asked)).toBe(changed);
      expect(renders).not.toHaveBeenCalled();
    } finally {
      renders.mockRestore();
    }
  });

  it("shows a shipment's new reference numbers at once in a kept detail that includes it", async () => {
    const seeded = await seedShipment(t, t.accountA, 'MEDU900000214');
    const detail = detailOf(seeded.containers[0]!.id);
    const refNumbers = async () =>
      JSON.parse(await text(detail)).included[0].attributes.ref_numbers;
    for (let i = 0; i < 3; i++) expect(await refNumbers()).not.toContain('PO-7731');
    // The shipment changes; the container's own row does not.
    const res = await t.send('PATCH', `/shipments/${seeded.shipment.id}`, {
      data: { type: 'shipment', attributes: { ref_numbers: ['PO-7731'] } },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await refNumbers()).toEqual(['PO-7731']);
  });

  it('answers each host with links of its own', async () => {
    const port = new URL(t.baseUrl).port;
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `127.0.0.1:${port}`]) {
      for (let i = 0; i < 3; i++) {
        const doc = await listAsHost(host);
        expect(doc.links.self.startsWith(`http://${host}/v2/containers?`)).toBe(true);
      }
    }
  });

  it.each([
    ['a list page', `${LIST},custom_fields`],
    ["a container's detail", 'detail'],
  ])('shows an option relabelled since, in %s that includes custom fields', async (name, asked) => {
    const seeded = await seedShipment(t, t.accountA, `MEDU9000002${asked === 'detail' ? 15 : 12}`);
    const id = seeded.containers[0]!.id;
    const created = async (method: string, to: string, type: string, attributes: object) => {
      const res = await t.send(method, to, { data: { type, attributes } });
      expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
      return res.body.data;
    };
    const slug = `yard_trucker_${asked === 'detail' ? 'detail' : 'list'}`;
    const definition = await created(
      'POST',
      '/custom_field_definitions',
      'custom_field_definition',
      {
        entity_type: 'Container',
        api_slug: slug,
        display_name: `Yard trucker (${name})`,
        data_type: 'enum',
      },
    );
    const options = `/custom_field_definitions/${definition.id}/options`;
    const option = await created('POST', options, 'custom_field_option', {
      label: 'Acme Drayage',
      value: 'acme',
    });
    await created('POST', `/containers/${id}/custom_fields`, 'custom_field', {
      api_slug: slug,
      value: 'acme',
    });
    const path = asked === 'detail' ? `${detailOf(id)},custom_fields` : asked;
    const shown = async () => {
      const doc = JSON.parse(await text(path));
      const value = doc.included.find(
        (r: any) =>
          r.type === 'custom_field' &&
          r.relationships.entity.data.id === id &&
          r.attributes.api_slug === slug,
      );
      return value.attributes.display_value;
    };
    for (let i = 0; i < 3; i++) expect(await shown()).toBe('Acme Drayage');
    // The label lives with the definition: the container itself does not change.
    await created('PATCH', `${options}/${option.id}`, 'custom_field_option', {
      label: 'Acme Drayage West',
    });
    expect(await shown()).toBe('Acme Drayage West');
  });
});

describe.skipIf(testStoreKind() !== 'postgres')('rendered resources with several instances', () => {
  /**
   * Another instance on the test service's database (and data folder, for the secret key), on
   * its clocks: while they stand still updated_at does not move, and only row versions tell a
   * change.
   */
  const anotherInstance = (database = t.database) =>
    startService({
      dataDir: t.dataDir,
      database,
      host: '127.0.0.1',
      port: 0,
      clock: t.clock,
      wallClock: t.wallClock,
      referenceDir: FIXTURE_REFERENCE_DIR,
      config: { requestsPerMinute: 10_000 },
    });

  /** A PATCH as account A to the instance at `baseUrl`, which must succeed. */
  const patch = async (baseUrl: string, p: string, body: unknown) => {
    const res = await fetch(baseUrl + p, {
      method: 'PATCH',
      headers: { Authorization: `Token ${t.keyA}`, 'Content-Type': 'application/vnd.api+json' },
      body: JSON.stringify(body),
    });
    expect(res.status, await res.text()).toBe(200);
  };

  it('instance A serves what instance B changed, even within the same millisecond', async () => {
    const b = await anotherInstance();
    try {
      const seeded = await seedShipment(t, t.accountA, 'MEDU900000207');
      const id = seeded.containers[0]!.id;
      const detail = `/containers/${id}?include=shipment`;
      const cached = await text(detail);
      expect(await text(detail)).toBe(cached);
      await text(LIST);

      const edit = async (refNumber: string, tag: string) => {
        await patch(b.baseUrl, '/containers', {
          data: { type: 'container', id, attributes: { ref_numbers: [refNumber] } },
        });
        await patch(b.baseUrl, `/shipments/${seeded.shipment.id}`, {
          data: { type: 'shipment', id: seeded.shipment.id, attributes: { tags: [tag] } },
        });
      };
      const seenOnA = async (refNumber: string, tag: string) => {
        const docs = [JSON.parse(await text(detail)), JSON.parse(await text(LIST))];
        for (const doc of docs) {
          const container = Array.isArray(doc.data) ? containerIn(doc, id) : doc.data;
          expect(container.attributes.ref_numbers).toEqual([refNumber]);
          expect(shipmentIn(doc, seeded.shipment.id).attributes.tags).toEqual([tag]);
        }
        return docs[0].data.attributes.updated_at as string;
      };
      await edit('PO-1', 'one');
      const updatedAt = await seenOnA('PO-1', 'one');
      // Within the same millisecond: updated_at stays, the row version moves.
      await edit('PO-2', 'two');
      expect(await seenOnA('PO-2', 'two')).toBe(updatedAt);

      // The tracking engine's path on B: a new transport event for the box.
      const event = await b.store.tracking.addTransportEvent(id, {
        event: 'container.transport.vessel_departed',
        dataSource: 'shipping_line',
        timestamp: new Date(t.clock.now()).toISOString(),
        locationLocode: 'USLAX',
      });
      const after = JSON.parse(await text(detail));
      expect(after.data.relationships.transport_events.data.map((e: any) => e.id)).toContain(
        event.id,
      );
      // And both instances agree on it.
      expect(JSON.parse(await text(detail, t.keyA, b.baseUrl)).data).toEqual(after.data);
    } finally {
      await b.close();
    }
  });

  it('relying on announcements, instance A serves what instance B changed once PostgreSQL has announced it', async () => {
    // Ten seconds allowed: within the five the test waits, only an announcement shows a change.
    const relying = { ...t.database!, readStalenessMs: 10_000 };
    const a = await anotherInstance(relying);
    const b = await anotherInstance(relying);
    try {
      const seeded = await seedShipment(t, t.accountA, 'MEDU900000208');
      const id = seeded.containers[0]!.id;
      const detail = `/containers/${id}?include=shipment`;
      const refNumbersOnA = async () =>
        JSON.parse(await text(detail, t.keyA, a.baseUrl)).data.attributes.ref_numbers;
      // Read a few times first: an instance's first request sweeps old request budgets, a write
      // of its own, after which it reads the version again whatever was announced.
      for (let i = 0; i < 3; i++) expect(await refNumbersOnA()).toEqual([]);
      await patch(b.baseUrl, '/containers', {
        data: { type: 'container', id, attributes: { ref_numbers: ['PO-ANNOUNCED'] } },
      });
      // B wrote it: B shows it at once.
      expect(JSON.parse(await text(detail, t.keyA, b.baseUrl)).data.attributes.ref_numbers).toEqual(
        ['PO-ANNOUNCED'],
      );
      await expect.poll(refNumbersOnA, { timeout: 5_000, interval: 20 }).toEqual(['PO-ANNOUNCED']);
    } finally {
      await a.close();
      await b.close();
    }
  });
});
