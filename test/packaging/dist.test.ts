/**
 * `npm run dist` where the Electron runtime cannot be downloaded: one clear line, exit 1, nothing
 * built. The "download server" is a local one that has no such file.
 */
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');

function runDist(env: NodeJS.ProcessEnv): Promise<{ code: number | null; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [resolve(ROOT, 'scripts/dist.mjs')], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', fail);
    child.on('exit', (code) => done({ code, stderr }));
  });
}

describe('npm run dist without the Electron runtime download', () => {
  let server: Server | null = null;
  afterEach(() => new Promise<void>((done) => (server ? server.close(() => done()) : done())));

  it('stops with one line naming the runtime and why it is unreachable', async () => {
    const requested: string[] = [];
    server = createServer((request, response) => {
      requested.push(`${request.method} ${request.url}`);
      response.writeHead(404).end();
    });
    await new Promise<void>((done) => server!.listen(0, '127.0.0.1', done));
    const { port } = server.address() as AddressInfo;

    const { code, stderr } = await runDist({ ELECTRON_MIRROR: `http://127.0.0.1:${port}/` });

    expect(code).toBe(1);
    const lines = stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^npm run dist stopped: the Electron [\d.]+ runtime cannot be downloaded from http:\/\/127\.0\.0\.1:\d+\/v[\d.]+\/electron-v[\d.]+-\w+-\w+\.zip \(HTTP 404\)/,
    );
    expect(requested).toHaveLength(1);
    expect(requested[0]).toMatch(/^HEAD \/v[\d.]+\/electron-v/);
  });
});
