/**
 * Encryption at rest for the secrets the service must be able to read back (webhook signing
 * secrets, custom webhook header values): AES-256-GCM from node:crypto, a fresh 96-bit nonce
 * per value, the 128-bit tag checked on every read. A sealed value is the text
 * `qsbox1:<nonce>:<tag>:<ciphertext>` (base64url parts), so it fits the existing text columns and
 * plaintext left by older versions is told apart and sealed on start.
 *
 * The 32-byte key comes, in order, from the caller (the desktop app keeps it in the OS keychain),
 * from `QUAYSIDE_SECRET_KEY` (64 hex characters or base64 of 32 bytes), or from the key file
 * `secret.key` in the data folder (created 0600 with a random key on first start).
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { SECRET_KEY_ENV } from '../../shared/service-env';
import { ensurePrivateDir, restrictFiles, writePrivateFile } from './private-files';

export const SECRET_KEY_FILE = 'secret.key';
export const SEALED_PREFIX = 'qsbox1:';
const KEY_BYTES = 32;
const NONCE_BYTES = 12;

export class SecretBox {
  private readonly key: Buffer;

  constructor(key: Buffer) {
    if (key.length !== KEY_BYTES) throw new Error(`The secret key must be ${KEY_BYTES} bytes`);
    this.key = Buffer.from(key);
  }

  static isSealed(value: string): boolean {
    return value.startsWith(SEALED_PREFIX);
  }

  seal(plaintext: string): string {
    const nonce = randomBytes(NONCE_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, nonce);
    const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    const parts = [nonce, cipher.getAuthTag(), data].map((b) => b.toString('base64url'));
    return `${SEALED_PREFIX}${parts.join(':')}`;
  }

  /** The plaintext of a sealed value; throws when it was sealed with another key or altered. */
  open(sealed: string): string {
    const [nonce, tag, data] = sealed.slice(SEALED_PREFIX.length).split(':');
    if (nonce === undefined || tag === undefined || data === undefined) {
      throw new Error('Malformed sealed value');
    }
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(nonce, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([
      decipher.update(Buffer.from(data, 'base64url')),
      decipher.final(),
    ]).toString('utf8');
  }
}

/** Parses a key given as 64 hex characters or as base64/base64url of 32 bytes. */
export function parseSecretKey(text: string, origin: string): Buffer {
  const trimmed = text.trim();
  const key = /^[0-9a-f]{64}$/i.test(trimmed)
    ? Buffer.from(trimmed, 'hex')
    : Buffer.from(trimmed, 'base64');
  if (key.length !== KEY_BYTES) {
    throw new Error(`${origin} must hold a 32-byte key as 64 hex characters or base64`);
  }
  return key;
}

/** The key for the service in `dataDir`: given, from the environment, or from its key file. */
export function resolveSecretKey(
  dataDir: string,
  given?: Buffer,
  env: NodeJS.ProcessEnv = process.env,
): Buffer {
  if (given) return given;
  const fromEnv = env[SECRET_KEY_ENV];
  if (fromEnv) return parseSecretKey(fromEnv, SECRET_KEY_ENV);
  const file = path.join(dataDir, SECRET_KEY_FILE);
  if (fs.existsSync(file)) {
    restrictFiles(file);
    return parseSecretKey(fs.readFileSync(file, 'utf8'), file);
  }
  const key = randomBytes(KEY_BYTES);
  ensurePrivateDir(dataDir);
  writePrivateFile(file, key.toString('hex'));
  return key;
}
