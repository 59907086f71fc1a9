/**
 * Document extraction: time per page for a text PDF and for a scanned page read by OCR, and the
 * peak memory of the service's process while extracting. Baselines measured in the same run: the
 * PDF library's own text extraction of the same file (so the ratio is what classification and
 * field extraction add), tesseract.js recognizing the same PNG directly (what page-image
 * handling adds to OCR), and the process's resident memory before extracting.
 *
 * Memory is measured first, before this process loads pdf.js or tesseract.js for the baselines:
 * the service reads documents in a reader process (documents/document-reader.ts), whose own peak
 * (tesseract's WebAssembly heap is most of it) is printed beside the row, and which ends when
 * idle.
 *
 *   npx tsx bench/document-extraction.ts [--quick]
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createWorker, OEM } from 'tesseract.js';
import { extractText, getDocumentProxy } from 'unpdf';
import { extractFields } from '../src/service/documents/extract';
import { DEFAULT_DOCUMENT_BUDGET } from '../src/service/documents/budget';
import { DocumentReader } from '../src/service/documents/document-reader';
import type { ShippingLinesTable } from '../src/service/store/schema';
import type { ShippingLineRecord } from '../src/shared/reference-data';
import {
  arrivalNotice,
  billOfLading,
  imageOnlyPdf,
} from '../test/support/documents/generated-pdfs';
import { scannedArrivalNoticePng } from '../test/support/documents/scanned-page';
import { median, reportResult } from './lib/report';

const quick = process.argv.includes('--quick');
const TEXT_RUNS = quick ? 10 : 40;
const OCR_RUNS = quick ? 2 : 5;
const WARM_UP_RUNS = 10;

const here = path.dirname(fileURLToPath(import.meta.url));
const lines: ShippingLinesTable[] = (
  JSON.parse(
    readFileSync(path.join(here, '../resources/reference/shipping_lines.json'), 'utf8'),
  ) as ShippingLineRecord[]
).map((l, i) => ({
  id: String(i),
  scac: l.scac,
  name: l.name,
  short_name: l.short_name,
  alternative_scacs: JSON.stringify(l.alternative_scacs),
  container_prefixes: JSON.stringify(l.container_prefixes),
  bill_of_lading_prefixes: JSON.stringify(l.bill_of_lading_prefixes),
  booking_prefixes: JSON.stringify(l.booking_prefixes),
  tracks_by: JSON.stringify(l.tracks_by),
}));

async function timed(run: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await run();
  return performance.now() - started;
}

const PDF = 'application/pdf';
const pdfs = [await arrivalNotice(), await billOfLading()];
const png = await scannedArrivalNoticePng();
const scan = await imageOnlyPdf(png);
const reader = new DocumentReader(DEFAULT_DOCUMENT_BUDGET);

/** Resident bytes of another process (Linux /proc), 0 where it cannot be read. */
function rssOf(pid: number | undefined): number {
  if (pid === undefined) return 0;
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
  } catch {
    return 0;
  }
}

// Nothing else holds this process up while it awaits the reader (its process and channel are
// unref'd, as in the service, which its listening socket holds up).
const keepAlive = setInterval(() => {}, 1000);

// Memory: text PDFs, a scanned page and a PNG, as the service reads them.
const startRss = process.memoryUsage().rss;
let peakRss = startRss;
let readerPeak = 0;
const sample = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
  readerPeak = Math.max(readerPeak, rssOf(reader.pid));
}, 5);
for (let i = 0; i < (quick ? 1 : 3); i++) {
  for (const pdf of pdfs) extractFields((await reader.read(PDF, pdf)).pages, lines);
  extractFields((await reader.read(PDF, scan)).pages, lines, { method: 'ocr' });
  extractFields((await reader.read('image/png', png)).pages, lines, { method: 'ocr' });
}
clearInterval(sample);
peakRss = Math.max(peakRss, process.memoryUsage().rss);
const MB = 1024 * 1024;
reportResult({
  name: 'document extraction peak RSS',
  value: peakRss / MB,
  baseline: startRss / MB,
  unit: 'MB',
  target: { max: 1.5 },
  note: `peak resident memory of the service's process while extracting (text, scanned PDF, PNG) vs before; the reader process's own peak was ${(readerPeak / MB).toFixed(0)} MB, ended when idle`,
});

// Text PDFs: the arrival notice (2 pages) and the bill of lading (1 page). Both paths are warmed
// first (the reader's process stays up between documents in the service, as pdf.js would).
const pageCount = 3;
const pipeline: number[] = [];
const library: number[] = [];
for (let i = 0; i < WARM_UP_RUNS + TEXT_RUNS; i++) {
  if (i === WARM_UP_RUNS) {
    pipeline.length = 0;
    library.length = 0;
  }
  library.push(
    await timed(async () => {
      for (const pdf of pdfs) {
        const doc = await getDocumentProxy(new Uint8Array(pdf));
        await extractText(doc, { mergePages: false });
        await doc.destroy();
      }
    }),
  );
  pipeline.push(
    await timed(async () => {
      for (const pdf of pdfs) extractFields((await reader.read(PDF, pdf)).pages, lines);
    }),
  );
}
reportResult({
  name: 'document text extraction per page',
  value: median(pipeline) / pageCount,
  baseline: median(library) / pageCount,
  unit: 'ms',
  target: { max: 1.5 },
  note: 'pdf.js in the reader process + compression check + classification + fields vs pdf.js text alone, in process',
});

// OCR: a scanned page as an image-only PDF, against tesseract.js on the PNG itself.
const english = createRequire(import.meta.url)('@tesseract.js-data/eng') as { langPath: string };
const direct = await createWorker('eng', OEM.LSTM_ONLY, {
  langPath: english.langPath,
  gzip: true,
  cacheMethod: 'none',
});
// Both load the language data before timing starts.
await direct.recognize(Buffer.from(png));
await reader.read(PDF, scan);
const ocrPipeline: number[] = [];
const ocrDirect: number[] = [];
for (let i = 0; i < OCR_RUNS; i++) {
  ocrDirect.push(await timed(() => direct.recognize(Buffer.from(png))));
  ocrPipeline.push(
    await timed(async () => {
      const read = await reader.read(PDF, scan);
      extractFields(read.pages, lines, read);
    }),
  );
}
await direct.terminate();
await reader.close();
clearInterval(keepAlive);
reportResult({
  name: 'document OCR per page',
  value: median(ocrPipeline),
  baseline: median(ocrDirect),
  unit: 'ms',
  target: { max: 1.5 },
  note: 'scanned PDF page: image out of the PDF, grayscale, OCR, fields (reader process) vs tesseract.js on the PNG',
});
