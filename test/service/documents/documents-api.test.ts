/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies are untyped JSON */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedShipment, startTestService, type TestService } from '../../support/service';
import { startReceiver, verifySignatures, type Receiver } from '../../support/webhook-receiver';
import {
  ARRIVAL,
  BILL,
  WRONG,
  arrivalNotice,
  billOfLading,
  compressionBomb,
  corruptPdf,
  executable,
  manyStreamBomb,
  nonDocument,
  wrongCheckDigit,
} from '../../support/documents/generated-pdfs';
import { sha256Hex } from '../../../src/service/documents/files';
import { until } from '../../support/wait';

let t: TestService;
let receiver: Receiver;
let webhookSecret: string;

beforeAll(async () => {
  t = await startTestService({ allowPrivateWebhooks: true });
  receiver = await startReceiver();
  const hook = await t.send('POST', '/webhooks', {
    data: {
      type: 'webhook',
      attributes: {
        url: receiver.url,
        active: true,
        events: ['document.extracted', 'document.extraction_failed'],
      },
    },
  });
  expect(hook.status).toBe(201);
  webhookSecret = hook.body.data.attributes.secret;
});
afterAll(async () => {
  await t?.close();
  await receiver?.close();
});

const idle = () => t.service.store.context.documents.service.idle();
/** Between two rounds of asking while a document is read: at most 2,400 requests a minute. */
const POLL_PAUSE_MS = 50;

async function upload(bytes: Uint8Array, fileName: string, key = t.keyA) {
  const form = new FormData();
  form.append('name', fileName);
  form.append('file', new Blob([bytes]), fileName);
  const res = await fetch(`${t.baseUrl}/documents`, {
    method: 'POST',
    headers: { Authorization: `Token ${key}` },
    body: form,
  });
  return { status: res.status, body: (await res.json()) as any };
}

/** Uploads, waits for extraction and returns the document with its extraction. */
async function extracted(bytes: Uint8Array, fileName: string) {
  const res = await upload(bytes, fileName);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  await idle();
  const got = await t.get(`/documents/${res.body.data.id}?include=current_extraction`);
  expect(got.status).toBe(200);
  return {
    document: got.body.data,
    payload: got.body.included?.find((r: any) => r.type === 'document_representation')?.attributes
      .payload,
  };
}

const documentCount = async (key = t.keyA) => (await t.get('/documents', key)).body.meta.total;

