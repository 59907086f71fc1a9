import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { safeStorage } from 'electron';
import { FileSecretStore, writePrivateFile, type SecretStore } from '../core/secret-store';

const ENCRYPTED_KEY_FILE = 'remote-api-key.enc';

/**
 * The remote API key encrypted with the OS keychain (Keychain, DPAPI, libsecret/kwallet) via
 * Electron's safeStorage. Where no keychain is available (e.g. Linux without a secret service),
 * it falls back to a 0600 file and Settings says so.
 */
export function createSecretStore(dataDir: string): SecretStore {
  if (!safeStorage.isEncryptionAvailable()) return new FileSecretStore(dataDir);
  const path = join(dataDir, ENCRYPTED_KEY_FILE);
  return {
    description: 'your operating system keychain',
    get() {
      if (!existsSync(path)) return null;
      try {
        return safeStorage.decryptString(readFileSync(path));
      } catch {
        // Encrypted under another OS account or a reset keychain: the key must be entered again.
        return null;
      }
    },
    set(secret) {
      if (secret === null) rmSync(path, { force: true });
      else writePrivateFile(path, safeStorage.encryptString(secret));
    },
  };
}
