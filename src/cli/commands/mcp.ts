import { parseArgs } from 'node:util';
import { resolve } from 'node:path';
import { serveMcpOverStdio } from '../../main/mcp/stdio-server';
import { defaultDataDir } from '../../main/paths';
import type { CommandCode } from '../command';

/** `quayside mcp`: assistant tools over stdio, answering offline from the desktop cache. */
export const mcpCommand: CommandCode = {
  async run(args) {
    const { values } = parseArgs({
      args,
      options: { 'data-dir': { type: 'string' } },
      strict: true,
    });
    return serveMcpOverStdio(resolve(values['data-dir'] ?? defaultDataDir()));
  },
};
