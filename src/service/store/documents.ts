/**
 * Owner of documents, email submissions and each account's document settings. Every read and
 * write is scoped by account; a discarded document is invisible everywhere.
 */
import { randomBytes } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import { v4 as uuidv4 } from 'uuid';
import { isoString, type Clock } from '../../shared/clock';
import type { DeliveryOrderAttribute } from '../../shared/api/delivery-order';
import type { Database, DocumentsTable, EmailSubmissionsTable } from './schema';
import { containingText } from './like';

export type DocumentRow = DocumentsTable;
export type EmailSubmissionRow = EmailSubmissionsTable;

export const TRACKING_MODES = ['off', 'ask', 'automatic'] as const;
export type TrackingMode = (typeof TRACKING_MODES)[number];

export interface DocumentSettings {
  trackingMode: TrackingMode;
  inboxToken: string;
}

export interface NewDocument {
  name: string;
  source: 'upload' | 'api' | 'email';
  fileName: string;
  contentType: string;
  sizeBytes: number;
  sha256: string;
  emailSubmissionId?: string | null;
  /** Shipments the uploader attached it to (already checked to be the account's). */
  shipmentIds?: string[];
  /** What a delivery order stated (checked by the caller); its container is linked too. */
  deliveryOrder?: DeliveryOrderAttribute;
}

export interface DocumentListQuery {
  fileName?: string;
  /** Matches the document's extracted numbers (container, BL, booking) exactly. */
  reference?: string;
  documentTypes?: string[];
  sort: { field: 'document_type' | 'created_at' | 'added_by'; descending: boolean };
  limit: number;
  offset: number;
}

export interface ExtractionOutcome {
  status: 'extracted' | 'failed';
  documentType: string;
  classificationNotes: string | null;
  /** JSON-serializable payload (fields with page and confidence). */
  payload: unknown;
  error: string | null;
}

type Db = Kysely<Database> | Transaction<Database>;

export class DocumentStore {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  private now(): string {
    return isoString(this.clock.now());
  }

  /** The account's settings, created with defaults (tracking off, a new inbox token) on first use. */
  async settings(accountId: string): Promise<DocumentSettings> {
    const row = await this.db
      .selectFrom('document_settings')
      .selectAll()
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    if (row)
      return { trackingMode: row.tracking_mode as TrackingMode, inboxToken: row.inbox_token };
    const created = {
      account_id: accountId,
      tracking_mode: 'off',
      inbox_token: randomBytes(12).toString('hex'),
    };
    await this.db
      .insertInto('document_settings')
      .values(created)
      .onConflict((oc) => oc.column('account_id').doNothing())
      .execute();
    return this.settings(accountId);
  }

  async setTrackingMode(accountId: string, mode: TrackingMode): Promise<void> {
    await this.settings(accountId);
    await this.db
      .updateTable('document_settings')
      .set({ tracking_mode: mode })
      .where('account_id', '=', accountId)
      .execute();
  }

  async accountIdByInboxToken(token: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('document_settings')
      .select('account_id')
      .where('inbox_token', '=', token.toLowerCase())
      .executeTakeFirst();
    return row?.account_id;
  }

  async create(accountId: string, doc: NewDocument): Promise<DocumentRow> {
    const now = this.now();
    const row: DocumentRow = {
      id: uuidv4(),
      account_id: accountId,
      email_submission_id: doc.emailSubmissionId ?? null,
      name: doc.name,
      source: doc.source,
      file_name: doc.fileName,
      content_type: doc.contentType,
      size_bytes: doc.sizeBytes,
      sha256: doc.sha256,
      rotation: 0,
      document_type: 'other',
      document_type_manual: null,
      classification_notes: null,
      extraction_status: 'pending',
      extraction_error: null,
      extraction_id: null,
      extracted: null,
      extracted_at: null,
      extracted_manual: null,
      shipment_ids: JSON.stringify([...new Set(doc.shipmentIds ?? [])]),
      container_ids: JSON.stringify(doc.deliveryOrder ? [doc.deliveryOrder.container.id] : []),
      tracking_request_ids: '[]',
      delivery_order: doc.deliveryOrder ? JSON.stringify(doc.deliveryOrder) : null,
      emailed: null,
      discarded_at: null,
      created_at: now,
      updated_at: now,
    };
    await this.db.insertInto('documents').values(row).execute();
    return row;
  }

  async get(accountId: string, id: string): Promise<DocumentRow | undefined> {
    return this.db
      .selectFrom('documents')
      .selectAll()
      .where('id', '=', id)
      .where('account_id', '=', accountId)
      .where('discarded_at', 'is', null)
      .executeTakeFirst();
  }

  /** A live document by id alone: only for the signed download link, whose signature is the check. */
  async byIdForDownload(id: string): Promise<DocumentRow | undefined> {
    return this.db
      .selectFrom('documents')
      .selectAll()
      .where('id', '=', id)
      .where('discarded_at', 'is', null)
      .executeTakeFirst();
  }

