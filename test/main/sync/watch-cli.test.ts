/**
 * `quayside sync --watch` must keep syncing until it is told to stop (it once exited after the
 * first run with code 13: nothing held the process open while it waited for the next one). A
 * single sync against a service that does not answer must wait out its retries and say so (it
 * too exited with code 13 and no message, between two retries).
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createServer } from 'node:net';
import { expect, it } from 'vitest';
import { tempDir } from '../../support/cache-fixtures';
import { runCli } from '../../support/cli';
import { smallServiceForFile } from '../../support/sync-harness';

const CLI = fileURLToPath(new URL('../../../bin/quayside.mjs', import.meta.url));

const service = smallServiceForFile();

it('sync --watch syncs again and again until it is stopped', async () => {
  const h = service();
  const tmp = tempDir('quayside-watch-');
  try {
    const child = spawn(
      process.execPath,
      [
        CLI,
        'sync',
        '--watch',
        '--interval',
        '0.005',
        '--base-url',
        h.baseUrl,
        '--data-dir',
        tmp.dir,
      ],
      { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, QUAYSIDE_API_KEY: h.apiKey } },
    );
    let output = '';
    const runs = () => output.match(/^synced \d+ shipments/gm)?.length ?? 0;
    const exit = new Promise<{ code: number | null; signal: string | null }>((resolve, reject) => {
      child.on('error', reject);
      child.on('exit', (code, signal) => resolve({ code, signal }));
    });
    const sawTwoRuns = new Promise<boolean>((resolve) => {
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (runs() >= 2) resolve(true);
      });
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      void exit.then(() => resolve(false));
    });

    expect(await sawTwoRuns, output).toBe(true);
    child.kill('SIGTERM');
    expect(await exit).toEqual({ code: 0, signal: null });
    expect(output).not.toMatch(/sync failed/);
  } finally {
    tmp.remove();
  }
}, 30_000);

it('sync against a service that does not answer ends with a clear error after its retries', async () => {
  // A port that was free a moment ago: nothing listens on it now.
  const port = await new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
  const tmp = tempDir('quayside-unreachable-');
  try {
    const { code, stderr } = await runCli(
      ['sync', '--base-url', `http://127.0.0.1:${port}/v2`, '--data-dir', tmp.dir],
      { QUAYSIDE_API_KEY: 'key' },
    );
    expect(stderr).toContain(`Nothing is listening at 127.0.0.1:${port}.`);
    expect(code).toBe(1);
  } finally {
    tmp.remove();
  }
}, 90_000);
