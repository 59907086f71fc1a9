/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies are untyped JSON */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedShipment, startTestService, type TestService } from '../../support/service';
import { arrivalNotice } from '../../support/documents/generated-pdfs';

let t: TestService;
let own: string;
let others: string;

beforeAll(async () => {
  t = await startTestService();
  own = (await seedShipment(t, t.accountA, 'MEDU4100001')).shipment.id;
  others = (await seedShipment(t, t.accountB, 'MEDU4100002')).shipment.id;
});
afterAll(async () => {
  await t?.close();
});

// Each upload is a distinct file (the same bytes twice is a 409 duplicate).
let serial = 0;
const nextPdf = () => arrivalNotice(`MEDU42${String(++serial).padStart(5, '0')}`);

async function uploadForm(fields: Record<string, string[]>) {
  const form = new FormData();
  for (const [name, values] of Object.entries(fields)) {
    for (const value of values) form.append(name, value);
  }
  form.append('file', new Blob([await nextPdf()]), 'order.pdf');
  const res = await fetch(`${t.baseUrl}/documents`, {
    method: 'POST',
    headers: { Authorization: `Token ${t.keyA}` },
    body: form,
  });
  return { status: res.status, body: (await res.json()) as any };
}

async function uploadJson(relationships?: unknown) {
  const data = Buffer.from(await nextPdf()).toString('base64');
  return t.send('POST', '/documents', {
    data: {
      type: 'document',
      attributes: { name: 'order.pdf', attached_document: `data:application/pdf;base64,${data}` },
      ...(relationships === undefined ? {} : { relationships }),
    },
  }) as Promise<{ status: number; body: any }>;
}

const shipmentsOf = async (id: string) =>
  ((await t.get(`/documents/${id}`)).body as any).data.relationships.shipments.data.map(
    (r: any) => r.id,
  );

describe('documents: attached to a shipment as they are uploaded', () => {
  it('multipart shipment_id: the document lists the shipment, and the shipment is includable', async () => {
    const res = await uploadForm({ name: ['Delivery order'], shipment_id: [own] });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data.relationships.shipments.data).toEqual([{ type: 'shipment', id: own }]);
    expect(await shipmentsOf(res.body.data.id)).toEqual([own]);
    const got = (await t.get(`/documents/${res.body.data.id}?include=shipments`)).body as any;
    expect(got.included.map((r: any) => [r.type, r.id])).toEqual([['shipment', own]]);
  });

  it('JSON relationships.shipments: the document lists the shipment', async () => {
    const res = await uploadJson({ shipments: { data: [{ type: 'shipment', id: own }] } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(await shipmentsOf(res.body.data.id)).toEqual([own]);
  });

  it("another account's shipment is a 422 naming the field, and nothing is stored", async () => {
    const before = ((await t.get('/documents')).body as any).meta.total;
    const form = await uploadForm({ shipment_id: [own, others] });
    expect(form.status).toBe(422);
    expect(form.body.errors[0]).toMatchObject({
      status: '422',
      source: { parameter: 'shipment_id' },
      detail: expect.stringContaining(others),
    });
    const json = await uploadJson({
      shipments: {
        data: [
          { type: 'shipment', id: own },
          { type: 'shipment', id: others },
        ],
      },
    });
    expect(json.status).toBe(422);
    expect(json.body.errors[0].source).toEqual({
      pointer: '/data/relationships/shipments/data/1/id',
    });
    expect(((await t.get('/documents')).body as any).meta.total).toBe(before);
  });

  it('an unknown or malformed shipment id and a malformed relationship are 422s', async () => {
    const unknown = await uploadForm({ shipment_id: ['00000000-0000-4000-8000-000000000000'] });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors[0].source).toEqual({ parameter: 'shipment_id' });
    const malformed = await uploadJson({ shipments: { data: [{ type: 'shipment', id: 'x' }] } });
    expect(malformed.status).toBe(422);
    expect(malformed.body.errors[0].source).toEqual({
      pointer: '/data/relationships/shipments/data/0/id',
    });
    const wrongType = await uploadJson({ shipments: { data: [{ type: 'container', id: own }] } });
    expect(wrongType.status).toBe(422);
    expect(wrongType.body.errors[0].source).toEqual({
      pointer: '/data/relationships/shipments/data/0',
    });
    const notList = await uploadJson({ shipments: { data: { type: 'shipment', id: own } } });
    expect(notList.status).toBe(422);
    expect(notList.body.errors[0].source).toEqual({
      pointer: '/data/relationships/shipments/data',
    });
  });

  it('an upload without shipments behaves as before: no shipments listed', async () => {
    const form = await uploadForm({ name: ['Plain'] });
    expect(form.status).toBe(201);
    expect(form.body.data.relationships.shipments.data).toEqual([]);
    const json = await uploadJson();
    expect(json.status).toBe(201);
    expect(json.body.data.relationships.shipments.data).toEqual([]);
  });

  it('the served OpenAPI marks the upload as a Quayside extension and tells of shipment_id', async () => {
    const spec = (await t.get('/openapi.json')).body as any;
    const post = spec.paths['/v2/documents']?.post ?? spec.paths['/documents']?.post;
    expect(post['x-quayside-extension']).toBe(true);
    expect(post.description).toContain('shipment_id');
    expect(post.description).toContain('data.relationships.shipments.data');
  });
});

