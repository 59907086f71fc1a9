// Shared by `npm start` and `npm test`: install dependencies when missing or stale, and build
// when the sources changed since the last build. Tool output goes to stderr so that stdout
// carries only what the app itself prints (e.g. "Quayside is running at <url>").
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { electronReleaseUrlFor, unreachableReason } from './electron-download.mjs';

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

const lockFileOf = (projectRoot) => join(projectRoot, 'package-lock.json');
const installStampOf = (projectRoot) => join(projectRoot, 'node_modules', '.quayside-lock-sha256');
const lockHash = (projectRoot) =>
  createHash('sha256')
    .update(readFileSync(lockFileOf(projectRoot)))
    .digest('hex');

/**
 * Whether node_modules holds what the lock file asks for, decided by content, never by file times
 * (a copy or a checkout makes times meaningless). After our own install a stamp records the lock
 * file's hash; an install made by plain `npm ci` is checked against npm's hidden lock file
 * instead: every installed package at its locked version, every required package present.
 */
export function dependenciesMatchLock(projectRoot = root) {
  if (!existsSync(join(projectRoot, 'node_modules'))) return false;
  const hash = lockHash(projectRoot);
  const installStamp = installStampOf(projectRoot);
  if (existsSync(installStamp) && readFileSync(installStamp, 'utf8').trim() === hash) return true;
  const hidden = join(projectRoot, 'node_modules', '.package-lock.json');
  if (!existsSync(hidden)) return false;
  const locked = JSON.parse(readFileSync(lockFileOf(projectRoot), 'utf8')).packages ?? {};
  const installed = JSON.parse(readFileSync(hidden, 'utf8')).packages ?? {};
  for (const [path, entry] of Object.entries(installed)) {
    if (locked[path]?.version !== entry.version) return false;
  }
  for (const [path, entry] of Object.entries(locked)) {
    if (path !== '' && !entry.optional && !entry.link && !installed[path]) return false;
  }
  writeFileSync(installStamp, hash);
  return true;
}

/**
 * `npm ci` when node_modules is missing or does not match the lock file. Electron's postinstall
 * downloads its runtime from outside the npm registry: where that address does not answer, the
 * install skips the runtime from the start (one install, not a failed one and a retry) and the
 * app runs in browser mode; where it answers but the install still fails, it is retried without.
 */
export async function ensureDependencies() {
  if (dependenciesMatchLock()) return;
  console.error(
    'Installing dependencies (first run; better-sqlite3 may compile for a few minutes)…',
  );
  const args = ['ci', '--no-audit', '--no-fund'];
  const installed = () => writeFileSync(installStampOf(root), lockHash(root));
  const withoutRuntime = { env: { ELECTRON_SKIP_BINARY_DOWNLOAD: '1' } };
  let skipRuntime = process.env.ELECTRON_SKIP_BINARY_DOWNLOAD === '1';
  if (!skipRuntime) {
    const reason = await unreachableReason(electronReleaseUrlFor(lockedElectronVersion()), 10_000);
    if (reason !== null) {
      console.error(
        `Installing without the Electron runtime: its download does not answer here (${reason}); the app opens in browser mode.`,
      );
      skipRuntime = true;
    }
  }
  if (!skipRuntime && run(npm, args) === 0) return installed();
  if (!skipRuntime) console.error('Installing without the Electron runtime (its download failed)…');
  if (run(npm, args, withoutRuntime) !== 0) {
    console.error('npm ci failed; see the output above.');
    process.exit(1);
  }
  installed();
}

/** The Electron version the lock file pins (readable before anything is installed). */
function lockedElectronVersion() {
  const lock = JSON.parse(readFileSync(lockFileOf(root), 'utf8'));
  return lock.packages?.['node_modules/electron']?.version ?? '0.0.0';
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