describe('documents: upload and extraction', () => {
  it('reads an arrival notice: type, numbers, carrier, vessel, dates, each with page and confidence', async () => {
    const { document, payload } = await extracted(await arrivalNotice(), 'arrival.pdf');
    expect(document.attributes).toMatchObject({
      document_type: 'arrival_notice',
      extraction_status: 'extracted',
      file_content_type: 'application/pdf',
      source: 'api',
    });
    const f = payload.fields;
    expect(f.container_numbers.map((c: any) => c.value)).toEqual(ARRIVAL.containers);
    expect(f.container_numbers[0]).toMatchObject({ page: 2 });
    expect(f.container_numbers[0].confidence).toBeGreaterThan(0.9);
    expect(f.bill_of_lading_number).toMatchObject({ value: ARRIVAL.bl, page: 1 });
    // The carrier comes from the bill of lading prefix MEDU (MSC).
    expect(f.carrier_scac.value).toBe('MSCU');
    expect(f.vessel_name.value).toBe(ARRIVAL.vessel);
    expect(f.voyage_number.value).toBe(ARRIVAL.voyage);
    expect(f.eta).toMatchObject({ value: ARRIVAL.eta, page: 1 });
    expect(f.last_free_day).toMatchObject({ value: ARRIVAL.lfd, page: 2 });
    expect(payload.method).toBe('text');
  });

  it('reads every container of a bill of lading and the SCAC stated in its text', async () => {
    const { document, payload } = await extracted(await billOfLading(), 'bl.pdf');
    expect(document.attributes.document_type).toBe('bill_of_lading');
    expect(payload.fields.container_numbers.map((c: any) => c.value)).toEqual(BILL.containers);
    expect(payload.fields.bill_of_lading_number.value).toBe(BILL.bl);
    expect(payload.fields.carrier_scac).toMatchObject({ value: 'MAEU', confidence: 0.95 });
  });

  it('reports a container number with a wrong check digit and never tracks it', async () => {
    await t.send('PATCH', '/documents/settings', {
      data: { attributes: { tracking_mode: 'automatic' } },
    });
    try {
      const { document, payload } = await extracted(await wrongCheckDigit(), 'do.pdf');
      expect(document.attributes.document_type).toBe('delivery_order');
      expect(payload.fields.container_numbers.map((c: any) => c.value)).toEqual([WRONG.good]);
      expect(payload.rejected).toEqual([
        expect.objectContaining({ value: WRONG.bad, reason: expect.stringMatching(/check digit/) }),
      ]);
      const requests = (await t.get('/tracking_requests')).body.data.map(
        (r: any) => r.attributes.request_number,
      );
      expect(requests).toContain(WRONG.good);
      expect(requests).not.toContain(WRONG.bad);
      expect(document.relationships.tracking_requests.data).toHaveLength(1);
    } finally {
      await t.send('PATCH', '/documents/settings', {
        data: { attributes: { tracking_mode: 'off' } },
      });
    }
  });

  it('links a document naming an already tracked bill of lading to its shipment and containers', async () => {
    const seeded = await seedShipment(t, t.accountA, 'MEDUB7654321');
    await t.send('PATCH', '/documents/settings', {
      data: { attributes: { tracking_mode: 'automatic' } },
    });
    try {
      const { document } = await extracted(await arrivalNotice('MEDUB7654321'), 'tracked.pdf');
      expect(document.relationships.tracking_requests.data).toEqual([
        { type: 'tracking_request', id: seeded.request.id },
      ]);
      expect(document.relationships.shipments.data).toEqual([
        { type: 'shipment', id: seeded.shipment.id },
      ]);
      expect(document.relationships.cargos.data.map((c: any) => c.id).sort()).toEqual(
        seeded.containers.map((c) => c.id).sort(),
      );
      const withShipment = await t.get(`/documents/${document.id}?include=shipments`);
      expect(withShipment.body.included[0]).toMatchObject({
        type: 'shipment',
        id: seeded.shipment.id,
      });
    } finally {
      await t.send('PATCH', '/documents/settings', {
        data: { attributes: { tracking_mode: 'off' } },
      });
    }
  });

  it('classifies a non-document as other with nothing extracted', async () => {
    const { document, payload } = await extracted(await nonDocument(), 'menu.pdf');
    expect(document.attributes.document_type).toBe('other');
    expect(payload.fields.container_numbers).toEqual([]);
    expect(payload.fields.bill_of_lading_number).toBeNull();
  });

  it('delivers a signed document.extracted webhook naming the document', async () => {
    await until(() =>
      receiver.received.some((r) => r.json?.data?.attributes?.event === 'document.extracted'),
    );
    const delivery = receiver.received.find(
      (r) => r.json.data.attributes.event === 'document.extracted',
    )!;
    expect(verifySignatures(delivery, webhookSecret)).toEqual({ reference: true, standard: true });
    const ref = delivery.json.data.relationships.reference_object.data;
    expect(ref.type).toBe('document');
    expect(delivery.json.included).toEqual([
      expect.objectContaining({ id: ref.id, type: 'document' }),
    ]);
  });

  it('lists with filters and sort, and keeps another account out', async () => {
    const all = await t.get('/documents?sort=created_at');
    expect(all.status).toBe(200);
    expect(all.body.meta.total).toBeGreaterThanOrEqual(4);
    const notices = await t.get('/documents?filter[document_types]=arrival_notice');
    expect(notices.body.data.map((d: any) => d.attributes.file_name).sort()).toEqual([
      'arrival.pdf',
      'tracked.pdf',
    ]);
    const byRef = await t.get(`/documents?filter[reference]=${BILL.containers[2]}`);
    expect(byRef.body.data.map((d: any) => d.attributes.file_name)).toEqual(['bl.pdf']);
    expect((await t.get('/documents?sort=size')).status).toBe(400);
    expect((await t.get('/documents?include=owner')).status).toBe(400);
    const id = all.body.data[0].id;
    expect((await t.get(`/documents/${id}`, t.keyB)).status).toBe(404);
    expect((await t.get('/documents', t.keyB)).body.meta.total).toBe(0);
  });

  it('refuses the same file twice with 409 duplicate_document', async () => {
    const res = await upload(await arrivalNotice(), 'again.pdf');
    expect(res.status).toBe(409);
    expect(res.body.errors[0].code).toBe('duplicate_document');
  });

  it('hands out a signed, expiring download link that needs no key', async () => {
    const list = await t.get('/documents?filter[filename]=bl.pdf');
    const id = list.body.data[0].id;
    const link = await t.get(`/documents/${id}/download_url`);
    expect(link.status).toBe(200);
    const file = await fetch(link.body.download_url);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('application/pdf');
    expect(Buffer.from(await file.arrayBuffer())).toEqual(Buffer.from(await billOfLading()));
    const tampered = await fetch(link.body.download_url.replace(/signature=./, 'signature=x'));
    expect(tampered.status).toBe(403);
    // Real minutes count, not the service's clock (a --sim one runs thousands of times faster).
    t.clock.advance(24 * 3600_000);
    expect((await fetch(link.body.download_url)).status).toBe(200);
    t.wallClock.advance(16 * 60_000);
    expect((await fetch(link.body.download_url)).status).toBe(403);
  });

  it('stores files under their content hash, readable only by the service', async () => {
    const dir = path.join(t.dataDir, 'documents');
    const files = fs.readdirSync(dir);
    expect(files.every((f) => /^[0-9a-f]{64}$/.test(f))).toBe(true);
    expect(fs.statSync(path.join(dir, files[0]!)).mode & 0o077).toBe(0);
  });

  it('edits, rotates, re-extracts and deletes', async () => {
    const id = (await t.get('/documents?filter[filename]=menu.pdf')).body.data[0].id;
    const patched = await t.send('PATCH', `/documents/${id}`, {
      data: { type: 'document', attributes: { document_type_manual: 'booking_confirmation' } },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.data.attributes.document_type_manual).toBe('booking_confirmation');
    expect(
      (
        await t.send('PATCH', `/documents/${id}`, {
          data: { type: 'document', attributes: { document_type_manual: 'invoice' } },
        })
      ).status,
    ).toBe(422);
    expect((await t.send('POST', `/documents/${id}/rotate`, { degrees: 90 })).status).toBe(202);
    expect((await t.send('POST', `/documents/${id}/rotate`, { degrees: 45 })).status).toBe(422);
    expect((await t.send('POST', `/documents/${id}/reextract`, {})).status).toBe(202);
    await idle();
    expect((await t.get(`/documents/${id}`)).body.data.attributes.rotation).toBe(90);
    const deleted = await fetch(`${t.baseUrl}/documents/${id}`, {
      method: 'DELETE',
      headers: { Authorization: `Token ${t.keyA}` },
    });
    expect(deleted.status).toBe(204);
    expect((await t.get(`/documents/${id}`)).status).toBe(404);
  });

  it('deletes the stored file with the last document holding it, not before', async () => {
    const bytes = await arrivalNotice('DELETEBL0001');
    const mine = await upload(bytes, 'mine.pdf');
    const theirs = await upload(bytes, 'theirs.pdf', t.keyB);
    expect([mine.status, theirs.status]).toEqual([201, 201]);
    await idle();
    const stored = path.join(t.dataDir, 'documents', sha256Hex(bytes));
    const remove = (id: string, key: string) =>
      fetch(`${t.baseUrl}/documents/${id}`, {
        method: 'DELETE',
        headers: { Authorization: `Token ${key}` },
      });
    expect((await remove(mine.body.data.id, t.keyA)).status).toBe(204);
    // The other account's document still opens.
    expect(fs.existsSync(stored)).toBe(true);
    expect((await remove(theirs.body.data.id, t.keyB)).status).toBe(204);
    expect(fs.existsSync(stored)).toBe(false);
  });

  it('lists the document types and describes what each yields', async () => {
    const types = await t.get('/documents/types');
    expect(types.body.document_types.map((d: any) => d.code)).toEqual([
      'bill_of_lading',
      'booking_confirmation',
      'arrival_notice',
      'delivery_order',
      'other',
    ]);
    const schema = await t.get('/document_schemas/arrival_notice');
    expect(schema.status).toBe(200);
    expect(schema.body.data.attributes.schema_payload.properties.fields.required).toContain(
      'last_free_day',
    );
    expect((await t.get('/document_schemas/invoice')).status).toBe(404);
  });
});

describe('documents: bad input', () => {
  it('refuses a 50 MB file with 413 and stores nothing', async () => {
    const before = await documentCount();
    const big = Buffer.alloc(50 * 1024 * 1024, 0x20);
    big.write('%PDF-1.4\n');
    const res = await upload(big, 'huge.pdf');
    expect(res.status).toBe(413);
    expect(res.body.errors[0].detail).toMatch(/at most/);
    expect(await documentCount()).toBe(before);
  });

  it('refuses an executable renamed .pdf with 415, judged by content', async () => {
    const before = await documentCount();
    const res = await upload(executable(), 'invoice.pdf');
    expect(res.status).toBe(415);
    expect(res.body.errors[0].detail).toMatch(/not a PDF, PNG or JPEG/);
    expect(await documentCount()).toBe(before);
  });

  it('fails a compression bomb with a clear reason instead of inflating it', async () => {
    const { document } = await extracted(compressionBomb(160 * 1024 * 1024), 'bomb.pdf');
    expect(document.attributes.extraction_status).toBe('failed');
    expect(document.attributes.extraction_error).toMatch(/compression bomb/);
    await until(() =>
      receiver.received.some(
        (r) =>
          r.json?.data?.attributes?.event === 'document.extraction_failed' &&
          r.json.data.relationships.reference_object.data.id === document.id,
      ),
    );
  });

  it('fails a hostile PDF on its budget while the rest of the API keeps answering', async () => {
    // The attack's larger file: 2.4 MB, 40 compressed streams of 60 MiB each (2.4 GB inflated,
    // which on the service's thread stalled every request for seconds).
    const hostile = manyStreamBomb(40, 60 * 1024 * 1024);
    expect(hostile.byteLength).toBeLessThan(3 * 1024 * 1024);
    const res = await upload(hostile, 'hostile.pdf');
    expect(res.status).toBe(201);
    const status = async () =>
      (await t.get(`/documents/${res.body.data.id}`)).body.data.attributes as {
        extraction_status: string;
        extraction_error: string | null;
      };
    // Another route, asked again and again while the document is read, keeps answering: with
    // the inflating on this thread, the first request waited until the document had failed.
    // Paced, so that a read slowed down by a busy machine (the reader has the lowest priority)
    // does not run the account into its request limit.
    let answeredWhileReading = 0;
    let attributes = await status();
    while (attributes.extraction_status === 'pending') {
      expect((await t.get('/shipments')).status).toBe(200);
      attributes = await status();
      if (attributes.extraction_status === 'pending') answeredWhileReading++;
      await new Promise((resolve) => setTimeout(resolve, POLL_PAUSE_MS));
    }
    expect(attributes.extraction_status).toBe('failed');
    expect(attributes.extraction_error).toBe(
      "The PDF's compressed streams expand beyond 128 MB together; the file looks like a compression bomb",
    );
    expect(answeredWhileReading).toBeGreaterThan(0);
  });

  it('fails a corrupt PDF with a clear reason', async () => {
    const { document } = await extracted(corruptPdf(), 'broken.pdf');
    expect(document.attributes.extraction_status).toBe('failed');
    expect(document.attributes.extraction_error).toMatch(/could not be read|no text/);
  });

  it('answers a JSON upload without a data: URL with 422', async () => {
    const res = await t.send('POST', '/documents', {
      data: { type: 'document', attributes: { name: 'x.pdf', attached_document: 'blob-123' } },
    });
    expect(res.status).toBe(422);
    expect(res.body.errors[0].source.pointer).toBe('/data/attributes/attached_document');
  });

  it('accepts a JSON upload with the file as a base64 data: URL', async () => {
    const bytes = Buffer.from(await billOfLading()).toString('base64');
    // Same bytes as the multipart upload above: a duplicate, which proves the same file arrived.
    const res = await t.send('POST', '/documents', {
      data: {
        type: 'document',
        attributes: { name: 'bl.pdf', attached_document: `data:application/pdf;base64,${bytes}` },
      },
    });
    expect(res.status).toBe(409);
  });

  it('answers malformed multipart bodies with a 4xx error document, never a 500', async () => {
    const before = await documentCount();
    const post = (contentType: string, body: string) =>
      fetch(`${t.baseUrl}/documents`, {
        method: 'POST',
        headers: { Authorization: `Token ${t.keyA}`, 'Content-Type': contentType },
        body,
      });
    const cases: [string, string][] = [
      ['multipart/form-data; boundary=xyz', '--xyz\r\nContent-Disposition: form-data; name="file"'],
      ['multipart/form-data', 'no boundary at all'],
      [
        'multipart/form-data; boundary=b',
        '--b\r\nContent-Disposition: form-data; name="other"; filename="a.pdf"\r\n\r\n%PDF-1.4\r\n--b--\r\n',
      ],
      [
        'multipart/form-data; boundary=b',
        '--b\r\nContent-Disposition: form-data; name="name"\r\n\r\nx\r\n--b--\r\n',
      ],
    ];
    for (const [contentType, body] of cases) {
      const res = await post(contentType, body);
      expect(res.status, `${contentType} ${body}`).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      expect(((await res.json()) as any).errors[0].detail).toBeTruthy();
    }
    expect(await documentCount()).toBe(before);
  });
});
