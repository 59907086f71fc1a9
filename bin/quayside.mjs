#!/usr/bin/env node
// Runs the `quayside` command from source: tsx compiles the TypeScript on the fly.
import { register } from 'tsx/esm/api';

register();
const { runCli } = await import('../src/cli/index.ts');
await runCli();
