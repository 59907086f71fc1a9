/**
 * Where a worker's entry is, and how to start it. The built app bundles each worker (threads and
 * the document reader's process) as its own file in out/main (see electron.vite.config.ts), next
 * to its caller's bundle or one folder above the caller's chunk. From source (tests, benches,
 * `QUAYSIDE_FROM_SOURCE=1`) the worker is the TypeScript module beside its caller, run through
 * tsx, whose hooks then see every module the worker loads: about 2.5 s of CPU for each start,
 * where a built worker takes 0.15 s.
 *
 * `QUAYSIDE_BUILT_WORKERS` names a folder of built workers to take instead of the sources: the
 * tests set it to out/main once they have built it from the current sources
 * (test/support/build-global-setup.ts), so code under test starts the same workers the app runs.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

export const BUILT_WORKERS_ENV = 'QUAYSIDE_BUILT_WORKERS';

export interface WorkerEntry {
  built: boolean;
  file: URL;
}

/** `name` as built (`<name>.js`) where a build is found, else its source module. */
export function workerEntry(name: string, callerUrl: string): WorkerEntry {
  const candidates = [new URL(`./${name}.js`, callerUrl), new URL(`../${name}.js`, callerUrl)];
  const builtFolder = process.env[BUILT_WORKERS_ENV];
  if (builtFolder) candidates.push(pathToFileURL(`${builtFolder}/${name}.js`));
  for (const built of candidates) {
    if (existsSync(fileURLToPath(built))) return { built: true, file: built };
  }
  return { built: false, file: new URL(`./${name}.ts`, callerUrl) };
}

/** A thread running the worker `name` found from `callerUrl` (see workerEntry). */
export function startWorkerThread(
  name: string,
  callerUrl: string,
  options: WorkerOptions = {},
): Worker {
  const entry = workerEntry(name, callerUrl);
  if (entry.built) return new Worker(entry.file, options);
  // tsx is registered in the thread before the module is loaded.
  return new Worker(
    `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(entry.file.href)}); })`,
    { ...options, eval: true },
  );
}

/** The Node options a child process running `entry` needs beside its own. */
export function entryExecArgv(entry: WorkerEntry): string[] {
  return entry.built ? [] : ['--import', 'tsx'];
}
