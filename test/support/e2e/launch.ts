import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';

export interface LaunchedApp {
  url: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

const repoRoot = resolve(import.meta.dirname, '..', '..', '..');

/**
 * Starts the app exactly as a user does: `npm start -- --browser --no-open --data-dir DIR`
 * (via scripts/start.mjs, which is what `npm start` runs), and waits for its url line.
 */
export function startBrowserMode(
  dataDir: string,
  extraArgs: readonly string[] = [],
): Promise<LaunchedApp> {
  const child = spawn(
    process.execPath,
    [
      'scripts/start.mjs',
      '--browser',
      '--no-open',
      '--data-dir',
      dataDir,
      '--port',
      '0',
      ...extraArgs,
    ],
    { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  return new Promise((resolvePromise, reject) => {
    const timer = setTimeout(() => reject(new Error(`no url within 120 s:\n${output}`)), 120_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Quayside is running at (\S+)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolvePromise({
          url: match[1],
          process: child,
          stop: () =>
            new Promise((done) => {
              if (child.exitCode !== null) return done();
              child.once('exit', () => done());
              child.kill('SIGTERM');
            }),
        });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`app exited with ${String(code)} before printing its url:\n${output}`));
    });
  });
}
