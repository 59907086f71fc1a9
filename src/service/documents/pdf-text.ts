/**
 * Text of each page of a PDF (unpdf, the serverless build of pdf.js). Before pdf.js sees the
 * file, every Flate stream is inflated with a size cap, so a "zip bomb" (a small file whose
 * streams expand to gigabytes) is refused instead of exhausting memory.
 */
import { inflateSync } from 'node:zlib';
import { extractImages, extractText, getDocumentProxy } from 'unpdf';

/** Largest size one compressed stream may expand to. */
export const MAX_STREAM_BYTES = 64 * 1024 * 1024;
/** Time one PDF may take to read; pdf.js is stopped after it. */
export const PDF_READ_TIMEOUT_MS = 30_000;
/** Pages read at most; a longer document is read up to here. */
export const MAX_PAGES = 50;

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

export async function pdfText(
  bytes: Uint8Array,
  timeoutMs = PDF_READ_TIMEOUT_MS,
): Promise<PdfText> {
  checkStreamSizes(bytes);
  let pdf;
  try {
    pdf = await getDocumentProxy(new Uint8Array(bytes), { isEvalSupported: false });
  } catch (err) {
    throw new DocumentReadError(`The PDF could not be read: ${(err as Error).message}`);
  }
  const document = pdf;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(new DocumentReadError(`Reading the PDF took longer than ${timeoutMs / 1000} s`));
      // Stops pdf.js's pending work on this document.
      void document.destroy();
    }, timeoutMs);
  });
  try {
    return await Promise.race([readPages(document), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

async function readPages(pdf: Awaited<ReturnType<typeof getDocumentProxy>>): Promise<PdfText> {
  try {
    const pageCount = pdf.numPages;
    const pages: string[] = [];
    const { text } = await extractText(pdf, { mergePages: false });
    const scans: (PageImage | null)[] = [];
    for (let i = 0; i < Math.min(pageCount, MAX_PAGES); i++) {
      pages.push(text[i] ?? '');
      let scan: PageImage | null = null;
      if (!text[i]?.trim() && i < MAX_OCR_PAGES) {
        const images = await extractImages(pdf, i + 1);
        for (const image of images) {
          if (!scan || image.width * image.height > scan.width * scan.height) scan = image;
        }
      }
      scans.push(scan);
    }
    return { pageCount, pages, scans };
  } catch (err) {
    throw new DocumentReadError(`The PDF could not be read: ${(err as Error).message}`);
  } finally {
    await pdf.destroy();
  }
}
