import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppCore } from '../../../src/main/core/app-core';
import { FileSecretStore } from '../../../src/main/core/secret-store';
import { JsonFileSettingsStore } from '../../../src/main/settings/json-file-settings-store';

describe('desktop settings through the bridge', () => {
  let dir: string;
  let core: AppCore;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'quayside-desktop-settings-'));
    core = new AppCore({
      appInfo: {
        name: 'Quayside',
        version: '0',
        shell: 'electron',
        platform: 'linux',
        dataDir: dir,
      },
      settingsStore: new JsonFileSettingsStore(dir),
      secretStore: new FileSecretStore(dir),
    });
  });
  afterEach(async () => {
    await core.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('starts with start at login off and no update checks', async () => {
    expect(await core.dispatch('getSettings', null)).toMatchObject({
      ok: true,
      result: { desktop: { startAtLogin: false, updateUrl: '' } },
    });
  });

  it('keeps an update url and the start at login choice across restarts', async () => {
    const reply = await core.dispatch('updateSettings', {
      desktop: { startAtLogin: true, updateUrl: 'https://updates.example.com/quayside/' },
    });
    expect(reply).toMatchObject({ ok: true });
    expect(new JsonFileSettingsStore(dir).read().desktop).toEqual({
      startAtLogin: true,
      updateUrl: 'https://updates.example.com/quayside/',
    });
  });

  it('refuses an update url that is not http(s), leaving the settings as they were', async () => {
    for (const updateUrl of ['ftp://updates.example.com/', 'not a url', 'file:///etc/']) {
      const reply = await core.dispatch('updateSettings', { desktop: { updateUrl } });
      expect(reply, updateUrl).toMatchObject({ ok: false, error: { code: 'invalid_argument' } });
    }
    expect(new JsonFileSettingsStore(dir).read().desktop.updateUrl).toBe('');
  });
});