describe('documents: a delivery order keeps what it stated (Quayside extension)', () => {
  let box: { id: string; number: string };
  let trucker: string;
  let notTrucker: string;

  beforeAll(async () => {
    const seeded = await seedShipment(t, t.accountA, 'MEDU4100003');
    box = seeded.containers[0]!;
    const party = async (name: string, roles: string[]) =>
      (
        (await t.send('POST', '/parties', {
          data: { type: 'party', attributes: { company_name: name, roles } },
        })) as { body: any }
      ).body.data.id as string;
    trucker = await party('Harbor Dray', ['trucker']);
    notTrucker = await party('Acme Imports', []);
  });

  const stated = (changes: Record<string, unknown> = {}) => ({
    container: { id: box.id, number: 'IGNORED0000' },
    trucker: { id: trucker, name: 'Harbor Dray' },
    sent_at: '2026-01-22T15:00:00.000Z',
    last_free_day: { date: '2026-01-25', time_zone: 'America/Los_Angeles', source: 'terminal' },
    terminal: 'Harbor Terminal',
    pickup_appointment_at: null,
    holds: ['customs'],
    pickup_number: null,
    ...changes,
  });

  it('multipart delivery_order: kept as the attribute, linked to the container and its shipment', async () => {
    const res = await uploadForm({ delivery_order: [JSON.stringify(stated())] });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const got = ((await t.get(`/documents/${res.body.data.id}`)).body as any).data;
    // The container's number is the service's own, whatever the client wrote.
    expect(got.attributes.delivery_order).toEqual(
      stated({ container: { id: box.id, number: box.number } }),
    );
    expect(got.relationships.cargos.data).toEqual([{ type: 'container', id: box.id }]);
    expect(got.relationships.shipments.data.map((s: any) => s.id)).toHaveLength(1);
    // The list carries it too (what every desktop's sync reads).
    const list = ((await t.get('/documents?page[size]=100')).body as any).data;
    expect(list.find((d: any) => d.id === got.id).attributes.delivery_order.trucker.id).toBe(
      trucker,
    );
  });

  it('JSON attributes.delivery_order works the same; other documents say null', async () => {
    const data = Buffer.from(await nextPdf()).toString('base64');
    const res = (await t.send('POST', '/documents', {
      data: {
        type: 'document',
        attributes: {
          name: 'order.pdf',
          attached_document: `data:application/pdf;base64,${data}`,
          delivery_order: stated({ holds: [] }),
        },
      },
    })) as { status: number; body: any };
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data.attributes.delivery_order.holds).toEqual([]);
    const plain = await uploadForm({ name: ['Plain'] });
    expect(plain.body.data.attributes.delivery_order).toBeNull();
  });

  it('a malformed order, another account container or a party that is not a trucker is a 422 and nothing is stored', async () => {
    const before = ((await t.get('/documents')).body as any).meta.total;
    const bad = async (order: unknown) => {
      const data = Buffer.from(await nextPdf()).toString('base64');
      return (await t.send('POST', '/documents', {
        data: {
          type: 'document',
          attributes: {
            name: 'order.pdf',
            attached_document: `data:application/pdf;base64,${data}`,
            delivery_order: order,
          },
        },
      })) as { status: number; body: any };
    };
    const date = await bad(stated({ sent_at: 'yesterday' }));
    expect(date.status).toBe(422);
    expect(date.body.errors[0].source).toEqual({
      pointer: '/data/attributes/delivery_order/sent_at',
    });
    const extra = await bad(stated({ surprise: 1 }));
    expect(extra.status).toBe(422);
    const others = (await seedShipment(t, t.accountB, 'MEDU4100004')).containers[0]!;
    const foreign = await bad(stated({ container: { id: others.id, number: others.number } }));
    expect(foreign.status).toBe(422);
    expect(foreign.body.errors[0].source).toEqual({
      pointer: '/data/attributes/delivery_order/container/id',
    });
    const party = await bad(stated({ trucker: { id: notTrucker, name: 'Acme Imports' } }));
    expect(party.status).toBe(422);
    expect(party.body.errors[0].source).toEqual({
      pointer: '/data/attributes/delivery_order/trucker/id',
    });
    const text = await uploadForm({ delivery_order: ['{not json'] });
    expect(text.status).toBe(422);
    expect(text.body.errors[0].source).toEqual({ parameter: 'delivery_order' });
    expect(((await t.get('/documents')).body as any).meta.total).toBe(before);
  });
});
