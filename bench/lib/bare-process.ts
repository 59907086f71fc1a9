/**
 * Starts bare-child.ts: the same HTTP stack as the service, in a process of its own, sending
 * the bytes the service sent and doing nothing else.
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export interface BareBodies {
  list: string;
  detail: string;
}

export interface BareProcess {
  origin: string;
  /** The process's CPU time so far (user and system), in microseconds. */
  cpuMicros(): Promise<number>;
  close(): Promise<void>;
}

const script = fileURLToPath(new URL('./bare-child.ts', import.meta.url));

export async function bareInChild(bodies: BareBodies): Promise<BareProcess> {
  const child = fork(script, [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const port = new Promise<number>((resolve, reject) => {
    child.once('message', (message) => resolve((message as { port: number }).port));
    void exited.then(() => reject(new Error('bare server exited before listening')));
  });
  child.send(bodies);
  const origin = `http://127.0.0.1:${await port}`;
  return {
    origin,
    cpuMicros: () =>
      new Promise<number>((resolve) => {
        child.once('message', (message) => resolve((message as { micros: number }).micros));
        child.send('cpu');
      }),
    close: async () => {
      child.send('close');
      await exited;
    },
  };
}
