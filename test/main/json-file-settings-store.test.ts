import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JsonFileSettingsStore } from '../../src/main/settings/json-file-settings-store';
import { DEFAULT_SETTINGS } from '../../src/shared/settings';

describe('browser-mode settings file', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'quayside-settings-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('starts from the defaults and persists what is written, readable only by the user', () => {
    const store = new JsonFileSettingsStore(dir);
    expect(store.read()).toEqual(DEFAULT_SETTINGS);
    store.write({ ...DEFAULT_SETTINGS, theme: 'dark', syncIntervalMinutes: 9 });
    expect(new JsonFileSettingsStore(dir).read()).toMatchObject({
      theme: 'dark',
      syncIntervalMinutes: 9,
    });
    expect(statSync(store.path).mode & 0o777).toBe(0o600);
  });

  it('falls back to the defaults for a torn or hand-broken file', () => {
    const store = new JsonFileSettingsStore(dir);
    writeFileSync(store.path, '{"theme": "dark", "syncInt');
    expect(store.read()).toEqual(DEFAULT_SETTINGS);
    writeFileSync(store.path, JSON.stringify({ theme: 'neon' }));
    expect(store.read()).toEqual(DEFAULT_SETTINGS);
  });

  it('keeps valid members of a file from an older version and defaults the rest', () => {
    const store = new JsonFileSettingsStore(dir);
    writeFileSync(store.path, JSON.stringify({ theme: 'light', syncIntervalMinutes: 30 }));
    expect(store.read()).toEqual({ ...DEFAULT_SETTINGS, theme: 'light', syncIntervalMinutes: 30 });
  });

  it('replaces the file whole, leaving no temporary file behind', () => {
    const store = new JsonFileSettingsStore(dir);
    store.write({ ...DEFAULT_SETTINGS, theme: 'dark' });
    store.write({ ...DEFAULT_SETTINGS, theme: 'light' });
    expect(JSON.parse(readFileSync(store.path, 'utf8'))).toMatchObject({ theme: 'light' });
    expect(readdirSync(dir)).toEqual(['settings.json']);
  });
});
