/**
 * The `quayside` command. Each subcommand lives in its own module under commands/ and is
 * registered here by name; `quayside <command> --help` prints its usage.
 */
import { feedsCheckCommand } from './commands/feeds';
import { keysCommand } from './commands/keys';
import { mcpCommand } from './commands/mcp';
import { openCommand } from './commands/open';
import { serveCommand } from './commands/serve';
import { simListCommand } from './commands/sim';
import { exportCommand, syncCommand } from './commands/sync';

export interface CliCommand {
  /** e.g. `serve`, or `keys create` for a nested command. */
  name: string;
  usage: string;
  run(args: string[]): Promise<number>;
}

export const COMMANDS: CliCommand[] = [
  serveCommand,
  keysCommand,
  simListCommand,
  syncCommand,
  exportCommand,
  feedsCheckCommand,
  mcpCommand,
  openCommand,
];

function usage(): string {
  return [
    'Usage: quayside <command> [options]',
    '',
    'Commands:',
    ...COMMANDS.map((c) => `  ${c.usage}`),
  ].join('\n');
}

export async function main(argv: string[]): Promise<number> {
  // Longest name first so `keys create` wins over a hypothetical `keys`.
  const sorted = [...COMMANDS].sort((a, b) => b.name.split(' ').length - a.name.split(' ').length);
  for (const command of sorted) {
    const words = command.name.split(' ');
    if (words.every((w, i) => argv[i] === w)) {
      const rest = argv.slice(words.length);
      if (rest.includes('--help') || rest.includes('-h')) {
        console.log(`Usage: quayside ${command.usage}`);
        return 0;
      }
      return command.run(rest);
    }
  }
  if (argv.length === 0 || argv[0] === '--help' || argv[0] === '-h') {
    console.log(usage());
    return argv.length === 0 ? 1 : 0;
  }
  console.error(`Unknown command: ${argv.join(' ')}\n\n${usage()}`);
  return 1;
}

/** Runs the CLI and sets the exit code; long-running commands keep the process alive. */
export async function runCli(argv: string[] = process.argv.slice(2)): Promise<void> {
  try {
    const code = await main(argv);
    if (code !== 0) process.exitCode = code;
  } catch (err) {
    console.error(err instanceof Error ? err.message : String(err));
    process.exitCode = 1;
  }
}
