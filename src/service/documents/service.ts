/**
 * The document pipeline: validate and store a file, record its metadata, then extract in the
 * background (one document at a time): text or OCR -> type and located values -> the
 * `document.extracted` / `document.extraction_failed` event in the same transaction as the
 * result -> tracking requests for what it names when the account's mode is `automatic`.
 */
import type { EventSink } from '../events/event-sink';
import { ApiError } from '../jsonapi/errors';
import type { Resource } from '../jsonapi/include';
import type { DocumentRow, DocumentStore } from '../store/documents';
import type { ReferenceData } from '../store/reference';
import type { TrackingRequestCreateBody } from '../../shared/api/documents';
import { extractFields, type Extraction } from './extract';
import type { DocumentFiles } from './files';
import { MAX_DOCUMENT_BYTES, sniffContentType } from './files';
import { grayscalePgm } from './ocr';
import { DocumentReadError, PdfTextReader } from './pdf-text';
import { isoString, type Clock } from '../../shared/clock';

/** Reads images (and image-only PDF pages) when installed; text PDFs never need it. */
export interface OcrEngine {
  /** Text and mean word confidence (0..1) of each page image. */
  read(images: Uint8Array[]): Promise<{ text: string; confidence: number }[]>;
  close(): Promise<void>;
}

export type CreateTrackingRequest = (
  accountId: string,
  attrs: TrackingRequestCreateBody['data']['attributes'],
) => Promise<{ id: string }>;

export class DocumentInputError extends ApiError {}

export interface IncomingFile {
  bytes: Uint8Array;
  fileName: string;
  name?: string;
}

export interface DocumentServiceDeps {
  store: DocumentStore;
  files: DocumentFiles;
  ref: ReferenceData;
  clock: Clock;
  events: EventSink;
  createTrackingRequest: CreateTrackingRequest;
  /** The account's active request for a number and SCAC, when it is already tracked. */
  findTrackingRequest: (
    accountId: string,
    number: string,
    scac: string,
  ) => Promise<{ id: string } | undefined>;
  /** Renders a document for event payloads. */
  render: (row: DocumentRow) => Promise<Resource>;
  ocr?: OcrEngine;
  logger?: { warn(obj: unknown, msg?: string): void };
}

export class DocumentService {
  private queue: Promise<void> = Promise.resolve();
  private pending = 0;
  private idleWaiters: (() => void)[] = [];
  private closed = false;
  private readonly pdf = new PdfTextReader();

  constructor(private readonly deps: DocumentServiceDeps) {}

  /**
   * Checks a file (size, real type) and returns what to store; throws a DocumentInputError
   * (413 or 415) with the reason. Nothing is written for a refused file.
   */
  static check(file: IncomingFile): { contentType: string } {
    if (file.bytes.byteLength > MAX_DOCUMENT_BYTES) {
      throw new DocumentInputError(
        413,
        `The file is ${file.bytes.byteLength} bytes; documents may be at most ${MAX_DOCUMENT_BYTES} bytes`,
        { source: { pointer: '/data/attributes/attached_document' } },
      );
    }
    if (file.bytes.byteLength === 0) {
      throw new DocumentInputError(422, 'The file is empty', {
        source: { pointer: '/data/attributes/attached_document' },
      });
    }
    const contentType = sniffContentType(file.bytes);
    if (!contentType) {
      throw new DocumentInputError(
        415,
        `${file.fileName} is not a PDF, PNG or JPEG file (judged by its content, not its name)`,
        { source: { pointer: '/data/attributes/attached_document' } },
      );
    }
    return { contentType };
  }

