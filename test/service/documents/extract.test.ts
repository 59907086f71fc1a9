import { describe, expect, it } from 'vitest';
import { classify, extractFields, parseDate } from '../../../src/service/documents/extract';
import { sniffContentType } from '../../../src/service/documents/files';
import { DocumentReadError } from '../../../src/service/documents/budget';
import { checkInflatedSize } from '../../../src/service/documents/pdf-streams';
import type { ShippingLinesTable } from '../../../src/service/store/schema';
import { compressionBomb, container, manyStreamBomb } from '../../support/documents/generated-pdfs';

const LINES: ShippingLinesTable[] = [
  {
    id: '1',
    scac: 'MSCU',
    name: 'MSC',
    short_name: 'MSC',
    alternative_scacs: '[]',
    container_prefixes: '["MSCU","MEDU"]',
    bill_of_lading_prefixes: '["MEDU"]',
    booking_prefixes: '[]',
    tracks_by: '["bill_of_lading","booking_number","container"]',
  },
  {
    id: '2',
    scac: 'ONEY',
    name: 'ONE',
    short_name: 'ONE',
    alternative_scacs: '[]',
    container_prefixes: '["ONEU"]',
    bill_of_lading_prefixes: '["ONEY"]',
    booking_prefixes: '[]',
    tracks_by: '["bill_of_lading","booking_number","container"]',
  },
];

describe('document field extraction', () => {
  it('reads dates in the forms documents print them', () => {
    expect(parseDate('2026-02-09')).toBe('2026-02-09');
    expect(parseDate('09-Feb-2026')).toBe('2026-02-09');
    expect(parseDate('Feb 9, 2026')).toBe('2026-02-09');
    expect(parseDate('31-Feb-2026')).toBeNull();
  });

  it('classifies by the phrases a document type prints', () => {
    expect(classify('BOOKING CONFIRMATION\nBooking No: 123456789').type).toBe(
      'booking_confirmation',
    );
    expect(classify('DELIVERY ORDER\nRelease to: trucker').type).toBe('delivery_order');
    expect(classify('Quarterly sales figures').type).toBe('other');
  });

  it('takes the carrier from a stated SCAC before a number prefix', () => {
    const stated = extractFields(['B/L No: MEDU12345678\nSCAC: ONEY'], LINES);
    expect(stated.fields.carrier_scac).toMatchObject({ value: 'ONEY', confidence: 0.95 });
    const inferred = extractFields(['B/L No: MEDU12345678'], LINES);
    expect(inferred.fields.carrier_scac?.value).toBe('MSCU');
    expect(inferred.fields.carrier_scac!.confidence).toBeLessThan(0.9);
  });

  it('never takes a label word for a number', () => {
    const result = extractFields(['BILL OF LADING\nShipper: Example Exports'], LINES);
    expect(result.fields.bill_of_lading_number).toBeNull();
  });

  it('keeps container numbers with a valid check digit and rejects the others', () => {
    const good = container('ONEU', '123123');
    const bad = `${good.slice(0, 10)}${(Number(good[10]) + 5) % 10}`;
    const result = extractFields([`boxes ${good} and ${bad}`, `again ${good}`], LINES);
    expect(result.fields.container_numbers).toEqual([{ value: good, page: 1, confidence: 0.99 }]);
    expect(result.rejected.map((r) => r.value)).toEqual([bad]);
  });
});

describe('document file checks', () => {
  it('judges the type by content, not by name', () => {
    expect(sniffContentType(Buffer.from('%PDF-1.7\n'))).toBe('application/pdf');
    expect(sniffContentType(Buffer.from([0xff, 0xd8, 0xff, 0xe0]))).toBe('image/jpeg');
    expect(sniffContentType(Buffer.from('MZ\x90\x00 executable'))).toBeNull();
  });

  it('refuses a compressed stream that expands beyond the budget', async () => {
    await expect(checkInflatedSize(compressionBomb(8 * 1024 * 1024), 1024 * 1024)).rejects.toThrow(
      DocumentReadError,
    );
    await expect(checkInflatedSize(compressionBomb(512 * 1024), 1024 * 1024)).resolves.toBe(
      undefined,
    );
  });

  it('counts what a damaged stream inflates to before the damage', async () => {
    // The bomb's one stream cut in half: zlib stops at the cut, after about 750 KB of output.
    const bomb = Buffer.from(compressionBomb(1536 * 1024));
    const start = bomb.indexOf('stream', 0, 'latin1') + 'stream'.length + 1;
    const end = bomb.indexOf('endstream', start, 'latin1');
    const cut = Buffer.concat([bomb.subarray(0, start + (end - start) / 2), bomb.subarray(end)]);
    await expect(checkInflatedSize(cut, 512 * 1024)).rejects.toThrow(DocumentReadError);
    await expect(checkInflatedSize(cut, 16 * 1024 * 1024)).resolves.toBe(undefined);
  });

  it('counts the budget over all streams of a document, not per stream', async () => {
    // Each stream is under the budget; together they are not.
    const hostile = manyStreamBomb(6, 256 * 1024);
    await expect(checkInflatedSize(hostile, 1024 * 1024)).rejects.toThrow(
      /expand beyond 1 MB together/,
    );
    await expect(checkInflatedSize(hostile, 2 * 1024 * 1024)).resolves.toBe(undefined);
  });
});
