/**
 * The "start at login" setting. Windows and macOS register the app with the OS login items
 * (Electron's setLoginItemSettings); Linux desktops read XDG autostart entries instead, so there
 * the setting writes or removes ~/.config/autostart/quayside.desktop.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface LoginItems {
  setLoginItemSettings(settings: { openAtLogin: boolean; args?: string[] }): void;
}

export interface StartAtLoginOptions {
  platform: NodeJS.Platform;
  loginItems: LoginItems;
  /** The executable to start (an AppImage sets APPIMAGE to its own path). */
  executable: string;
  /** XDG autostart folder, `$XDG_CONFIG_HOME/autostart` by default. */
  autostartDir: string;
}

export const AUTOSTART_FILE = 'quayside.desktop';

/** Desktop Entry values: quote the path so spaces survive, escape what the spec reserves. */
function execValue(executable: string): string {
  return `"${executable.replace(/(["`$\\])/g, '\\$1')}"`;
}

export function autostartEntry(executable: string): string {
  return [
    '[Desktop Entry]',
    'Type=Application',
    'Name=Quayside',
    'Comment=Container tracking',
    `Exec=${execValue(executable)}`,
    'X-GNOME-Autostart-enabled=true',
    'Terminal=false',
    '',
  ].join('\n');
}

export function applyStartAtLogin(enabled: boolean, options: StartAtLoginOptions): void {
  if (options.platform !== 'linux') {
    options.loginItems.setLoginItemSettings({ openAtLogin: enabled });
    return;
  }
  const file = join(options.autostartDir, AUTOSTART_FILE);
  if (!enabled) {
    rmSync(file, { force: true });
    return;
  }
  const entry = autostartEntry(options.executable);
  if (existsSync(file) && readFileSync(file, 'utf8') === entry) return;
  mkdirSync(options.autostartDir, { recursive: true });
  writeFileSync(file, entry);
}
