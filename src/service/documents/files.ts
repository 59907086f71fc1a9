/**
 * Document files on disk: one file per content hash in `<data dir>/documents` (mode 0600),
 * written atomically, with the type decided by magic bytes (the name is never trusted), and
 * signed, expiring download links (HMAC-SHA256 with a secret kept in the data folder).
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';

/** Largest accepted document file. */
export const MAX_DOCUMENT_BYTES = 20 * 1024 * 1024;

export const ACCEPTED_TYPES = ['application/pdf', 'image/png', 'image/jpeg'] as const;
export type DocumentContentType = (typeof ACCEPTED_TYPES)[number];

/** The content type the bytes really have, or null when it is not an accepted type. */
export function sniffContentType(bytes: Uint8Array): DocumentContentType | null {
  const starts = (...sig: number[]) => sig.every((b, i) => bytes[i] === b);
  // PDF readers accept the header anywhere in the first KiB.
  if (Buffer.from(bytes.subarray(0, 1024)).includes('%PDF-')) return 'application/pdf';
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  if (starts(0xff, 0xd8, 0xff)) return 'image/jpeg';
  return null;
}

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
