/**
 * The transport-independent heart of the main process: settings, sync status and the bridge
 * handlers. The Electron shell and the browser-mode shell each build one AppCore and expose its
 * dispatcher over their own transport.
 */
import { applySettingsPatch, type Settings } from '../../shared/settings';
import type { AppInfo, SyncStatus } from '../../shared/bridge';
import { createBridgeDispatcher, type BridgeDispatcher } from '../bridge/dispatcher';
import type { SettingsStore } from '../settings/settings-store';
import { BridgeEventBus } from './event-bus';

export interface AppCoreOptions {
  appInfo: AppInfo;
  settingsStore: SettingsStore;
  log?: (message: string, error?: unknown) => void;
}

export class AppCore {
  readonly events = new BridgeEventBus();
  readonly dispatch: BridgeDispatcher;
  private syncStatus: SyncStatus = {
    state: 'idle',
    progress: null,
    message: null,
    lastSuccessAt: null,
  };

  constructor(private readonly options: AppCoreOptions) {
    const log = options.log ?? ((message, error) => console.error(message, error));
    this.dispatch = createBridgeDispatcher(
      {
        getAppInfo: () => this.options.appInfo,
        getSettings: () => this.options.settingsStore.read(),
        updateSettings: (patch) => this.updateSettings(patch),
        getSyncStatus: () => this.syncStatus,
      },
      (method, error) => log(`bridge method ${method} failed`, error),
    );
  }

  private updateSettings(patch: Parameters<typeof applySettingsPatch>[1]): Settings {
    const next = applySettingsPatch(this.options.settingsStore.read(), patch);
    this.options.settingsStore.write(next);
    this.events.emit('settingsChanged', next);
    return next;
  }

  /** The sync engine reports progress here; every renderer is told. */
  setSyncStatus(status: SyncStatus): void {
    this.syncStatus = status;
    this.events.emit('syncStatus', status);
  }

  getSyncStatus(): SyncStatus {
    return this.syncStatus;
  }
}
