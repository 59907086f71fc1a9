/**
 * The local copy of the account's documents: their metadata and extracted numbers in their own
 * SQLite file (documents.sqlite, versioned with `PRAGMA user_version` like the main cache, so the
 * two schemas evolve independently), and each file under documents/ in the data folder, readable
 * only by the user, so a synced document opens offline.
 */
import Database from 'better-sqlite3';
import { chmodSync, existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sqliteOptions } from '../../native/sqlite-binding';
import { documentSummary, type DocumentRecord } from '../../shared/document-record';
import type { DocumentSummary } from '../../shared/documents';
import { PRIVATE_FILE_MODE, PRIVATE_FOLDER_MODE, privateSqliteFile } from '../private-data';

export const DOCUMENTS_FILE = 'documents.sqlite';
const FILES_DIR = 'documents';

/** Append only; never edit a shipped entry. */
const DOCUMENT_MIGRATIONS: readonly string[] = [
  // 1: documents with their extracted numbers and linked shipments; the numbers indexed so a
  // shipment finds the documents that name its bill of lading or containers.
  `
  CREATE TABLE documents (
    id TEXT PRIMARY KEY,
    created_at TEXT NOT NULL,
    updated_at TEXT,
    json TEXT NOT NULL,
    file_name TEXT,
    synced_at TEXT NOT NULL
  ) STRICT;
  CREATE INDEX documents_created ON documents (created_at DESC);

  CREATE TABLE document_numbers (
    document_id TEXT NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
    number TEXT NOT NULL,
    PRIMARY KEY (number, document_id)
  ) STRICT, WITHOUT ROWID;

  CREATE TABLE document_shipments (
    document_id TEXT NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
    shipment_id TEXT NOT NULL,
    PRIMARY KEY (shipment_id, document_id)
  ) STRICT, WITHOUT ROWID;
  `,
];

/** What sync stores for one document (the file comes separately). */

const SAFE_ID = /^[A-Za-z0-9-]{1,64}$/;

export class DocumentCache {
  readonly filesDir: string;

  private constructor(
    private readonly db: Database.Database,
    dataDir: string,
  ) {
    this.filesDir = join(dataDir, FILES_DIR);
  }

  static open(dataDir: string): DocumentCache {
    mkdirSync(dataDir, { recursive: true, mode: PRIVATE_FOLDER_MODE });
    privateSqliteFile(join(dataDir, DOCUMENTS_FILE));
    const db = new Database(join(dataDir, DOCUMENTS_FILE), sqliteOptions());
    db.pragma('journal_mode = WAL');
    db.pragma('busy_timeout = 5000');
    db.pragma('foreign_keys = ON');
    const current = db.pragma('user_version', { simple: true }) as number;
    if (current > DOCUMENT_MIGRATIONS.length) {
      db.close();
      throw new Error(
        `The documents cache was written by a newer Quayside (schema ${current}); this version knows ${DOCUMENT_MIGRATIONS.length}.`,
      );
    }
    for (let version = current; version < DOCUMENT_MIGRATIONS.length; version++) {
      db.transaction(() => {
        db.exec(DOCUMENT_MIGRATIONS[version]!);
        db.pragma(`user_version = ${version + 1}`);
      }).immediate();
    }
    return new DocumentCache(db, dataDir);
  }

  close(): void {
    this.db.close();
  }

  /** Where a document's file is kept (ids are checked: a path never comes from outside). */
  filePath(id: string): string {
    if (!SAFE_ID.test(id)) throw new Error(`Not a document id: ${id}`);
    return join(this.filesDir, id);
  }

  hasFile(id: string): boolean {
    return SAFE_ID.test(id) && existsSync(this.filePath(id));
  }

