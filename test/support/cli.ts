/** Runs the real `quayside` command (bin/quayside.mjs) as a child process. */
import { execFile, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const BIN = fileURLToPath(new URL('../../bin/quayside.mjs', import.meta.url));

/** Runs a command to completion; resolves with its exit code and output. */
export function runCli(
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      { env: { ...process.env, ...env }, timeout: 60_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

export interface ServingCli {
  baseUrl: string;
  /** Everything printed so far. */
  output(): string;
  /** SIGTERM; resolves with the exit code. */
  stop(): Promise<number | null>;
  /** SIGKILL, as a crash would; resolves once the process is gone. */
  kill(): Promise<void>;
  /** Resolves with the first match of `pattern` in the output (waits up to 30 s for it). */
  waitFor(pattern: RegExp): Promise<RegExpExecArray>;
}

/**
 * Starts `quayside serve ...` and resolves once it prints the address it listens on; `bin` and
 * `cwd` run another copy of the command (an installed package) from another folder.
 */
export function serveCli(
  args: string[],
  env: NodeJS.ProcessEnv = {},
  { bin = BIN, cwd }: { bin?: string; cwd?: string } = {},
): Promise<ServingCli> {
  const child = spawn(process.execPath, [bin, 'serve', '--port', '0', ...args], {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`serve did not start within 60 s:\n${output}`));
    }, 60_000);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited (${code}) before listening:\n${output}`));
    });
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(output);
      // With --sim the key line follows the address: wait for it too.
      if (!match || (args.includes('--sim') && !/API key: .*\n/.test(output))) return;
      clearTimeout(timer);
      resolve({
        baseUrl: match[1]!,
        output: () => output,
        async stop() {
          child.kill('SIGTERM');
          return exited;
        },
        async kill() {
          child.kill('SIGKILL');
          await exited;
        },
        async waitFor(pattern) {
          for (let waited = 0; waited < 30_000; waited += 50) {
            const match = pattern.exec(output);
            if (match) return match;
            await new Promise((r) => setTimeout(r, 50));
          }
          throw new Error(`no ${pattern} in the output:\n${output}`);
        },
      });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  });
}
