/**
 * Where the service's storage is opened: the database (SQLite file or PostgreSQL), its sealed
 * secrets checked and swept, the reference data loaded, and the owners built on it. Callers get
 * owners and a health probe, never the database itself.
 */
import type { Clock } from '../../shared/clock';
import type { SecretBox } from '../security/secret-box';
import { AccountStore } from './accounts';
import { openDatabase, type OpenDatabaseOptions } from './db';
import type { PostgresOptions, StoreKind } from './dialect';
import { databaseHealth, type DatabaseHealth } from './health';
import { ServiceStorage } from './index';
import { loadReferenceData, ReferenceData, type ReferenceRecords } from './reference';
import { assertKeyOpensSealedSecrets, sealPlaintextWebhookSecrets } from './sealed-columns';

export interface OpenedStorage {
  stores: ServiceStorage;
  accounts: AccountStore;
  ref: ReferenceData;
  kind: StoreKind;
  /** Whether the database answers, for `/healthz`. */
  health: () => Promise<DatabaseHealth>;
  close(): Promise<void>;
}

export interface OpenStorageOptions {
  secretBox: SecretBox;
  /** Use this PostgreSQL database instead of the SQLite file in the data folder. */
  postgres?: PostgresOptions;
  onConnectionError?: OpenDatabaseOptions['onConnectionError'];
  /** The reference records to store (loaded on every start; unchanged rows stay). */
  reference: ReferenceRecords;
  clock: Clock;
}

/** Opens the service's storage in `dataDir` (or on PostgreSQL); closes it again if a step fails. */
export async function openServiceStorage(
  dataDir: string,
  options: OpenStorageOptions,
): Promise<OpenedStorage> {
  const opened = await openDatabase(dataDir, {
    secretBox: options.secretBox,
    postgres: options.postgres,
    onConnectionError: options.onConnectionError,
  });
  try {
    await assertKeyOpensSealedSecrets(opened.db, options.secretBox);
    await sealPlaintextWebhookSecrets(opened.db);
    await loadReferenceData(opened.db, options.reference);
    const ref = await ReferenceData.fromDatabase(opened.db);
    return {
      stores: new ServiceStorage(opened.db, ref, options.clock),
      accounts: new AccountStore(opened.db, options.clock),
      ref,
      kind: opened.kind,
      health: databaseHealth(opened.db),
      close: () => opened.close(),
    };
  } catch (err) {
    await opened.close();
    throw err;
  }
}

/** Opens accounts and keys alone: `quayside keys` works beside a running service. */
export async function openAccounts(
  dataDir: string,
  options: { postgres?: PostgresOptions; clock: Clock },
): Promise<{ accounts: AccountStore; close(): Promise<void> }> {
  const opened = await openDatabase(dataDir, { postgres: options.postgres });
  return { accounts: new AccountStore(opened.db, options.clock), close: () => opened.close() };
}
