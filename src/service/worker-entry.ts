/**
 * Where a worker's entry file is. The built app bundles each worker as its own file in out/main
 * (see electron.vite.config.ts), next to the service's bundle or one folder above its chunks;
 * from source (the CLI, tests, benches) the worker is the TypeScript module beside the caller,
 * run through tsx.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export interface WorkerEntry {
  built: boolean;
  file: URL;
}

/** `name` as built (`<name>.js`) if the caller runs from the build, else its source module. */
export function workerEntry(name: string, callerUrl: string): WorkerEntry {
  for (const candidate of [`./${name}.js`, `../${name}.js`]) {
    const built = new URL(candidate, callerUrl);
    if (existsSync(fileURLToPath(built))) return { built: true, file: built };
  }
  return { built: false, file: new URL(`./${name}.ts`, callerUrl) };
}
