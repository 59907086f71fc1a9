/**
 * Text of each page of a PDF (unpdf, the serverless build of pdf.js, on a worker thread). Before pdf.js sees the
 * file, every Flate stream is inflated with a size cap, so a "zip bomb" (a small file whose
 * streams expand to gigabytes) is refused instead of exhausting memory.
 */
import { inflateSync } from 'node:zlib';
import { PdfReadFailure, PdfWorker, type PdfWorkerLimits } from './pdf-worker';

/** Largest size one compressed stream may expand to. */
export const MAX_STREAM_BYTES = 64 * 1024 * 1024;
/** Time one PDF may take to read; the worker running pdf.js is terminated after it. */
export const PDF_READ_TIMEOUT_MS = 30_000;
/** Pages read at most; a longer document is read up to here. */
export const MAX_PAGES = 50;
/** Heap the PDF reader's worker may use. */
export const PDF_READER_HEAP_MB = 512;

export class DocumentReadError extends Error {}

/** Throws DocumentReadError when a Flate stream expands beyond the cap. */
export function checkStreamSizes(bytes: Uint8Array, maxBytes = MAX_STREAM_BYTES): void {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 0;
  for (;;) {
    const start = text.indexOf('stream', at, 'latin1');
    if (start < 0) return;
    // Skip the `endstream` keyword itself.
    if (text.subarray(Math.max(0, start - 3), start).toString('latin1') === 'end') {
      at = start + 6;
      continue;
    }
    let dataStart = start + 6;
    if (text[dataStart] === 0x0d) dataStart++;
    if (text[dataStart] === 0x0a) dataStart++;
    const end = text.indexOf('endstream', dataStart, 'latin1');
    if (end < 0) return;
    const dict = text.subarray(Math.max(0, start - 400), start).toString('latin1');
    if (/FlateDecode/.test(dict.slice(dict.lastIndexOf('<<')))) {
      try {
        inflateSync(text.subarray(dataStart, end), { maxOutputLength: maxBytes });
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') {
          throw new DocumentReadError(
            `A compressed stream expands beyond ${Math.round(maxBytes / 1024 / 1024)} MB; the file looks like a compression bomb`,
          );
        }
        // A damaged stream is pdf.js's to judge.
      }
    }
    at = end + 9;
  }
}

/** Pages without a text layer that are OCR-read at most. */
export const MAX_OCR_PAGES = 10;

export interface PageImage {
  data: Uint8ClampedArray;
  width: number;
  height: number;
  channels: number;
}

export interface PdfText {
  pageCount: number;
  /** Text of pages 1..n (at most MAX_PAGES). */
  pages: string[];
  /** For pages without text (a scan): the page's largest image, for OCR. */
  scans: (PageImage | null)[];
}

/** Reads PDFs on a worker thread (see pdf-worker.ts), after the compression-bomb check. */
export class PdfTextReader {
  private readonly worker: PdfWorker;

  constructor(limits: Partial<PdfWorkerLimits> = {}) {
    this.worker = new PdfWorker({
      timeoutMs: PDF_READ_TIMEOUT_MS,
      maxPages: MAX_PAGES,
      maxOcrPages: MAX_OCR_PAGES,
      maxHeapMb: PDF_READER_HEAP_MB,
      ...limits,
    });
  }

  async read(bytes: Uint8Array): Promise<PdfText> {
    checkStreamSizes(bytes);
    try {
      return await this.worker.read(bytes);
    } catch (err) {
      if (err instanceof PdfReadFailure) throw new DocumentReadError(err.message);
      throw err;
    }
  }

  close(): Promise<void> {
    return this.worker.close();
  }
}
