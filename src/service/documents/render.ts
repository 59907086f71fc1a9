/** Document, document_representation and email_submission rows -> JSON:API resources. */
import type { Identifier, Resource } from '../jsonapi/include';
import type { DocumentRow, DocumentStore, EmailSubmissionRow } from '../store/documents';
import { SCHEMA_VERSION } from './types';

const API_PREFIX = '/v2';
const ids = (text: string) => JSON.parse(text) as string[];
const refs = (type: string, list: string[]) => ({
  data: list.map((id): Identifier => ({ id, type })),
});
const one = (type: string, id: string | null) => ({ data: id ? { id, type } : null });

export class DocumentRenderer {
  constructor(private readonly store: DocumentStore) {}

  /** Documents with their shipments and containers (stored links plus what their requests found). */
  async documents(rows: DocumentRow[]): Promise<Resource[]> {
    return Promise.all(rows.map((row) => this.document(row)));
  }

  async document(row: DocumentRow): Promise<Resource> {
    const tracked = await this.store.trackedObjects(row.account_id, ids(row.tracking_request_ids));
    const shipments = [...new Set([...ids(row.shipment_ids), ...tracked.shipmentIds])];
    const containers = [...new Set([...ids(row.container_ids), ...tracked.containerIds])];
    return {
      id: row.id,
      type: 'document',
      attributes: {
        id: row.id,
        name: row.name,
        document_type: row.document_type,
        document_type_manual: row.document_type_manual,
        classification_notes: row.classification_notes,
        source: row.source,
        file_name: row.file_name,
        file_content_type: row.content_type,
        file_size_bytes: row.size_bytes,
        extraction_status: row.extraction_status,
        extraction_error: row.extraction_error,
        rotation: row.rotation,
        // Quayside extension: what a delivery order stated (null for other documents).
        delivery_order: row.delivery_order ? (JSON.parse(row.delivery_order) as object) : null,
        // Quayside extension: who the document was last emailed to and when (null: never).
        emailed: row.emailed ? (JSON.parse(row.emailed) as object) : null,
        created_at: row.created_at,
        updated_at: row.updated_at,
      },
      relationships: {
        account: one('account', row.account_id),
        user: { data: null },
        email_submission: one('email_submission', row.email_submission_id),
        last_document_representation: one('document_representation', row.extraction_id),
        shipments: refs('shipment', shipments),
        cargos: refs('container', containers),
        tracking_requests: refs('tracking_request', ids(row.tracking_request_ids)),
      },
      links: {
        self: `${API_PREFIX}/documents/${row.id}`,
        download: `${API_PREFIX}/documents/${row.id}/download_url`,
      },
    };
  }

  /** The latest extraction of a document (null before the first one finished). */
  representation(row: DocumentRow): Resource | null {
    if (!row.extraction_id) return null;
    return {
      id: row.extraction_id,
      type: 'document_representation',
      attributes: {
        schema_version: `${row.document_type}@${SCHEMA_VERSION}`,
        payload: {
          ...(row.extracted ? (JSON.parse(row.extracted) as object) : {}),
          status: row.extraction_status,
          error: row.extraction_error,
          manual: row.extracted_manual ? (JSON.parse(row.extracted_manual) as object) : null,
        },
        created_at: row.extracted_at,
        updated_at: row.extracted_at,
      },
    };
  }

  emailSubmission(row: EmailSubmissionRow, documents: DocumentRow[]): Resource {
    return {
      id: row.id,
      type: 'email_submission',
      attributes: {
        subject: row.subject ?? '',
        body: row.body,
        from: ids(row.from_addresses),
        to: ids(row.to_addresses),
        cc: ids(row.cc_addresses),
        sent_at: row.sent_at,
        message_id: row.message_id,
        in_reply_to: row.in_reply_to,
        references: ids(row.reference_ids),
        content_type: row.content_type,
        documents_count: documents.length,
        created_at: row.created_at,
        updated_at: row.updated_at,
      },
      relationships: {
        account: one('account', row.account_id),
        user: { data: null },
        documents: refs(
          'document',
          documents.map((d) => d.id),
        ),
      },
      links: { self: `${API_PREFIX}/email_submissions/${row.id}` },
    };
  }
}
