/** What a command module exports: its code, loaded only when that command runs. */
export interface CommandCode {
  run(args: string[]): Promise<number>;
}

/** A command as the `quayside` table lists it (src/cli/index.ts). */
export interface CliCommand {
  /** e.g. `serve`, or `keys create` for a nested command. */
  name: string;
  usage: string;
  /**
   * Imported on demand, so `--help` and each command load only what they use (the service,
   * the simulated world and the desktop cache are large).
   */
  load(): Promise<CommandCode>;
}
