import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  applyStartAtLogin,
  AUTOSTART_FILE,
  autostartEntry,
} from '../../../src/main/desktop/start-at-login';
import { DEFAULT_SETTINGS } from '../../../src/shared/settings';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function setup(platform: NodeJS.Platform) {
  const autostartDir = join(mkdtempSync(join(tmpdir(), 'quayside-login-')), 'autostart');
  dirs.push(join(autostartDir, '..'));
  const registered: boolean[] = [];
  const options = {
    platform,
    autostartDir,
    executable: '/opt/Quayside App/quayside',
    loginItems: {
      setLoginItemSettings: ({ openAtLogin }: { openAtLogin: boolean }) =>
        registered.push(openAtLogin),
    },
  };
  return { options, registered, file: join(autostartDir, AUTOSTART_FILE) };
}

describe('start at login', () => {
  it('is off by default', () => {
    expect(DEFAULT_SETTINGS.desktop.startAtLogin).toBe(false);
  });

  it('registers and unregisters a login item on Windows and macOS', () => {
    for (const platform of ['win32', 'darwin'] as const) {
      const { options, registered } = setup(platform);
      applyStartAtLogin(true, options);
      applyStartAtLogin(false, options);
      expect(registered).toEqual([true, false]);
    }
  });

  it('writes and removes an XDG autostart entry on Linux', () => {
    const { options, registered, file } = setup('linux');
    applyStartAtLogin(true, options);
    expect(readFileSync(file, 'utf8')).toContain('Exec="/opt/Quayside App/quayside"');
    applyStartAtLogin(false, options);
    expect(existsSync(file)).toBe(false);
    expect(registered).toEqual([]);
    applyStartAtLogin(false, options);
  });

  it('escapes the characters the desktop entry format reserves', () => {
    expect(autostartEntry('/home/a"b/$x')).toContain('Exec="/home/a\\"b/\\$x"');
  });
});
