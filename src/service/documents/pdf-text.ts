/**
 * Text of each page of a PDF (unpdf, the serverless build of pdf.js), with each text-less page's
 * largest image for OCR. Runs in the document reader's process (document-worker.ts), after the
 * compression check of pdf-streams.ts, never on the service's own thread.
 */
import { extractImages, extractText, getDocumentProxy } from 'unpdf';
import { DocumentReadError, type DocumentBudget } from './budget';

export interface PageImage {
  data: Uint8ClampedArray;
  width: number;
  height: number;
  channels: number;
}

export interface PdfText {
  pageCount: number;
  /** Text of every page. */
  pages: string[];
  /** For pages without text (a scan, up to the OCR page budget): the page's largest image. */
  scans: (PageImage | null)[];
}

/**
 * pdf.js's warnings (its level 1, no infos): printed in the reader's process, they reach the
 * service's logger at debug level (document-reader.ts); a damaged file's reason is stored on the
 * document anyway.
 */
const PDFJS_WARNINGS = 1;

export async function readPdfText(
  bytes: Uint8Array,
  budget: Pick<DocumentBudget, 'maxPages' | 'maxOcrPages'>,
): Promise<PdfText> {
  let pdf: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    pdf = await getDocumentProxy(bytes, { isEvalSupported: false, verbosity: PDFJS_WARNINGS });
  } catch (err) {
    throw new DocumentReadError(`The PDF could not be read: ${(err as Error).message}`);
  }
  try {
    const pageCount = pdf.numPages;
    if (pageCount > budget.maxPages) {
      throw new DocumentReadError(
        `The PDF has ${pageCount} pages; documents may have at most ${budget.maxPages}`,
      );
    }
    const { text } = await extractText(pdf, { mergePages: false });
    const pages: string[] = [];
    const scans: (PageImage | null)[] = [];
    for (let i = 0; i < pageCount; i++) {
      pages.push(text[i] ?? '');
      let scan: PageImage | null = null;
      if (!(text[i] ?? '').trim() && i < budget.maxOcrPages) {
        for (const image of await extractImages(pdf, i + 1)) {
          if (!scan || image.width * image.height > scan.width * scan.height) scan = image;
        }
      }
      scans.push(scan);
    }
    return { pageCount, pages, scans };
  } catch (err) {
    if (err instanceof DocumentReadError) throw err;
    throw new DocumentReadError(`The PDF could not be read: ${(err as Error).message}`);
  } finally {
    await pdf.destroy();
  }
}
