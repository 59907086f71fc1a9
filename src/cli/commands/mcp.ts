import { parseArgs } from 'node:util';
import { resolve } from 'node:path';
import { serveMcpOverStdio } from '../../main/mcp/stdio-server';
import { defaultDataDir } from '../../main/paths';
import type { CliCommand } from '../index';

/** `quayside mcp`: assistant tools over stdio, answering offline from the desktop cache. */
export const mcpCommand: CliCommand = {
  name: 'mcp',
  usage: "mcp [--data-dir DIR]   (assistant tools over stdio from the app's cache; read-only)",
  async run(args) {
    const { values } = parseArgs({
      args,
      options: { 'data-dir': { type: 'string' } },
      strict: true,
    });
    return serveMcpOverStdio(resolve(values['data-dir'] ?? defaultDataDir()));
  },
};
