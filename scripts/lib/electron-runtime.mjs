// What the Electron packaging scripts share: the Electron version and ABI this checkout builds
// for, where its SQLite addon lives, and whether the Electron downloads are reachable.
import { createRequire } from 'node:module';
import { join } from 'node:path';
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

/** The release archive electron-builder downloads (ELECTRON_MIRROR is honoured, as @electron/get does). */
export function electronReleaseUrl(platform = process.platform, arch = process.arch) {
  const mirror =
    process.env.ELECTRON_MIRROR ?? 'https://github.com/electron/electron/releases/download/';
  const base = mirror.endsWith('/') ? mirror : `${mirror}/`;
  const version = electronVersion();
  return `${base}v${version}/electron-v${version}-${platform}-${arch}.zip`;
}

/** Resolves to null when `url` answers, else to a short reason (status or network error). */
export async function unreachableReason(url, timeoutMs = 15_000) {
  try {
    const response = await fetch(url, { method: 'HEAD', signal: AbortSignal.timeout(timeoutMs) });
    return response.ok ? null : `HTTP ${response.status}`;
  } catch (error) {
    const cause = error?.cause?.code ?? error?.cause?.message ?? error?.message ?? String(error);
    return String(cause);
  }
}
