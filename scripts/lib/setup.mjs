// Shared by `npm start` and `npm test`: install dependencies when missing or stale, and build
// when the sources changed since the last build. Tool output goes to stderr so that stdout
// carries only what the app itself prints (e.g. "Quayside is running at <url>").
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

export function run(command, args, options = {}) {
  const result = spawnSync(command, args, {
    cwd: root,
    stdio: ['ignore', process.stderr, process.stderr],
    ...options,
    env: { ...process.env, ...options.env },
  });
  return result.status ?? 1;
}

const mtime = (path) => (existsSync(path) ? statSync(path).mtimeMs : 0);

function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const stats = statSync(path);
  if (!stats.isDirectory()) return stats.mtimeMs;
  let newest = stats.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

/**
 * `npm ci` when node_modules is missing or older than the lock file. Electron's postinstall
 * downloads its runtime from outside the npm registry; where that is unreachable the install is
 * retried without the runtime, and the app runs in browser mode.
 */
export function ensureDependencies() {
  const marker = join(root, 'node_modules', '.package-lock.json');
  if (mtime(marker) >= mtime(join(root, 'package-lock.json'))) return;
  console.error(
    'Installing dependencies (first run; better-sqlite3 may compile for a few minutes)…',
  );
  const args = ['ci', '--no-audit', '--no-fund'];
  if (process.env.ELECTRON_SKIP_BINARY_DOWNLOAD !== '1' && run(npm, args) === 0) return;
  console.error('Installing without the Electron runtime (it could not be downloaded here)…');
  if (run(npm, args, { env: { ELECTRON_SKIP_BINARY_DOWNLOAD: '1' } }) !== 0) {
    console.error('npm ci failed; see the output above.');
    process.exit(1);
  }
}

const BUILD_INPUTS = [
  'src',
  'resources',
  'electron.vite.config.ts',
  'package.json',
  'tsconfig.web.json',
];

/** Builds main, preload and renderer with electron-vite when any input is newer than the build. */
export function ensureBuild({ force = false } = {}) {
  const stamp = join(root, 'out', '.build-stamp');
  const newestInput = Math.max(...BUILD_INPUTS.map((input) => newestMtime(join(root, input))));
  if (!force && mtime(stamp) >= newestInput) return;
  console.error('Building Quayside…');
  if (
    run(process.execPath, [
      join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'),
      'build',
    ]) !== 0
  ) {
    console.error('The build failed; see the output above.');
    process.exit(1);
  }
  writeFileSync(stamp, new Date().toISOString());
}

/** The Electron runtime's path, or null with the reason where it is not installed. */
export function findElectron() {
  try {
    const electronPath = createRequire(join(root, 'package.json'))('electron');
    if (typeof electronPath === 'string' && existsSync(electronPath)) return { path: electronPath };
    return { path: null, reason: 'the Electron runtime is not installed' };
  } catch {
    return { path: null, reason: 'the Electron runtime is not installed' };
  }
}
