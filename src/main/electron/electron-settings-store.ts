import Store from 'electron-store';
import type { Settings } from '../../shared/settings';
import { readSettingsDocument } from '../settings/json-file-settings-store';
import type { SettingsStore } from '../settings/settings-store';

/** Electron settings through electron-store, validated with the same schema as browser mode. */
export class ElectronSettingsStore implements SettingsStore {
  private readonly store = new Store<Record<string, unknown>>({
    name: 'settings',
    clearInvalidConfig: true,
  });

  read(): Settings {
    return readSettingsDocument(this.store.store);
  }

  write(settings: Settings): void {
    this.store.store = settings;
  }
}
