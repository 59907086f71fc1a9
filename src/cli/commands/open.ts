import { spawn } from 'node:child_process';
import { parseArgs } from 'node:util';
import { findLink, MAX_IDENTIFIER_LENGTH, normaliseIdentifier } from '../../shared/find-link';
import type { CommandCode } from '../command';

/** The platform's own way to open a link with its registered app. */
const OPENERS: Partial<Record<NodeJS.Platform, [string, string[]]>> = {
  darwin: ['open', []],
  win32: ['cmd', ['/c', 'start', '""']],
};

/** `quayside open <identifier>`: opens the app on a container or shipment, as a find link does. */
export const openCommand: CommandCode = {
  async run(args) {
    const { values, positionals } = parseArgs({
      args,
      options: { print: { type: 'boolean', default: false } },
      allowPositionals: true,
      strict: true,
    });
    const identifier = positionals.join(' ').trim();
    if (!normaliseIdentifier(identifier) || identifier.length > MAX_IDENTIFIER_LENGTH) {
      console.error(
        `open needs a container, B/L, booking or reference number (at most ${MAX_IDENTIFIER_LENGTH} characters)`,
      );
      return 2;
    }
    const link = findLink(identifier);
    console.log(link);
    if (values.print) return 0;
    const [command, before] = OPENERS[process.platform] ?? ['xdg-open', []];
    const child = spawn(command, [...before, link], { detached: true, stdio: 'ignore' });
    return new Promise<number>((resolve) => {
      child.once('error', (error) => {
        console.error(`Could not open ${link}: ${error.message}`);
        resolve(1);
      });
      child.once('spawn', () => {
        child.unref();
        resolve(0);
      });
    });
  },
};
