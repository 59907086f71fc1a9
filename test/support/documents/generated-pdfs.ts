/**
 * Realistic shipping documents generated with pdf-lib (no real customer's document is ever
 * used): an arrival notice, a bill of lading with several containers, a document with a wrong
 * check digit, a non-document, and the hostile files of the bad-input tests.
 */
import { deflateSync } from 'node:zlib';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { checkDigit } from '../../../src/shared/iso6346';

/** A valid container number from owner code + category + 6-digit serial. */
export const container = (prefix: string, serial: string) =>
  `${prefix}${serial}${checkDigit(`${prefix}${serial}`)}`;

const FIXED_DATE = new Date(Date.UTC(2026, 0, 5));

async function textPdf(pages: string[][]): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  // Fixed dates: the same document gives the same bytes (duplicate detection is by content).
  pdf.setCreationDate(FIXED_DATE);
  pdf.setModificationDate(FIXED_DATE);
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (const lines of pages) {
    const page = pdf.addPage([595, 842]);
    lines.forEach((line, i) => page.drawText(line, { x: 40, y: 790 - i * 18, size: 11, font }));
  }
  return pdf.save();
}

export const ARRIVAL = {
  bl: 'MEDUA1234567',
  containers: [container('MSCU', '123456'), container('MEDU', '765432')],
  vessel: 'MSC AURORA',
  voyage: 'FA245W',
  eta: '2026-02-03',
  lfd: '2026-02-09',
};

/** An arrival notice; another bill of lading number makes another document. */
export function arrivalNotice(bl = ARRIVAL.bl): Promise<Uint8Array> {
  return textPdf([
    [
      'ARRIVAL NOTICE',
      'Mediterranean Shipping Company - Freight release pending',
      `B/L No: ${bl}`,
      `Vessel: ${ARRIVAL.vessel}`,
      `Voyage: ${ARRIVAL.voyage}`,
      'Port of discharge: Los Angeles, CA',
      `ETA: 03-Feb-2026`,
    ],
    [
      'Container details',
      `${ARRIVAL.containers[0]}  40HC  12,400 KG`,
      `${ARRIVAL.containers[1]}  20GP  8,200 KG`,
      'Last Free Day: 2026-02-09',
    ],
  ]);
}

export const BILL = {
  bl: 'MAEU240012345',
  containers: [
    container('MSKU', '200001'),
    container('MSKU', '200002'),
    container('MAEU', '300003'),
    container('MSKU', '400004'),
  ],
};

export function billOfLading(): Promise<Uint8Array> {
  return textPdf([
    [
      'BILL OF LADING (non-negotiable copy)',
      'Shipper: Example Exports Ltd.   Consignee: Example Imports Inc.',
      'Notify party: Same as consignee',
      `Bill of Lading No: ${BILL.bl}`,
      'SCAC: MAEU',
      'Vessel: MAERSK EDMONTON   Voyage: 512E',
      'Shipped on board 2026-01-02',
      ...BILL.containers.map((c) => `Container ${c}  40HC  sealed`),
    ],
  ]);
}

/** The container number printed with its last digit off by one. */
export const WRONG = (() => {
  const good = container('MSCU', '555000');
  const bad = `${good.slice(0, 10)}${(Number(good[10]) + 1) % 10}`;
  return { bad, good: container('MSCU', '555111') };
})();

export function wrongCheckDigit(): Promise<Uint8Array> {
  return textPdf([
    [
      'DELIVERY ORDER',
      'Release to: Example Trucking',
      `Container ${WRONG.bad}`,
      `Container ${WRONG.good}`,
    ],
  ]);
}

export function nonDocument(): Promise<Uint8Array> {
  return textPdf([
    [
      'Team lunch menu for Friday',
      'Soup of the day, sandwiches and a fruit salad.',
      'Please reply by Thursday noon with your choice.',
    ],
  ]);
}

/** A PDF whose only page draws one image (no text layer): a scan as a copier makes it. */
export async function imageOnlyPdf(png: Uint8Array): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const image = await pdf.embedPng(png);
  const page = pdf.addPage([image.width, image.height]);
  page.drawImage(image, { x: 0, y: 0, width: image.width, height: image.height });
  return pdf.save();
}

/** A small PDF (about 100 KB) whose content stream of zeros inflates to `expandedBytes`. */
export function compressionBomb(expandedBytes = 100 * 1024 * 1024): Uint8Array {
  const parts: Buffer[] = [];
  const stream = deflateSync(Buffer.alloc(expandedBytes), { level: 9 });
  parts.push(
    Buffer.from(
      '%PDF-1.7\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n' +
        '2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj\n' +
        '3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R >> endobj\n' +
        `4 0 obj << /Length ${stream.length} /Filter /FlateDecode >>\nstream\n`,
      'latin1',
    ),
    stream,
    Buffer.from('\nendstream\nendobj\ntrailer << /Root 1 0 R >>\n%%EOF\n', 'latin1'),
  );
  return Buffer.concat(parts);
}

/**
 * A hostile PDF as the attack sent it: one page whose contents are `streams` compressed streams
 * of `expandedBytesEach` zeros each (15 x 60 MiB is under 1 MB on disk).
 */
export function manyStreamBomb(streams = 15, expandedBytesEach = 60 * 1024 * 1024): Uint8Array {
  const stream = deflateSync(Buffer.alloc(expandedBytesEach), { level: 9 });
  const ids = Array.from({ length: streams }, (_, i) => 4 + i);
  const parts: Buffer[] = [
    Buffer.from(
      '%PDF-1.7\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n' +
        '2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj\n' +
        `3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents [${ids.map((id) => `${id} 0 R`).join(' ')}] >> endobj\n`,
      'latin1',
    ),
  ];
  for (const id of ids) {
    parts.push(
      Buffer.from(
        `${id} 0 obj << /Length ${stream.length} /Filter /FlateDecode >>\nstream\n`,
        'latin1',
      ),
      stream,
      Buffer.from('\nendstream\nendobj\n', 'latin1'),
    );
  }
  parts.push(Buffer.from('trailer << /Root 1 0 R >>\n%%EOF\n', 'latin1'));
  return Buffer.concat(parts);
}

/** A PDF header followed by garbage: no objects, no cross-reference table. */
export const corruptPdf = (): Uint8Array =>
  Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(4096, 0x5a), Buffer.from('\n%%EOF')]);

/** An ELF executable header, named .pdf by whoever sends it. */
export const executable = (): Uint8Array =>
  Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), Buffer.alloc(2048, 0x90)]);
