/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies are untyped JSON */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/service';
import { ARRIVAL, imageOnlyPdf } from '../../support/documents/generated-pdfs';
import { scannedArrivalNoticePng } from '../../support/documents/scanned-page';

let t: TestService;
let png: Uint8Array;

beforeAll(async () => {
  t = await startTestService();
  png = await scannedArrivalNoticePng();
});
afterAll(async () => {
  await t?.close();
});

async function extract(bytes: Uint8Array, fileName: string) {
  const form = new FormData();
  form.append('file', new Blob([bytes]), fileName);
  const res = await fetch(`${t.baseUrl}/documents`, {
    method: 'POST',
    headers: { Authorization: `Token ${t.keyA}` },
    body: form,
  });
  const created = (await res.json()) as any;
  expect(res.status, JSON.stringify(created)).toBe(201);
  await t.service.store.context.documents.service.idle();
  const got = await t.get(`/documents/${created.data.id}?include=last_document_representation`);
  return { document: got.body.data, payload: got.body.included[0].attributes.payload };
}

describe('documents: OCR', () => {
  it('reads an image-only PDF page by OCR', async () => {
    const { document, payload } = await extract(await imageOnlyPdf(png), 'scan.pdf');
    expect(document.attributes).toMatchObject({
      document_type: 'arrival_notice',
      extraction_status: 'extracted',
    });
    expect(payload.method).toBe('ocr');
    expect(payload.fields.bill_of_lading_number.value).toBe(ARRIVAL.bl);
    expect(payload.fields.container_numbers.map((c: any) => c.value)).toEqual([
      ARRIVAL.containers[0],
    ]);
    expect(payload.fields.last_free_day.value).toBe(ARRIVAL.lfd);
    // OCR readings carry the engine's confidence: high, but below a text layer's.
    const confidence = payload.fields.container_numbers[0].confidence;
    expect(confidence).toBeGreaterThan(0.6);
    expect(confidence).toBeLessThan(0.99);
  });

  it('reads an uploaded PNG by OCR', async () => {
    const { document, payload } = await extract(png, 'photo.png');
    expect(document.attributes.file_content_type).toBe('image/png');
    expect(payload.method).toBe('ocr');
    expect(payload.fields.bill_of_lading_number.value).toBe(ARRIVAL.bl);
    expect(payload.fields.carrier_scac.value).toBe('MSCU');
  });
});
