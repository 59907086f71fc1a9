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