  /** Stores a checked file and its document row, then queues extraction. */
  async add(
    accountId: string,
    file: IncomingFile,
    source: 'upload' | 'api' | 'email',
    emailSubmissionId: string | null = null,
  ): Promise<DocumentRow> {
    const { contentType } = DocumentService.check(file);
    const sha256 = this.deps.files.put(file.bytes);
    const row = await this.deps.store.create(accountId, {
      name: file.name?.trim() || file.fileName,
      source,
      fileName: file.fileName,
      contentType,
      sizeBytes: file.bytes.byteLength,
      sha256,
      emailSubmissionId,
    });
    this.enqueue(accountId, row.id);
    return row;
  }

  /**
   * Stores a received mail as an email submission with its acceptable attachments (PDF, PNG,
   * JPEG within the size limit; others are left out) as documents, in one transaction, then
   * queues their extraction.
   */
  async addEmail(
    accountId: string,
    mail: Parameters<DocumentStore['createEmailSubmission']>[1],
    attachments: IncomingFile[],
  ): Promise<{ submissionId: string; documentIds: string[] }> {
    const accepted = attachments.flatMap((file) => {
      try {
        return [{ file, ...DocumentService.check(file) }];
      } catch (err) {
        if (err instanceof DocumentInputError) return [];
        throw err;
      }
    });
    const stored = accepted.map((a) => ({ ...a, sha256: this.deps.files.put(a.file.bytes) }));
    const result = await this.deps.store.transaction(async (trx) => {
      const submission = await this.deps.store.createEmailSubmission(accountId, mail, trx);
      const rows: DocumentRow[] = [];
      for (const s of stored) {
        rows.push(
          await this.deps.store.create(
            accountId,
            {
              name: s.file.name?.trim() || s.file.fileName,
              source: 'email',
              fileName: s.file.fileName,
              contentType: s.contentType,
              sizeBytes: s.file.bytes.byteLength,
              sha256: s.sha256,
              emailSubmissionId: submission.id,
            },
            trx,
          ),
        );
      }
      return { submissionId: submission.id, documentIds: rows.map((r) => r.id) };
    });
    for (const id of result.documentIds) this.enqueue(accountId, id);
    return result;
  }

  /** Queues (re-)extraction of a document. */
  enqueue(accountId: string, documentId: string): void {
    this.pending++;
    this.queue = this.queue
      .then(() => (this.closed ? undefined : this.extract(accountId, documentId)))
      .catch((err: unknown) =>
        this.deps.logger?.warn({ err, documentId }, 'document extraction crashed'),
      )
      .finally(() => {
        this.pending--;
        if (this.pending === 0) for (const resolve of this.idleWaiters.splice(0)) resolve();
      });
  }

  /** Queues the extractions a previous run left unfinished. */
  async resume(): Promise<void> {
    for (const row of await this.deps.store.pendingExtractions())
      this.enqueue(row.account_id, row.id);
  }

  /** Resolves when no extraction is queued or running. */
  idle(): Promise<void> {
    return this.pending === 0
      ? Promise.resolve()
      : new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.idle();
    await this.deps.ocr?.close();
    await this.pdf.close();
  }

  private async read(row: DocumentRow): Promise<Extraction> {
    const bytes = await this.deps.files.read(row.sha256);
    const lines = this.deps.ref.lines;
    if (row.content_type === 'application/pdf') {
      const { pages, scans } = await this.pdf.read(bytes);
      if (pages.some((p) => p.trim().length > 20)) {
        return extractFields(pages, lines, { method: 'text' });
      }
      // No text layer: a scan. Read each page's image by OCR.
      const images = scans.flatMap((s) => (s ? [grayscalePgm(s)] : []));
      if (images.length === 0) throw new DocumentReadError('The PDF has neither text nor images');
      const read = await this.ocr().read(images);
      return extractFields(
        read.map((p) => p.text),
        lines,
        { method: 'ocr', pageConfidence: read.map((p) => p.confidence) },
      );
    }
    const [page] = await this.ocr().read([bytes]);
    return extractFields([page?.text ?? ''], lines, {
      method: 'ocr',
      pageConfidence: [page?.confidence ?? 0],
    });
  }

