/**
 * Documents as the desktop shows them: an uploaded or emailed file, its type and the numbers
 * extraction read from it, each with its page and confidence.
 */

/** The files documents may be (judged by content, never by name), on the service and the app. */
export const DOCUMENT_CONTENT_TYPES = ['application/pdf', 'image/png', 'image/jpeg'] as const;
export type DocumentContentType = (typeof DOCUMENT_CONTENT_TYPES)[number];

/** Largest accepted document file. */
export const MAX_DOCUMENT_BYTES = 20 * 1024 * 1024;

const PDF_HEADER = [0x25, 0x50, 0x44, 0x46, 0x2d]; // %PDF-

/** The content type the bytes really have, or null when it is not an accepted type. */
export function sniffDocumentType(bytes: Uint8Array): DocumentContentType | null {
  const startsAt = (offset: number, signature: readonly number[]) =>
    signature.every((b, i) => bytes[offset + i] === b);
  // PDF readers accept the header anywhere in the first KiB.
  const pdfSearchEnd = Math.min(bytes.length, 1024) - PDF_HEADER.length;
  for (let offset = 0; offset <= pdfSearchEnd; offset++) {
    if (startsAt(offset, PDF_HEADER)) return 'application/pdf';
  }
  if (startsAt(0, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsAt(0, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  return null;
}

export type ExtractedNumberKind = 'container' | 'bill_of_lading' | 'booking_number';

export interface ExtractedNumber {
  kind: ExtractedNumberKind;
  value: string;
  page: number;
  /** 0..1 */
  confidence: number;
  /** Why the number cannot be tracked (a wrong check digit), or null when it can. */
  problem: string | null;
}

export interface DocumentSummary {
  id: string;
  name: string;
  fileName: string;
  contentType: string;
  sizeBytes: number;
  /** bill_of_lading, booking_confirmation, arrival_notice, delivery_order, other; null until read. */
  documentType: string | null;
  extractionStatus: string;
  extractionError: string | null;
  source: string;
  createdAt: string;
  carrierScac: string | null;
  numbers: ExtractedNumber[];
  /**
   * The dates the document states (an arrival notice's last free day and ETA, `yyyy-MM-dd`),
   * to set beside the live ones; absent in records cached before they were read.
   */
  statedDates?: { lastFreeDay: string | null; eta: string | null };
  shipmentIds: string[];
  /** The email it arrived in, if any. */
  email: { from: string; subject: string } | null;
  /** The file is in the local cache and opens offline. */
  fileCached: boolean;
}

export const DOCUMENT_TYPE_LABELS: Readonly<Record<string, string>> = {
  bill_of_lading: 'Bill of lading',
  booking_confirmation: 'Booking confirmation',
  arrival_notice: 'Arrival notice',
  delivery_order: 'Delivery order',
  other: 'Other',
};
