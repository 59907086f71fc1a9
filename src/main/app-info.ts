import packageJson from '../../package.json';
import type { AppInfo } from '../shared/bridge';
import { PRODUCT_NAME } from './paths';

export function makeAppInfo(shell: AppInfo['shell'], dataDir: string): AppInfo {
  return {
    name: PRODUCT_NAME,
    version: packageJson.version,
    shell,
    platform: process.platform,
    dataDir,
  };
}