  /** A live document of the account with the same content, for duplicate detection. */
  async byHash(accountId: string, sha256: string): Promise<DocumentRow | undefined> {
    return this.db
      .selectFrom('documents')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('sha256', '=', sha256)
      .where('discarded_at', 'is', null)
      .executeTakeFirst();
  }

  async list(
    accountId: string,
    query: DocumentListQuery,
  ): Promise<{ rows: DocumentRow[]; total: number }> {
    let base = this.db
      .selectFrom('documents')
      .where('account_id', '=', accountId)
      .where('discarded_at', 'is', null);
    if (query.fileName) {
      const pattern = containingText(query.fileName);
      base = base.where((eb) =>
        eb.or([
          eb(eb.fn('upper', ['file_name']), 'like', pattern),
          eb(eb.fn('upper', ['name']), 'like', pattern),
        ]),
      );
    }
    if (query.documentTypes?.length) {
      const types = query.documentTypes;
      base = base.where((eb) =>
        eb.or([
          eb('document_type_manual', 'in', types),
          eb.and([eb('document_type_manual', 'is', null), eb('document_type', 'in', types)]),
        ]),
      );
    }
    if (query.reference) {
      // Extracted values are stored as JSON strings: match the quoted value exactly.
      const pattern = containingText(`"${query.reference.toUpperCase()}"`);
      base = base.where((eb) => eb(eb.fn('upper', ['extracted']), 'like', pattern));
    }
    const column = query.sort.field === 'added_by' ? 'source' : query.sort.field;
    const direction = query.sort.descending ? 'desc' : 'asc';
    const [count, rows] = await Promise.all([
      base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
      base
        .selectAll()
        .orderBy(column, direction)
        .orderBy('id', direction)
        .limit(query.limit)
        .offset(query.offset)
        .execute(),
    ]);
    return { rows, total: Number(count.total) };
  }

  async byIds(accountId: string, ids: string[]): Promise<DocumentRow[]> {
    if (ids.length === 0) return [];
    return this.db
      .selectFrom('documents')
      .selectAll()
      .where('id', 'in', ids)
      .where('account_id', '=', accountId)
      .where('discarded_at', 'is', null)
      .execute();
  }

  async byEmailSubmission(accountId: string, submissionIds: string[]): Promise<DocumentRow[]> {
    if (submissionIds.length === 0) return [];
    return this.db
      .selectFrom('documents')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('email_submission_id', 'in', submissionIds)
      .where('discarded_at', 'is', null)
      .orderBy('created_at')
      .execute();
  }

  /** Manual corrections; undefined leaves a value as it is, null clears it. */
  /** Records that the document was emailed (the last sending wins). */
  async recordEmailed(
    accountId: string,
    id: string,
    emailed: { to: string[]; sent_at: string },
  ): Promise<void> {
    await this.db
      .updateTable('documents')
      .set({ emailed: JSON.stringify(emailed), updated_at: this.now() })
      .where('id', '=', id)
      .where('account_id', '=', accountId)
      .execute();
  }

