// `npm start [-- --browser] [--no-open] [--data-dir DIR] [--port N]`
// Installs and builds when needed, then opens the Electron window, or serves browser mode where
// Electron's runtime (or a display) is missing or --browser is given.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { electronAddonFile } from './lib/electron-runtime.mjs';
import { ensureBuild, ensureDependencies, findElectron, root, run } from './lib/setup.mjs';

const args = process.argv.slice(2);
ensureDependencies();
ensureBuild();

/** Electron loads its own build of the SQLite driver: build it once, else say why not. */
function electronSqliteReady() {
  if (existsSync(electronAddonFile())) return true;
  console.error('Building the SQLite driver for Electron (once)…');
  return run(process.execPath, [join(root, 'scripts', 'rebuild-electron.mjs')]) === 0;
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

const child = spawn(command, commandArgs, { cwd: root, stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
