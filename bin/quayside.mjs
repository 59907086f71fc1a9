#!/usr/bin/env node
// The `quayside` command, run from its build (out/main/cli.js): nothing compiles TypeScript at
// start. `npm run build` makes it (npm start, npm test and npm pack build it themselves); in a
// checkout, QUAYSIDE_FROM_SOURCE=1 runs src/cli through tsx instead (a development dependency).
import { existsSync } from 'node:fs';

async function loadCli() {
  if (process.env.QUAYSIDE_FROM_SOURCE === '1') {
    const { register } = await import('tsx/esm/api');
    register();
    return import('../src/cli/index.ts');
  }
  const built = new URL('../out/main/cli.js', import.meta.url);
  if (!existsSync(built)) {
    console.error('Quayside is not built here: run `npm run build` first.');
    process.exit(1);
  }
  return import(built.href);
}

const { runCli } = await loadCli();
await runCli();
