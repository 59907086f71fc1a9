import type { Settings } from '../../shared/settings';

/** Where the app keeps its settings: electron-store in Electron, a JSON file in browser mode. */
export interface SettingsStore {
  read(): Settings;
  write(settings: Settings): void;
}
