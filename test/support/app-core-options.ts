/** What every AppCore under test is built with: browser-mode app info and file stores in `dir`. */
import { AppCore, type AppCoreOptions } from '../../src/main/core/app-core';
import { FileSecretStore } from '../../src/main/core/secret-store';
import { JsonFileSettingsStore } from '../../src/main/settings/json-file-settings-store';
import type { RunningService } from '../../src/service';
import { ScaledClock } from '../../src/shared/clock';

export function appCoreOptions(
  dir: string,
): Pick<AppCoreOptions, 'appInfo' | 'settingsStore' | 'secretStore'> {
  return {
    appInfo: { name: 'Quayside', version: '0', shell: 'browser', platform: 'linux', dataDir: dir },
    settingsStore: new JsonFileSettingsStore(dir),
    secretStore: new FileSecretStore(dir),
  };
}

/**
 * A desktop under test whose built-in service is `service` (a real one on 127.0.0.1), on real
 * time; the files it opens are listed in `opened` instead of shown.
 */
export function desktopOn(
  service: RunningService,
  dir: string,
  { opened = [], ...options }: { opened?: string[] } & Partial<AppCoreOptions> = {},
): AppCore {
  return new AppCore({
    ...appCoreOptions(dir),
    embedded: { connection: () => ({ baseUrl: service.baseUrl, apiKey: service.initialKey! }) },
    clock: new ScaledClock(),
    openFile: async (path) => {
      opened.push(path);
      return '';
    },
    ...options,
  });
}
