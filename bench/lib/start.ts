/**
 * Cold starts of built entry points, timed from spawn (the start benches: cli-start, app-start).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { median } from './report';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface Started {
  child: ChildProcess;
  /** `performance.now()` at spawn. */
  startedAt: number;
  /** Milliseconds from spawn until the output matched. */
  readyMs: number;
  match: RegExpExecArray;
  /** Sends `signal` and waits for the exit. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/** Spawns Node on `args` and resolves once its output (stdout or stderr) matches `ready`. */
export function startUntil(args: string[], ready: RegExp): Promise<Started> {
  return new Promise((resolve, reject) => {
    const startedAt = performance.now();
    const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise<void>((done) => child.once('exit', () => done()));
    let output = '';
    let matched = false;
    const onData = (chunk: Buffer) => {
      if (matched) return;
      output += chunk.toString();
      const match = ready.exec(output);
      if (!match) return;
      matched = true;
      resolve({
        child,
        startedAt,
        readyMs: performance.now() - startedAt,
        match,
        stop: async (signal = 'SIGINT') => {
          if (child.exitCode === null && child.signalCode === null) child.kill(signal);
          await exited;
        },
      });
    };
    // Read on after the match too, so a chatty child never blocks on a full pipe.
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('error', reject);
    child.on('exit', (code) => {
      if (!matched) reject(new Error(`exited (${code}) before ${ready}:\n${output}`));
    });
  });
}

/**
 * Milliseconds from spawn until `ready` matches the output (then SIGINT and wait for the exit),
 * or until the exit when `ready` is undefined.
 */
export async function timeStart(args: string[], ready?: RegExp): Promise<number> {
  if (ready) {
    const started = await startUntil(args, ready);
    await started.stop();
    return started.readyMs;
  }
  return new Promise((resolve, reject) => {
    const startedAt = performance.now();
    const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.resume();
    child.stderr.resume();
    child.on('error', reject);
    child.on('exit', () => resolve(performance.now() - startedAt));
  });
}

/** The median of `runs` sequential measurements. */
export async function medianOf(runs: number, measure: () => Promise<number>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) times.push(await measure());
  return median(times);
}
