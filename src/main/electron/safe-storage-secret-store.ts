import { randomBytes } from 'node:crypto';
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

const SERVICE_KEY_FILE = 'embedded-service-key.enc';

/**
 * The key sealing the embedded service's webhook secrets at rest (64 hex characters), kept
 * encrypted with the OS keychain and handed to the service process as QUAYSIDE_SECRET_KEY. A key
 * the service made for itself before (its 0600 key file) is adopted so sealed rows stay readable.
 * Null where no keychain is available: the service then keeps its own 0600 key file.
 */
export function embeddedServiceSecretKey(dataDir: string, serviceDataDir: string): string | null {
  if (!safeStorage.isEncryptionAvailable()) return null;
  const path = join(dataDir, SERVICE_KEY_FILE);
  if (existsSync(path)) {
    try {
      return safeStorage.decryptString(readFileSync(path));
    } catch {
      // A reset keychain: the service starts with a key of its own; sealed webhook secrets
      // from before cannot be read and those webhooks must be registered again.
      return null;
    }
  }
  const serviceKeyFile = join(serviceDataDir, 'secret.key');
  const key = existsSync(serviceKeyFile)
    ? readFileSync(serviceKeyFile, 'utf8').trim()
    : randomBytes(32).toString('hex');
  writePrivateFile(path, safeStorage.encryptString(key));
  rmSync(serviceKeyFile, { force: true });
  return key;
}
