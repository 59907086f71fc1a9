/**
 * Starts service-child.ts as a child process (bundled: test/support/built-child.ts) and lets a
 * test kill it with SIGKILL, drain it or stop it cleanly.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { childCommand } from './built-child';

const CHILD = new URL('./service-child.ts', import.meta.url);

/**
 * The outer limit of a wait on the child (a drain): generous, because a machine busy with other
 * work may take minutes for what an idle one does in seconds; the wait ends when its condition
 * holds, not when this passes.
 */
export const CHILD_PATIENCE_MS = 10 * 60_000;

export interface ChildServiceConfig {
  dataDir: string;
  /** A feeds document (as a feeds.yaml parses), loaded in the child like any service's. */
  feeds: Record<string, unknown>;
  /** The shared simulated clock: origin + (Date.now() - realStart) * speed. */
  origin: number;
  realStart: number;
  speed: number;
  /** A PostgreSQL database shared with other instances, instead of the data dir's SQLite file. */
  databaseUrl?: string;
  /** The sealing key, hex (instances sharing a database must share it too). */
  secretKeyHex?: string;
  /** Real-time leases of jobs and deliveries (short ones let a test see a takeover). */
  leaseMs?: number;
}

export interface ChildService {
  baseUrl: string;
  initialKey?: string;
  pid: number;
  /** Everything the child wrote to stdout and stderr. */
  output(): string;
  /** How the process ended, or null while it runs. */
  exit(): { code: number | null; signal: NodeJS.Signals | null } | null;
  /** SIGKILL; resolves once the process is gone. */
  kill(): Promise<void>;
  /** Stops tracking, waits until every notification is delivered or failed. */
  drain(timeoutMs?: number): Promise<void>;
  /** SIGTERM; resolves with the exit code. */
  stop(): Promise<number | null>;
}

export async function startChildService(config: ChildServiceConfig): Promise<ChildService> {
  const command = await childCommand(CHILD);
  const child: ChildProcess = spawn(process.execPath, [...command.args, JSON.stringify(config)], {
    env: command.env,
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  let output = '';
  child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  let ended: { code: number | null; signal: NodeJS.Signals | null } | null = null;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve((ended = { code, signal }))),
  );

  return new Promise((resolve, reject) => {
    const onExit = ({ code, signal }: { code: number | null; signal: string | null }) =>
      reject(new Error(`service exited before it was ready (${code ?? signal}):\n${output}`));
    void exited.then(onExit);
    child.once('message', (message: { type: string; baseUrl: string; initialKey?: string }) => {
      if (message.type !== 'ready') return;
      resolve({
        baseUrl: message.baseUrl,
        initialKey: message.initialKey,
        pid: child.pid!,
        output: () => output,
        exit: () => ended,
        async kill() {
          child.kill('SIGKILL');
          await exited;
        },
        drain(timeoutMs = CHILD_PATIENCE_MS) {
          return new Promise((done, fail) => {
            // What the service said last: the first thing to read when a drain does not end.
            const said = () => `; its last output:\n${output.slice(-4_000)}`;
            const timer = setTimeout(
              () => fail(new Error(`notifications still pending after ${timeoutMs} ms${said()}`)),
              timeoutMs,
            );
            void exited.then(({ code, signal }) => {
              clearTimeout(timer);
              fail(new Error(`service exited while draining (${code ?? signal})${said()}`));
            });
            child.on('message', (m: { type?: string }) => {
              if (m.type !== 'drained') return;
              clearTimeout(timer);
              done();
            });
            child.send({ type: 'drain' });
          });
        },
        async stop() {
          child.kill('SIGTERM');
          return (await exited).code;
        },
      });
    });
  });
}
