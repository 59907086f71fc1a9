/** What every AppCore under test is built with: browser-mode app info and file stores in `dir`. */
import type { AppCoreOptions } from '../../src/main/core/app-core';
import { FileSecretStore } from '../../src/main/core/secret-store';
import { JsonFileSettingsStore } from '../../src/main/settings/json-file-settings-store';

export function appCoreOptions(
  dir: string,
): Pick<AppCoreOptions, 'appInfo' | 'settingsStore' | 'secretStore'> {
  return {
    appInfo: { name: 'Quayside', version: '0', shell: 'browser', platform: 'linux', dataDir: dir },
    settingsStore: new JsonFileSettingsStore(dir),
    secretStore: new FileSecretStore(dir),
  };
}
