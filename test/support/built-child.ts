/**
 * Test programs that run as child processes (service-child.ts, sync-child.ts, …), bundled with
 * esbuild on first use in each test process, and run by plain Node. Run through tsx instead, a
 * child spent about 3 s of CPU on tsx's hooks before its first line (every module it loads passes
 * through them); the reliability tests start dozens.
 *
 * The bundle holds our sources only: packages are loaded from node_modules as the app's build
 * loads them, so it is written inside the checkout (.tmp/test-children), two folders below the
 * root like out/main's bundles. The workers it starts are the built ones
 * (src/native/worker-entry.ts): beside a bundle, no worker source is found.
 */
import { buildSync } from 'esbuild';
import { mkdirSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BUILT_WORKERS_ENV } from '../../src/native/worker-entry';
import { useFreshBuild } from './build-global-setup';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const bundles = new Map<string, string>();
let folder: string | undefined;

export interface ChildCommand {
  /** Node's arguments before the program's own. */
  args: string[];
  /** The test process's environment, with the built workers' folder. */
  env: NodeJS.ProcessEnv;
}

/**
 * How to run `entry` (a TypeScript program) with plain Node: its bundle, built once per test
 * process, and the built workers, built first where the test setup has not (Playwright).
 */
export async function childCommand(entry: URL): Promise<ChildCommand> {
  if (!process.env[BUILT_WORKERS_ENV]) await useFreshBuild();
  return { args: ['--enable-source-maps', bundle(entry)], env: { ...process.env } };
}

function bundle(entry: URL): string {
  const source = fileURLToPath(entry);
  const done = bundles.get(source);
  if (done) return done;
  if (!folder) {
    // One folder per test process: processes running at once never write each other's files.
    const own = join(ROOT, '.tmp', 'test-children', String(process.pid));
    mkdirSync(own, { recursive: true });
    process.once('exit', () => rmSync(own, { recursive: true, force: true }));
    folder = own;
  }
  const outfile = join(folder, basename(source).replace(/\.ts$/, '.mjs'));
  buildSync({
    entryPoints: [source],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    sourcemap: 'inline',
    logLevel: 'error',
  });
  bundles.set(source, outfile);
  return outfile;
}
