/**
 * The tracking service in its own process, so a bench can measure the desktop side (sync
 * engine, cache) without the service sharing its event loop or heap, and read the service's
 * memory separately. Started by bench/lib/service-child.ts helpers below over IPC.
 *
 *   mode "seed":  seeds the data dir and exits.
 *   mode "serve": serves the data dir; answers "memory", "cpu" and "touch" messages.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { BenchSeedOptions } from './seed';

export interface ServiceMemory {
  rss: number;
  /** Peak resident set size of the process so far, in bytes. */
  peakRss: number;
  /** V8 heap in use and memory outside it (Buffers, native), in bytes. */
  heapUsed: number;
  heapTotal: number;
  external: number;
  /** Resident bytes of the C allocator's main heap, where /proc tells (Linux). */
  cHeap?: number;
}

export interface ChildService {
  baseUrl: string;
  key: string;
  memory(): Promise<ServiceMemory>;
  /** The process's CPU time so far (user and system), in microseconds. */
  cpuMicros(): Promise<number>;
  /** Changes `count` containers (new updated_at and one new transport event each). */
  touch(count: number, round: number): Promise<void>;
  close(): Promise<void>;
}

const script = fileURLToPath(new URL('./service-child.ts', import.meta.url));

function start(args: object): ChildProcess {
  return fork(script, [JSON.stringify(args)], {
    execArgv: ['--import', 'tsx', '--expose-gc'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
}

function reply<T>(child: ChildProcess, type: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: { type: string } & T) => {
      if (message.type !== type) return;
      child.off('message', onMessage);
      child.off('exit', onExit);
      resolve(message);
    };
    const onExit = (code: number | null) =>
      reject(new Error(`service process exited (${code}) before "${type}"`));
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
}

/** Seeds `dataDir` in a throwaway process; returns the key of the account it seeded. */
export async function seedInChild(dataDir: string, seed: BenchSeedOptions): Promise<string> {
  const child = start({ mode: 'seed', dataDir, seed });
  const done = await reply<{ key: string }>(child, 'seeded');
  await new Promise((resolve) => child.once('exit', resolve));
  return done.key;
}

export async function serveInChild(
  dataDir: string,
  key: string | null,
  options: { database?: string; readStalenessMs?: number } = {},
): Promise<ChildService> {
  const child = start({ mode: 'serve', dataDir, ...options });
  const ready = await reply<{ baseUrl: string; key: string | null }>(child, 'ready');
  const ask = <T>(message: object, type: string) => {
    const answer = reply<T>(child, type);
    child.send(message);
    return answer;
  };
  return {
    baseUrl: ready.baseUrl,
    key: key ?? ready.key ?? '',
    memory: () => ask<ServiceMemory>({ type: 'memory' }, 'memory'),
    cpuMicros: async () => (await ask<{ micros: number }>({ type: 'cpu' }, 'cpu')).micros,
    touch: async (count, round) => {
      await ask({ type: 'touch', count, round }, 'touched');
    },
    close: async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.send({ type: 'close' });
      await exited;
    },
  };
}
