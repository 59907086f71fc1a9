/**
 * Which compiled better-sqlite3 addon the current runtime loads.
 *
 * `npm install` builds better-sqlite3 for Node's ABI, which tests, the CLI and browser mode use.
 * Electron's main process and its utility processes have another ABI and refuse that build
 * (NODE_MODULE_VERSION mismatch), so Electron gets its own copy, built by
 * `npm run rebuild:electron` into `native/electron-abi<N>/` and unpacked from the asar archive in
 * the installers. Every place that opens a better-sqlite3 Database passes `sqliteOptions()`.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { APP_ROOT } from './app-root';

export const REBUILD_COMMAND = 'npm run rebuild:electron';
export const ADDON_FILE = 'better_sqlite3.node';

export interface RuntimeVersions {
  /** Set only inside Electron. */
  electron?: string;
  /** The runtime's native module ABI (NODE_MODULE_VERSION). */
  modules: string;
}

/** The folder holding the Electron build of the addon for one Electron ABI. */
export function electronAddonDir(appRoot: string, modules: string): string {
  return join(appRoot, 'native', `electron-abi${modules}`);
}

export class MissingElectronSqliteError extends Error {
  constructor(electronVersion: string, expectedFile: string) {
    super(
      `The SQLite module for Electron ${electronVersion} is not built (looked for ${expectedFile}). ` +
        `Run \`${REBUILD_COMMAND}\` once, then start Quayside again.`,
    );
    this.name = 'MissingElectronSqliteError';
  }
}

/**
 * The path of the addon the runtime needs, or undefined for better-sqlite3's own (Node) build.
 * Throws MissingElectronSqliteError under Electron when its build is absent.
 */
export function sqliteBindingPath(
  versions: RuntimeVersions = process.versions,
  appRoot: string = APP_ROOT,
): string | undefined {
  if (!versions.electron) return undefined;
  // Native addons cannot load from inside app.asar: electron-builder unpacks them next to it.
  const root = appRoot.replace(/app\.asar(?=$|[\\/])/, 'app.asar.unpacked');
  const file = join(electronAddonDir(root, versions.modules), ADDON_FILE);
  if (!existsSync(file)) throw new MissingElectronSqliteError(versions.electron, file);
  return file;
}

/** Options for `new Database(file, options)` that load the addon built for this runtime. */
export function sqliteOptions(
  versions: RuntimeVersions = process.versions,
  appRoot: string = APP_ROOT,
): { nativeBinding?: string } {
  const nativeBinding = sqliteBindingPath(versions, appRoot);
  return nativeBinding === undefined ? {} : { nativeBinding };
}
