/**
 * Document extraction: time per page for a text PDF and for a scanned page read by OCR, and the
 * peak memory of the process while extracting. Baselines measured in the same run: the PDF
 * library's own text extraction of the same file (so the ratio is what classification and
 * field extraction add), tesseract.js recognizing the same PNG directly (what page-image
 * handling adds to OCR), and the process's resident memory before extracting.
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
import { TesseractOcr, grayscalePgm } from '../src/service/documents/ocr';
import { PdfTextReader } from '../src/service/documents/pdf-text';
import type { ShippingLinesTable } from '../src/service/store/schema';
import type { ShippingLineRecord } from '../src/shared/reference-data';
import {
  arrivalNotice,
  billOfLading,
  imageOnlyPdf,
} from '../test/service/documents/generated-pdfs';
import { scannedArrivalNoticePng } from '../test/service/documents/scanned-page';
import { median, reportResult } from './lib/report';

const quick = process.argv.includes('--quick');
const TEXT_RUNS = quick ? 10 : 40;
const OCR_RUNS = quick ? 2 : 5;

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
}));

let peakRss = process.memoryUsage().rss;
const sample = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
}, 5);
const startRss = process.memoryUsage().rss;

async function timed(run: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await run();
  return performance.now() - started;
}

// Text PDFs: the arrival notice (2 pages) and the bill of lading (1 page).
const pdfs = [await arrivalNotice(), await billOfLading()];
const reader = new PdfTextReader();
// The worker loads pdf.js before timing starts, as it stays loaded in the service.
await reader.read(pdfs[0]!);
const pageCount = 3;
const pipeline: number[] = [];
const library: number[] = [];
for (let i = 0; i < TEXT_RUNS; i++) {
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
      for (const pdf of pdfs) extractFields((await reader.read(pdf)).pages, lines);
    }),
  );
}
reportResult({
  name: 'document text extraction per page',
  value: median(pipeline) / pageCount,
  baseline: median(library) / pageCount,
  unit: 'ms',
  target: { max: 1.5 },
  note: 'pdf.js on its worker + zip-bomb check + classification + fields vs pdf.js text alone',
});

// OCR: a scanned page as an image-only PDF, against tesseract.js on the PNG itself.
const png = await scannedArrivalNoticePng();
const scan = await imageOnlyPdf(png);
const english = createRequire(import.meta.url)('@tesseract.js-data/eng') as { langPath: string };
const direct = await createWorker('eng', OEM.LSTM_ONLY, {
  langPath: english.langPath,
  gzip: true,
  cacheMethod: 'none',
});
const ocr = new TesseractOcr();
// Both workers load the language data before timing starts.
await direct.recognize(Buffer.from(png));
await ocr.read([Buffer.from(png)]);
const ocrPipeline: number[] = [];
const ocrDirect: number[] = [];
for (let i = 0; i < OCR_RUNS; i++) {
  ocrDirect.push(await timed(() => direct.recognize(Buffer.from(png))));
  ocrPipeline.push(
    await timed(async () => {
      const { scans } = await reader.read(scan);
      const read = await ocr.read(scans.flatMap((s) => (s ? [grayscalePgm(s)] : [])));
      extractFields(
        read.map((r) => r.text),
        lines,
        { method: 'ocr' },
      );
    }),
  );
}
await direct.terminate();
await reader.close();
await ocr.close();
reportResult({
  name: 'document OCR per page',
  value: median(ocrPipeline),
  baseline: median(ocrDirect),
  unit: 'ms',
  target: { max: 1.5 },
  note: 'scanned PDF page: image out of the PDF, grayscale, OCR, fields vs tesseract.js on the PNG',
});

clearInterval(sample);
peakRss = Math.max(peakRss, process.memoryUsage().rss);
reportResult({
  name: 'document extraction peak RSS',
  value: peakRss / 1024 / 1024,
  baseline: startRss / 1024 / 1024,
  unit: 'MB',
  target: null,
  note: 'peak resident memory while extracting vs before',
});
