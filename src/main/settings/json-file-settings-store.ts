/**
 * Browser-mode settings: the same schema as the Electron store, kept in `settings.json` in the
 * data folder. Writes go to a temporary file renamed over the old one, so a crash mid-write never
 * leaves a torn file. A missing or unreadable file falls back to the defaults (merged member by
 * member, so a file from an older version keeps what it has).
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Value } from 'typebox/value';
import { DEFAULT_SETTINGS, Settings, applySettingsPatch } from '../../shared/settings';
import type { SettingsStore } from './settings-store';

export const SETTINGS_FILE_NAME = 'settings.json';

export function readSettingsDocument(raw: unknown): Settings {
  if (Value.Check(Settings, raw)) return raw;
  if (raw && typeof raw === 'object') {
    // Keep whatever valid members an older or hand-edited file has, default the rest.
    const merged = applySettingsPatch(DEFAULT_SETTINGS, raw as Partial<Settings>);
    if (Value.Check(Settings, merged)) return merged;
  }
  return structuredClone(DEFAULT_SETTINGS);
}

export class JsonFileSettingsStore implements SettingsStore {
  readonly path: string;

  constructor(dataDir: string) {
    this.path = join(dataDir, SETTINGS_FILE_NAME);
  }

  read(): Settings {
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(this.path, 'utf8'));
    } catch {
      raw = undefined;
    }
    return readSettingsDocument(raw);
  }

  write(settings: Settings): void {
    mkdirSync(dirname(this.path), { recursive: true });
    const temporary = `${this.path}.${process.pid}.tmp`;
    writeFileSync(temporary, `${JSON.stringify(settings, null, 2)}\n`, { mode: 0o600 });
    renameSync(temporary, this.path);
  }
}
