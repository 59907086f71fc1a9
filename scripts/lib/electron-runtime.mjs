// What the Electron packaging scripts share: the Electron version and ABI this checkout builds
// for, where its SQLite addon lives, and whether the Electron downloads are reachable.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { electronReleaseUrlFor } from './electron-download.mjs';
import { root } from './setup.mjs';

const require = createRequire(join(root, 'package.json'));

/**
 * The Electron version this checkout builds for. Read when asked, never at import: `npm start` on
 * a fresh clone imports this file before its dependencies are installed.
 */
export function electronVersion() {
  return require('electron/package.json').version;
}

/** Electron's NODE_MODULE_VERSION, from @electron/rebuild's own node-abi table. */
export function electronAbi() {
  const rebuildRequire = createRequire(import.meta.resolve('@electron/rebuild'));
  return String(rebuildRequire('node-abi').getAbi(electronVersion(), 'electron'));
}

/** Mirrors src/native/sqlite-binding.ts: native/electron-abi<N>/better_sqlite3.node. */
export function electronAddonFile(abi = electronAbi()) {
  return join(root, 'native', `electron-abi${abi}`, 'better_sqlite3.node');
}

/** The release archive electron-builder downloads for this checkout's Electron. */
export function electronReleaseUrl(platform = process.platform, arch = process.arch) {
  return electronReleaseUrlFor(electronVersion(), platform, arch);
}
