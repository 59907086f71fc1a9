import os from 'node:os';
import path from 'node:path';

/** The OS user-data folder for Quayside (`Quayside/service` inside it holds the service data). */
export function defaultUserDataDir(
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env,
  home: string = os.homedir(),
): string {
  if (platform === 'win32') {
    return path.join(env.APPDATA ?? path.join(home, 'AppData', 'Roaming'), 'Quayside');
  }
  if (platform === 'darwin') return path.join(home, 'Library', 'Application Support', 'Quayside');
  return path.join(env.XDG_CONFIG_HOME || path.join(home, '.config'), 'Quayside');
}

export const defaultServiceDataDir = (): string => path.join(defaultUserDataDir(), 'service');
