/**
 * What reading one document may cost, and how many documents are read at once. Document work
 * (inflating, pdf.js, OCR) runs in a child process (document-reader.ts); a document over its
 * budget fails with the reason and that process is ended, so its memory goes back to the system.
 */

/** Why a document could not be read: stored as the document's extraction error. */
export class DocumentReadError extends Error {}

export interface DocumentBudget {
  /** Bytes all compressed streams of one PDF may expand to, together. */
  maxInflatedBytes: number;
  /** Pages a PDF may have. */
  maxPages: number;
  /** Pages without a text layer that are read by OCR. */
  maxOcrPages: number;
  /** Pixels of one page image read by OCR (about an A4 page at 400 dpi). */
  maxOcrPixels: number;
  /**
   * Time one document may take, from the start of its read to its text, in the reader's CPU
   * time; wall time (less the time the reader waited for a CPU, where the system tells it) ends a
   * read at five times it.
   */
  timeoutMs: number;
  /** Heap the reading process may grow to. */
  maxHeapMb: number;
  /** Documents read at once for the whole service (one reading process each). */
  concurrentJobs: number;
  /** Documents of one account read at once: one account's pile never holds up the others. */
  concurrentJobsPerAccount: number;
  /** A reading process with nothing to do ends after this long (its memory returns). */
  idleMs: number;
}

export const DEFAULT_DOCUMENT_BUDGET: DocumentBudget = {
  maxInflatedBytes: 128 * 1024 * 1024,
  maxPages: 50,
  maxOcrPages: 10,
  maxOcrPixels: 20_000_000,
  timeoutMs: 120_000,
  maxHeapMb: 512,
  concurrentJobs: 2,
  concurrentJobsPerAccount: 1,
  idleMs: 10_000,
};

export const megabytes = (bytes: number): number => Math.round(bytes / 1024 / 1024);