  private ocr(): OcrEngine {
    if (!this.deps.ocr) throw new DocumentReadError('OCR is not available in this service');
    return this.deps.ocr;
  }

  /** Runs one extraction and records its result and event together. */
  async extract(accountId: string, documentId: string): Promise<void> {
    const { store, events } = this.deps;
    const row = await store.get(accountId, documentId);
    if (!row) return;
    let outcome: Parameters<DocumentStore['saveExtraction']>[3];
    try {
      const extraction = await this.read(row);
      outcome = {
        status: 'extracted',
        documentType: extraction.document_type,
        classificationNotes: extraction.classification_notes,
        payload: extraction,
        error: null,
      };
    } catch (err) {
      const reason =
        err instanceof DocumentReadError ? err.message : 'The document could not be read';
      if (!(err instanceof DocumentReadError))
        this.deps.logger?.warn({ err, documentId }, 'document extraction failed');
      outcome = {
        status: 'failed',
        documentType: row.document_type,
        classificationNotes: null,
        payload: null,
        error: reason,
      };
    }
    const occurredAt = isoString(this.deps.clock.now());
    await store.transaction(async (trx) => {
      const saved = await store.saveExtraction(trx, accountId, documentId, outcome);
      await events.record(trx, {
        accountId,
        event: outcome.status === 'extracted' ? 'document.extracted' : 'document.extraction_failed',
        reference: { type: 'document', id: documentId },
        included: [await this.deps.render(saved)],
        occurredAt,
      });
    });
    if (outcome.status === 'extracted') {
      const settings = await store.settings(accountId);
      if (settings.trackingMode === 'automatic') await this.track(accountId, documentId);
    }
  }

  /**
   * Creates tracking requests for what the document names (its bill of lading, else booking,
   * else each container) with the carrier found, and links them (a number already tracked is
   * linked to its existing request); returns how many requests the document is linked to.
   */
  async track(accountId: string, documentId: string): Promise<number> {
    const row = await this.deps.store.get(accountId, documentId);
    if (!row?.extracted) return 0;
    const extraction = JSON.parse(row.extracted) as Extraction | null;
    const manual = row.extracted_manual
      ? (JSON.parse(row.extracted_manual) as Record<string, unknown>)
      : {};
    const fields = extraction?.fields;
    if (!fields) return 0;
    const manualText = (key: string) =>
      typeof manual[key] === 'string' ? (manual[key] as string) : undefined;
    const scac = manualText('carrier_scac') ?? fields.carrier_scac?.value;
    if (!scac) return 0;
    const bl = manualText('bill_of_lading_number') ?? fields.bill_of_lading_number?.value;
    const booking = manualText('booking_number') ?? fields.booking_number?.value;
    const wanted: {
      request_type: 'bill_of_lading' | 'booking_number' | 'container';
      number: string;
    }[] = bl
      ? [{ request_type: 'bill_of_lading', number: bl }]
      : booking
        ? [{ request_type: 'booking_number', number: booking }]
        : fields.container_numbers.map((c) => ({ request_type: 'container', number: c.value }));
    const created: string[] = [];
    for (const w of wanted) {
      try {
        const request = await this.deps.createTrackingRequest(accountId, {
          request_type: w.request_type,
          request_number: w.number,
          scac,
        } as TrackingRequestCreateBody['data']['attributes']);
        created.push(request.id);
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        if (err.errors[0]?.code === 'duplicate') {
          // Already tracked: link the document to that request (and so its shipment).
          const existing = await this.deps.findTrackingRequest(accountId, w.number, scac);
          if (existing) {
            created.push(existing.id);
            continue;
          }
        }
        this.deps.logger?.warn(
          { documentId, number: w.number, reason: err.message },
          'tracking request from document refused',
        );
      }
    }
    if (created.length) {
      await this.deps.store.link(accountId, documentId, { trackingRequestIds: created });
    }
    return created.length;
  }
}
