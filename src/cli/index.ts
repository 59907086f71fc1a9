/**
 * The `quayside` command. Each subcommand lives in its own module under commands/ and is listed
 * here by name and usage; its module is imported only when it runs. `quayside <command> --help`
 * prints its usage.
 */
import type { CliCommand } from './command';

export type { CliCommand } from './command';

export const COMMANDS: CliCommand[] = [
  {
    name: 'serve',
    usage:
      'serve [--port N] [--host H] [--data-dir DIR] [--sim [--sim-speed N] [--seed N]] [--feeds FILE] [--allow-private-webhooks] [--smtp-port N [--mail-domain D]] ' +
      '[--database postgres://… [--db-pool-size N] [--db-statement-timeout-ms MS] [--db-read-staleness-ms MS]]',
    load: async () => (await import('./commands/serve')).serveCommand,
  },
  {
    name: 'keys create',
    usage: 'keys create [--data-dir DIR | --database postgres://…] [--account NAME] [--routing]',
    load: async () => (await import('./commands/keys')).keysCommand,
  },
  {
    name: 'sim list',
    usage: 'sim list [--seed N]',
    load: async () => (await import('./commands/sim')).simListCommand,
  },
  {
    name: 'sync',
    usage: 'sync --base-url URL --api-key KEY --data-dir DIR [--watch] [--interval MINUTES]',
    load: async () => (await import('./commands/sync')).syncCommand,
  },
  {
    name: 'export containers',
    usage: 'export containers --data-dir DIR [--format csv]',
    load: async () => (await import('./commands/sync')).exportCommand,
  },
  {
    name: 'feeds check',
    usage: 'feeds check [--feeds FILE] [--data-dir DIR]',
    load: async () => (await import('./commands/feeds')).feedsCheckCommand,
  },
  {
    name: 'mcp',
    usage: "mcp [--data-dir DIR]   (assistant tools over stdio from the app's cache; read-only)",
    load: async () => (await import('./commands/mcp')).mcpCommand,
  },
  {
    name: 'open',
    usage: 'open <container, B/L, booking or reference number> [--print]',
    load: async () => (await import('./commands/open')).openCommand,
  },
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
      return (await command.load()).run(rest);
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
