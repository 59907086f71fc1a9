// `npm run rebuild:electron`: builds better-sqlite3 for this checkout's Electron into
// native/electron-abi<N>/, leaving node_modules' Node build alone for tests, the CLI and browser
// mode. Runs in a scratch copy of the module so a failed build never touches node_modules.
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { root } from './lib/setup.mjs';
import { electronAbi, electronAddonFile, electronVersion } from './lib/electron-runtime.mjs';

const require = createRequire(join(root, 'package.json'));
const { rebuild } = await import('@electron/rebuild');

const abi = electronAbi();
const target = electronAddonFile(abi);
const moduleDir = dirname(require.resolve('better-sqlite3/package.json'));
const scratch = mkdtempSync(join(tmpdir(), 'quayside-electron-sqlite-'));
try {
  const copy = join(scratch, 'node_modules', 'better-sqlite3');
  cpSync(moduleDir, copy, {
    recursive: true,
    filter: (source) => !source.startsWith(join(moduleDir, 'build')),
  });
  const { version } = require('better-sqlite3/package.json');
  writeFileSync(
    join(scratch, 'package.json'),
    JSON.stringify({ name: 'scratch', private: true, dependencies: { 'better-sqlite3': version } }),
  );
  await rebuild({
    buildPath: scratch,
    electronVersion: electronVersion(),
    onlyModules: ['better-sqlite3'],
    force: true,
  });
  const built = join(copy, 'build', 'Release', 'better_sqlite3.node');
  if (!existsSync(built)) throw new Error(`the build left no ${built}`);
  mkdirSync(dirname(target), { recursive: true });
  cpSync(built, target);
  console.error(`better-sqlite3 for Electron ${electronVersion()} (ABI ${abi}): ${target}`);
} catch (error) {
  console.error(
    `Could not build better-sqlite3 for Electron ${electronVersion()}: ${error?.message ?? error} ` +
      '(it needs the Electron headers or a prebuilt binary from the network, or a C++ toolchain).',
  );
  process.exitCode = 1;
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
