// `npm start [-- --browser] [--no-open] [--data-dir DIR] [--port N] [--check]`
// Installs and builds when needed, then opens the Electron window, or serves browser mode where
// Electron's runtime (or a display) is missing or --browser is given.
// --check starts browser mode on a throwaway data folder (unless --data-dir is given), loads the
// page it serves as a browser would, and exits 0 once it has (non-zero with the reason if not):
// the newcomer's `npm start`, proven without a person watching.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { electronAddonFile } from './lib/electron-runtime.mjs';
import { checkServedPage } from './lib/served-page.mjs';
import { ensureBuild, ensureDependencies, findElectron, root, run } from './lib/setup.mjs';

const check = process.argv.includes('--check');
const args = process.argv.slice(2).filter((arg) => arg !== '--check');
await ensureDependencies();
ensureBuild();

/** Electron loads its own build of the SQLite driver: build it once, else say why not. */
function electronSqliteReady() {
  if (existsSync(electronAddonFile())) return true;
  console.error('Building the SQLite driver for Electron (once)…');
  return run(process.execPath, [join(root, 'scripts', 'rebuild-electron.mjs')]) === 0;
}

let scratchDataDir = null;
if (check) {
  for (const flag of ['--browser', '--no-open']) if (!args.includes(flag)) args.push(flag);
  if (!args.includes('--data-dir')) {
    scratchDataDir = mkdtempSync(join(tmpdir(), 'quayside-check-'));
    args.push('--data-dir', scratchDataDir);
  }
}

const electron = findElectron();
const headless =
  process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY;
let command;
let commandArgs;
if (!args.includes('--browser') && electron.path && !headless && !electronSqliteReady()) {
  electron.path = null;
  electron.reason = 'the SQLite driver could not be built for Electron (npm run rebuild:electron)';
}
if (!args.includes('--browser') && electron.path && !headless) {
  command = electron.path;
  commandArgs = [root, ...args];
} else {
  if (!args.includes('--browser')) {
    console.error(
      `Starting in browser mode: ${electron.path ? 'no display is available' : electron.reason}.`,
    );
  }
  command = process.execPath;
  commandArgs = [join(root, 'out', 'main', 'browser.js'), ...args];
}

const child = spawn(command, commandArgs, {
  cwd: root,
  stdio: check ? ['ignore', 'pipe', 'inherit'] : 'inherit',
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
const exited = new Promise((resolve) =>
  child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0))),
);
if (!check) {
  process.exit(await exited);
} else {
  const outcome = await checkServedPage(child, exited);
  child.kill('SIGTERM');
  await exited;
  if (scratchDataDir) rmSync(scratchDataDir, { recursive: true, force: true });
  if (outcome.ok) console.log(`Check passed: ${outcome.detail}`);
  else console.error(`Check failed: ${outcome.detail}`);
  process.exit(outcome.ok ? 0 : 1);
}