  /** Writes a downloaded file, private to the user (0600 in a 0700 folder). */
  writeFile(id: string, bytes: Uint8Array): void {
    mkdirSync(this.filesDir, { recursive: true, mode: PRIVATE_FOLDER_MODE });
    const path = this.filePath(id);
    const partial = `${path}.part`;
    writeFileSync(partial, bytes, { mode: PRIVATE_FILE_MODE });
    chmodSync(partial, PRIVATE_FILE_MODE);
    // Renamed into place so a half-written download is never taken for the file.
    renameSync(partial, path);
  }

  /** The stored `updated_at` of each document, to tell which changed since the last run. */
  versions(): Map<string, string | null> {
    const rows = this.db.prepare('SELECT id, updated_at FROM documents').all() as {
      id: string;
      updated_at: string | null;
    }[];
    return new Map(rows.map((r) => [r.id, r.updated_at]));
  }

  upsert(record: DocumentRecord, now: string): void {
    this.db
      .transaction(() => {
        this.db
          .prepare(
            `INSERT INTO documents (id, created_at, updated_at, json, file_name, synced_at)
             VALUES (?, ?, ?, ?, ?, ?)
             ON CONFLICT (id) DO UPDATE SET updated_at = excluded.updated_at,
               json = excluded.json, file_name = excluded.file_name, synced_at = excluded.synced_at`,
          )
          .run(
            record.id,
            record.createdAt,
            record.updatedAt,
            JSON.stringify(record),
            record.fileName,
            now,
          );
        this.db.prepare('DELETE FROM document_numbers WHERE document_id = ?').run(record.id);
        this.db.prepare('DELETE FROM document_shipments WHERE document_id = ?').run(record.id);
        const addNumber = this.db.prepare(
          'INSERT OR IGNORE INTO document_numbers (document_id, number) VALUES (?, ?)',
        );
        for (const n of record.numbers) if (!n.problem) addNumber.run(record.id, n.value);
        const addShipment = this.db.prepare(
          'INSERT OR IGNORE INTO document_shipments (document_id, shipment_id) VALUES (?, ?)',
        );
        for (const s of record.shipmentIds) addShipment.run(record.id, s);
      })
      .immediate();
  }

  /** Forgets documents the service no longer lists, with their files. */
  deleteMissing(seen: ReadonlySet<string>): number {
    const gone = [...this.versions().keys()].filter((id) => !seen.has(id));
    const remove = this.db.prepare('DELETE FROM documents WHERE id = ?');
    for (const id of gone) {
      remove.run(id);
      if (SAFE_ID.test(id)) rmSync(this.filePath(id), { force: true });
    }
    return gone.length;
  }

  list(limit = 200): DocumentSummary[] {
    const rows = this.db
      .prepare('SELECT id, json FROM documents ORDER BY created_at DESC, id LIMIT ?')
      .all(limit) as { id: string; json: string }[];
    return rows.map((r) => this.summary(r.json));
  }

  get(id: string): DocumentSummary | null {
    const row = this.db.prepare('SELECT json FROM documents WHERE id = ?').get(id) as
      { json: string } | undefined;
    return row ? this.summary(row.json) : null;
  }

  /** Documents linked to a shipment, or naming its bill of lading or one of its containers. */
  forShipment(shipmentId: string, numbers: readonly string[]): DocumentSummary[] {
    const marks = numbers.map(() => '?').join(', ');
    const rows = this.db
      .prepare(
        `SELECT id, json FROM documents WHERE id IN (
           SELECT document_id FROM document_shipments WHERE shipment_id = ?
           ${numbers.length ? `UNION SELECT document_id FROM document_numbers WHERE number IN (${marks})` : ''}
         ) ORDER BY created_at DESC, id`,
      )
      .all(shipmentId, ...numbers) as { id: string; json: string }[];
    return rows.map((r) => this.summary(r.json));
  }

  clear(): void {
    this.db.exec('DELETE FROM documents');
    rmSync(this.filesDir, { recursive: true, force: true });
  }

  private summary(json: string): DocumentSummary {
    const record = JSON.parse(json) as DocumentRecord;
    return documentSummary(record, this.hasFile(record.id));
  }
}