  async updateManual(
    accountId: string,
    id: string,
    changes: { documentTypeManual?: string | null; extractedManual?: unknown },
  ): Promise<boolean> {
    const set: Partial<DocumentRow> = { updated_at: this.now() };
    if (changes.documentTypeManual !== undefined)
      set.document_type_manual = changes.documentTypeManual;
    if (changes.extractedManual !== undefined)
      set.extracted_manual =
        changes.extractedManual === null ? null : JSON.stringify(changes.extractedManual);
    const result = await this.db
      .updateTable('documents')
      .set(set)
      .where('id', '=', id)
      .where('account_id', '=', accountId)
      .where('discarded_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async discard(accountId: string, id: string): Promise<DocumentRow | undefined> {
    const row = await this.get(accountId, id);
    if (!row) return undefined;
    const now = this.now();
    await this.db
      .updateTable('documents')
      .set({ discarded_at: now, updated_at: now })
      .where('id', '=', id)
      .execute();
    return row;
  }

  /** Whether any document not discarded, of any account, still holds the file with this hash. */
  async fileInUse(sha256: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('documents')
      .select('id')
      .where('sha256', '=', sha256)
      .where('discarded_at', 'is', null)
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  async setRotation(accountId: string, id: string, degrees: number): Promise<void> {
    await this.db
      .updateTable('documents')
      .set({ rotation: degrees, updated_at: this.now() })
      .where('id', '=', id)
      .where('account_id', '=', accountId)
      .execute();
  }

  /** Live documents whose extraction has not finished (a previous run stopped first). */
  async pendingExtractions(): Promise<{ account_id: string; id: string }[]> {
    return this.db
      .selectFrom('documents')
      .select(['account_id', 'id'])
      .where('extraction_status', '=', 'pending')
      .where('discarded_at', 'is', null)
      .orderBy('created_at')
      .execute();
  }

  /** Marks a document as waiting for (re-)extraction. */
  async markPending(accountId: string, id: string): Promise<void> {
    await this.db
      .updateTable('documents')
      .set({ extraction_status: 'pending', updated_at: this.now() })
      .where('id', '=', id)
      .where('account_id', '=', accountId)
      .execute();
  }

  /**
   * Stores an extraction's result and returns the saved row (called in the unit of work that
   * records its event).
   */
  async saveExtraction(
    accountId: string,
    id: string,
    outcome: ExtractionOutcome,
  ): Promise<DocumentRow> {
    const now = this.now();
    await this.db
      .updateTable('documents')
      .set({
        extraction_status: outcome.status,
        document_type: outcome.documentType,
        classification_notes: outcome.classificationNotes,
        extraction_id: uuidv4(),
        extracted: JSON.stringify(outcome.payload),
        extraction_error: outcome.error,
        extracted_at: now,
        updated_at: now,
      })
      .where('id', '=', id)
      .where('account_id', '=', accountId)
      .execute();
    return this.db
      .selectFrom('documents')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
  }

  /** Links the document to tracking requests and, once known, their shipments and containers. */
  async link(
    accountId: string,
    id: string,
    links: { trackingRequestIds?: string[]; shipmentIds?: string[]; containerIds?: string[] },
  ): Promise<void> {
    const row = await this.get(accountId, id);
    if (!row) return;
    const merge = (text: string, more: string[] | undefined) =>
      JSON.stringify([...new Set([...(JSON.parse(text) as string[]), ...(more ?? [])])]);
    await this.db
      .updateTable('documents')
      .set({
        tracking_request_ids: merge(row.tracking_request_ids, links.trackingRequestIds),
        shipment_ids: merge(row.shipment_ids, links.shipmentIds),
        container_ids: merge(row.container_ids, links.containerIds),
        updated_at: this.now(),
      })
      .where('id', '=', id)
      .execute();
  }

  /** Which of these ids are shipments of the account (the rest are unknown or another's). */
  async ownShipmentIds(accountId: string, ids: string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await this.db
      .selectFrom('shipments')
      .select('id')
      .where('account_id', '=', accountId)
      .where('id', 'in', ids)
      .execute();
    return new Set(rows.map((r) => r.id));
  }

  /** The shipment and containers of each tracking request that has found its shipment. */
  async trackedObjects(
    accountId: string,
    trackingRequestIds: string[],
  ): Promise<{ shipmentIds: string[]; containerIds: string[] }> {
    if (trackingRequestIds.length === 0) return { shipmentIds: [], containerIds: [] };
    const requests = await this.db
      .selectFrom('tracking_requests')
      .select('shipment_id')
      .where('id', 'in', trackingRequestIds)
      .where('account_id', '=', accountId)
      .execute();
    const shipmentIds = requests.flatMap((r) => (r.shipment_id ? [r.shipment_id] : []));
    const containers = shipmentIds.length
      ? await this.db
          .selectFrom('containers')
          .select('id')
          .where('shipment_id', 'in', shipmentIds)
          .where('account_id', '=', accountId)
          .execute()
      : [];
    return { shipmentIds, containerIds: containers.map((c) => c.id) };
  }

  async createEmailSubmission(
    accountId: string,
    mail: {
      subject: string | null;
      body: string | null;
      from: string[];
      to: string[];
      cc: string[];
      sentAt: string | null;
      messageId: string | null;
      inReplyTo: string | null;
      references: string[];
      contentType: string | null;
    },
  ): Promise<EmailSubmissionRow> {
    const now = this.now();
    const row: EmailSubmissionRow = {
      id: uuidv4(),
      account_id: accountId,
      subject: mail.subject,
      body: mail.body,
      from_addresses: JSON.stringify(mail.from),
      to_addresses: JSON.stringify(mail.to),
      cc_addresses: JSON.stringify(mail.cc),
      sent_at: mail.sentAt,
      message_id: mail.messageId,
      in_reply_to: mail.inReplyTo,
      reference_ids: JSON.stringify(mail.references),
      content_type: mail.contentType,
      created_at: now,
      updated_at: now,
    };
    await this.db.insertInto('email_submissions').values(row).execute();
    return row;
  }

  async emailSubmission(accountId: string, id: string): Promise<EmailSubmissionRow | undefined> {
    return this.db
      .selectFrom('email_submissions')
      .selectAll()
      .where('id', '=', id)
      .where('account_id', '=', accountId)
      .executeTakeFirst();
  }

  async emailSubmissionsByIds(accountId: string, ids: string[]): Promise<EmailSubmissionRow[]> {
    if (ids.length === 0) return [];
    return this.db
      .selectFrom('email_submissions')
      .selectAll()
      .where('id', 'in', ids)
      .where('account_id', '=', accountId)
      .execute();
  }

  async listEmailSubmissions(
    accountId: string,
    page: { limit: number; offset: number },
  ): Promise<{ rows: EmailSubmissionRow[]; total: number }> {
    const base = this.db.selectFrom('email_submissions').where('account_id', '=', accountId);
    const [count, rows] = await Promise.all([
      base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
      base
        .selectAll()
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(page.limit)
        .offset(page.offset)
        .execute(),
    ]);
    return { rows, total: Number(count.total) };
  }
}
