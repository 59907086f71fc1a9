/**
 * The document pipeline: validate and store a file, record its metadata, then extract in the
 * background: text or OCR (in a reader process, within the document budget) -> type and located
 * values -> the `document.extracted` / `document.extraction_failed` event in the same
 * unit of work as the result -> tracking requests for what it names when the account's mode is
 * `automatic`. Uploads and email intake queue the same way: per account, taken in turns, with
 * at most the budget's documents running at once for the service and for one account.
 */
import type { EventSink } from '../events/event-sink';
import { ApiError } from '../jsonapi/errors';
import type { Resource } from '../jsonapi/include';
import type { ServiceStorage } from '../store';
import type { DocumentRow, DocumentStore } from '../store/documents';
import type { ReferenceData } from '../store/reference';
import type { TrackingRequestCreateBody } from '../../shared/api/documents';
import type { DeliveryOrderAttribute } from '../../shared/api/delivery-order';
import { extractFields, type Extraction } from './extract';
import type { DocumentFiles } from './files';
import { MAX_DOCUMENT_BYTES, sniffContentType } from './files';
import { DEFAULT_DOCUMENT_BUDGET, DocumentReadError, type DocumentBudget } from './budget';
import { DocumentReader, type ReaderLogger } from './document-reader';
import { isoString, type Clock } from '../../shared/clock';

export type CreateTrackingRequest = (
  accountId: string,
  attrs: TrackingRequestCreateBody['data']['attributes'],
) => Promise<{ id: string }>;

export class DocumentInputError extends ApiError {}

export interface IncomingFile {
  bytes: Uint8Array;
  fileName: string;
  name?: string;
  /** Shipments the uploader attached the file to (checked by the caller). */
  shipmentIds?: string[];
  /** What a delivery order stated (checked by the caller). */
  deliveryOrder?: DeliveryOrderAttribute;
}

export interface DocumentServiceDeps {
  /** The documents owner (`stores.documents`) and the unit of work for result-plus-event. */
  stores: ServiceStorage;
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
  budget?: Partial<DocumentBudget>;
  logger?: ReaderLogger;
}

export class DocumentService {
  /** Documents waiting per account, in the order they came. */
  private readonly waiting = new Map<string, string[]>();
  private readonly runningPerAccount = new Map<string, number>();
  private readonly freeReaders: DocumentReader[];
  private readonly readers: DocumentReader[];
  private pending = 0;
  private idleWaiters: (() => void)[] = [];
  private closed = false;
  readonly budget: DocumentBudget;

  constructor(private readonly deps: DocumentServiceDeps) {
    this.budget = { ...DEFAULT_DOCUMENT_BUDGET, ...deps.budget };
    this.readers = Array.from(
      { length: this.budget.concurrentJobs },
      () => new DocumentReader(this.budget, deps.logger),
    );
    this.freeReaders = [...this.readers];
  }

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
    const row = await this.deps.stores.documents.create(accountId, {
      name: file.name?.trim() || file.fileName,
      source,
      fileName: file.fileName,
      contentType,
      sizeBytes: file.bytes.byteLength,
      sha256,
      emailSubmissionId,
      shipmentIds: file.shipmentIds,
      deliveryOrder: file.deliveryOrder,
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
    const result = await this.deps.stores.transaction(async ({ documents }) => {
      const submission = await documents.createEmailSubmission(accountId, mail);
      const rows: DocumentRow[] = [];
      for (const s of stored) {
        rows.push(
          await documents.create(accountId, {
            name: s.file.name?.trim() || s.file.fileName,
            source: 'email',
            fileName: s.file.fileName,
            contentType: s.contentType,
            sizeBytes: s.file.bytes.byteLength,
            sha256: s.sha256,
            emailSubmissionId: submission.id,
          }),
        );
      }
      return { submissionId: submission.id, documentIds: rows.map((r) => r.id) };
    });
    for (const id of result.documentIds) this.enqueue(accountId, id);
    return result;
  }

  /** Queues (re-)extraction of a document. */
  enqueue(accountId: string, documentId: string): void {
    if (this.closed) return;
    this.pending++;
    const queue = this.waiting.get(accountId);
    if (queue) queue.push(documentId);
    else this.waiting.set(accountId, [documentId]);
    this.startReady();
  }

  /** Starts waiting documents while a reader is free, taking accounts in turns. */
  private startReady(): void {
    while (this.freeReaders.length > 0) {
      const accountId = [...this.waiting.keys()].find(
        (id) => (this.runningPerAccount.get(id) ?? 0) < this.budget.concurrentJobsPerAccount,
      );
      if (accountId === undefined) return;
      const queue = this.waiting.get(accountId)!;
      const documentId = queue.shift()!;
      // The account goes to the back of the line for its next document.
      this.waiting.delete(accountId);
      if (queue.length > 0) this.waiting.set(accountId, queue);
      const reader = this.freeReaders.pop()!;
      this.runningPerAccount.set(accountId, (this.runningPerAccount.get(accountId) ?? 0) + 1);
      this.extract(accountId, documentId, reader)
        .catch((err: unknown) =>
          this.deps.logger?.warn({ err, documentId }, 'document extraction crashed'),
        )
        .finally(() => {
          this.freeReaders.push(reader);
          const running = this.runningPerAccount.get(accountId)! - 1;
          if (running > 0) this.runningPerAccount.set(accountId, running);
          else this.runningPerAccount.delete(accountId);
          this.finished(1);
          if (!this.closed) this.startReady();
        });
    }
  }

  private finished(count: number): void {
    this.pending -= count;
    if (this.pending === 0) for (const resolve of this.idleWaiters.splice(0)) resolve();
  }

  /** Queues the extractions a previous run left unfinished. */
  async resume(): Promise<void> {
    for (const row of await this.deps.stores.documents.pendingExtractions())
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
    // Waiting documents stay pending in the store; the next start resumes them.
    const dropped = [...this.waiting.values()].reduce((n, queue) => n + queue.length, 0);
    this.waiting.clear();
    this.finished(dropped);
    await this.idle();
    await Promise.all(this.readers.map((reader) => reader.close()));
  }

  private async read(row: DocumentRow, reader: DocumentReader): Promise<Extraction> {
    const bytes = await this.deps.files.read(row.sha256);
    const text = await reader.read(row.content_type, bytes);
    return extractFields(text.pages, this.deps.ref.lines, text);
  }

  /** Runs one extraction and records its result and event together. */
  private async extract(
    accountId: string,
    documentId: string,
    reader: DocumentReader,
  ): Promise<void> {
    const { stores, events } = this.deps;
    const store = stores.documents;
    const row = await store.get(accountId, documentId);
    if (!row) return;
    let outcome: Parameters<DocumentStore['saveExtraction']>[2];
    try {
      const extraction = await this.read(row, reader);
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
    await stores.transaction(async (unit) => {
      const saved = await unit.documents.saveExtraction(accountId, documentId, outcome);
      await events.record(unit, {
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
    const row = await this.deps.stores.documents.get(accountId, documentId);
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
      await this.deps.stores.documents.link(accountId, documentId, { trackingRequestIds: created });
    }
    return created.length;
  }
}
