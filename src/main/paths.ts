import { homedir } from 'node:os';
import { join } from 'node:path';

export const PRODUCT_NAME = 'Quayside';

/**
 * The OS user-data folder for Quayside, the same folder Electron's `app.getPath('userData')`
 * gives for this product name, so both shells share one data folder by default.
 */
export function defaultDataDir(
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env,
): string {
  if (platform === 'win32')
    return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), PRODUCT_NAME);
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', PRODUCT_NAME);
  return join(env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), PRODUCT_NAME);
}
