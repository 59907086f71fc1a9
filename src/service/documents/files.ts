/**
 * Document files on disk: one file per content hash in `<data dir>/documents` (mode 0600),
 * written atomically, with the type decided by magic bytes (the name is never trusted), and
 * signed, expiring download links (HMAC-SHA256 with a secret kept in the data folder).
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';

// One home for what a document file may be, shared with the desktop app's checks.
export {
  DOCUMENT_CONTENT_TYPES as ACCEPTED_TYPES,
  MAX_DOCUMENT_BYTES,
  sniffDocumentType as sniffContentType,
  type DocumentContentType,
} from '../../shared/documents';

export const sha256Hex = (bytes: Uint8Array): string =>
  createHash('sha256').update(bytes).digest('hex');

export class DocumentFiles {
  private readonly dir: string;
  private readonly secret: Buffer;

  constructor(dataDir: string) {
    this.dir = path.join(dataDir, 'documents');
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    this.secret = loadSecret(path.join(dataDir, 'document-links.key'));
  }

  private pathOf(sha256: string): string {
    if (!/^[0-9a-f]{64}$/.test(sha256)) throw new Error('not a content hash');
    return path.join(this.dir, sha256);
  }

  /** Stores the bytes under their hash (no-op when already stored); returns the hash. */
  put(bytes: Uint8Array): string {
    const hash = sha256Hex(bytes);
    const target = this.pathOf(hash);
    if (!existsSync(target)) {
      const temp = `${target}.${randomBytes(6).toString('hex')}.tmp`;
      writeFileSync(temp, bytes, { mode: 0o600 });
      renameSync(temp, target);
    }
    return hash;
  }

  /** Deletes a stored file (already gone: nothing to do). */
  remove(sha256: string): void {
    rmSync(this.pathOf(sha256), { force: true });
  }

  read(sha256: string): Promise<Buffer> {
    return readFile(this.pathOf(sha256));
  }

  /** Signature over document id and expiry (epoch seconds). */
  sign(documentId: string, expires: number): string {
    return createHmac('sha256', this.secret).update(`${documentId}.${expires}`).digest('base64url');
  }

  verify(documentId: string, expires: number, signature: string, nowMs: number): boolean {
    if (!Number.isInteger(expires) || expires * 1000 < nowMs) return false;
    const expected = Buffer.from(this.sign(documentId, expires));
    const given = Buffer.from(signature);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}

function loadSecret(file: string): Buffer {
  if (existsSync(file)) return readFileSync(file);
  const secret = randomBytes(32);
  writeFileSync(file, secret, { mode: 0o600, flag: 'wx' });
  return secret;
}
