/**
 * Where the remote service's API key lives. Never in settings: in Electron the OS keychain
 * (safeStorage) encrypts it; in browser mode, where no keychain is reachable, it sits in a file
 * only the user can read (0600), and the app says so in Settings.
 */
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';

export interface SecretStore {
  /** Plain words for Settings: where the key is kept. */
  readonly description: string;
  get(): string | null;
  set(secret: string | null): void;
}

export const REMOTE_KEY_FILE = 'remote-api-key';

/** Writes `content` to `path` atomically with owner-only permissions. */
export function writePrivateFile(path: string, content: string | Buffer): void {
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, content, { mode: 0o600 });
  chmodSync(temporary, 0o600);
  renameSync(temporary, path);
}

export class FileSecretStore implements SecretStore {
  readonly description = 'a file only your user can read (no OS keychain in browser mode)';
  private readonly path: string;

  constructor(dataDir: string) {
    this.path = join(dataDir, REMOTE_KEY_FILE);
  }

  get(): string | null {
    if (!existsSync(this.path)) return null;
    const value = readFileSync(this.path, 'utf8').trim();
    return value === '' ? null : value;
  }

  set(secret: string | null): void {
    if (secret === null) rmSync(this.path, { force: true });
    else writePrivateFile(this.path, secret);
  }
}

/** `abcd…wxyz`: enough to recognise a key, not enough to use it. */
export function maskSecret(secret: string | null): string | null {
  if (!secret) return null;
  if (secret.length <= 8) return '•'.repeat(secret.length);
  return `${secret.slice(0, 4)}…${secret.slice(-4)}`;
}
