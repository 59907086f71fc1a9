/**
 * What the bridge handlers work with. AppCore builds one; each domain's handler file takes it and
 * returns its slice of the bridge, and AppCore registers the union through the one dispatcher.
 */
import type { AppClock, AppInfo, CacheInfo, SyncStatus } from '../../../shared/bridge';
import type { Clock } from '../../../shared/clock';
import type { Settings, SettingsPatch } from '../../../shared/settings';
import type { BridgeHandlers } from '../../bridge/dispatcher';
import type { DocumentCache } from '../../cache/document-cache';
import type { CacheStore } from '../../cache/interface';
import type { SyncEngine } from '../../sync/engine';
import type { BridgeEventBus } from '../event-bus';
import type { SecretStore } from '../secret-store';
import type { ServiceBudgets, ServiceConnection } from '../../connection/service-connection';

export interface HandlerContext {
  appInfo: AppInfo;
  /** The shown source's cache, clock and sync (another source's after a switch). */
  readonly cache: CacheStore;
  documents: DocumentCache;
  /**
   * Opens a file in the OS viewer (Electron's shell); resolves to an error text, empty when it
   * opened. Absent in browser mode, where the tab is given the file instead.
   */
  openFile?: (path: string) => Promise<string>;
  readonly clock: Clock;
  readonly sync: SyncEngine;
  budgets: ServiceBudgets;
  events: BridgeEventBus;
  secretStore: SecretStore;
  settings(): Settings;
  updateSettings(patch: SettingsPatch): Settings;
  /** The remote key changed: the app shows that account's own data (another source). */
  connectionChanged(): void;
  syncStatus(): SyncStatus;
  /** The app's time, its speed and whether it is the simulated world's. */
  appClock(): AppClock;
  /** Skips the wait before the embedded service's next restart, if one is waiting. */
  retryConnection(): void;
  connection(): ServiceConnection | null;
  cacheInfo(): CacheInfo;
}

/** A domain's handlers: a slice of the bridge. */
export type DomainHandlers<M extends keyof BridgeHandlers> = Pick<BridgeHandlers, M>;

export const nowIso = (ctx: HandlerContext): string => new Date(ctx.clock.now()).toISOString();
