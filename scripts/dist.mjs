// `npm run dist`: the installers for the current platform (Linux AppImage + deb, Windows NSIS,
// macOS dmg) in dist/. Needs the Electron runtime download; where it is unreachable, stops with
// one line saying so instead of a long electron-builder stack.
import { join } from 'node:path';
import { root, run } from './lib/setup.mjs';
import { unreachableReason } from './lib/electron-download.mjs';
import { electronReleaseUrl, electronVersion } from './lib/electron-runtime.mjs';

const bin = (name) =>
  join(root, 'node_modules', '.bin', process.platform === 'win32' ? `${name}.cmd` : name);

function stop(line) {
  console.error(line);
  process.exit(1);
}

const runtimeUrl = electronReleaseUrl();
const reason = await unreachableReason(runtimeUrl);
if (reason !== null) {
  stop(
    `npm run dist stopped: the Electron ${electronVersion()} runtime cannot be downloaded from ${runtimeUrl} (${reason}); build the installers on a machine that reaches it, or set ELECTRON_MIRROR.`,
  );
}
if (run(bin('electron-vite'), ['build']) !== 0)
  stop('npm run dist stopped: the build failed (see above).');
if (run(process.execPath, [join(root, 'scripts', 'rebuild-electron.mjs')]) !== 0) {
  stop('npm run dist stopped: better-sqlite3 could not be built for Electron (see above).');
}
const builderArgs = [
  '--config',
  'electron-builder.yml',
  '--publish',
  'never',
  ...process.argv.slice(2),
];
if (run(bin('electron-builder'), builderArgs) !== 0)
  stop('npm run dist stopped: electron-builder failed (see above).');
console.error(`Installers written to ${join(root, 'dist')}.`);
