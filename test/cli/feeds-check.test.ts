import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../support/http-server';

const BIN = path.resolve(__dirname, '../../bin/quayside.mjs');

function runCli(args: string[], env: Record<string, string>) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      { env: { ...process.env, ...env }, timeout: 60_000 },
      (err, stdout, stderr) => {
        const code = err ? ((err as { code?: number }).code ?? 1) : 0;
        resolve({ code: typeof code === 'number' ? code : 1, stdout, stderr });
      },
    );
  });
}

/** An OAuth2 token endpoint and a DCSA events endpoint on 127.0.0.1. */
let carrier: TestServer;

beforeAll(async () => {
  carrier = await startServer((req, res) => {
    if (req.url.pathname === '/oauth2/token') {
      const form = new URLSearchParams(req.body);
      if (form.get('client_secret') !== 'right-secret') {
        res.writeHead(401, { 'Content-Type': 'application/json' });
        res.end('{"error":"invalid_client"}');
        return;
      }
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end('{"access_token":"tok","expires_in":3600}');
      return;
    }
    const authorized =
      req.headers.authorization === 'Bearer tok' || req.headers['x-api-key'] === 'key-1';
    res.writeHead(authorized ? 200 : 401, { 'Content-Type': 'application/json' });
    res.end(authorized ? '[]' : '{}');
  });
});
afterAll(() => carrier.close());

function feedsFile(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'quayside-feeds-check-'));
  const file = path.join(dir, 'feeds.yaml');
  const tokenUrl = `${carrier.baseUrl}/oauth2/token`;
  writeFileSync(
    file,
    [
      'carriers:',
      `  MAEU: { dcsa: ${carrier.baseUrl}/maeu, auth: { type: oauth2_client_credentials, token_url: ${tokenUrl}, client_id: id, client_secret: \${MAEU_SECRET} } }`,
      `  HLCU: { dcsa: ${carrier.baseUrl}/hlcu, auth: { type: headers, headers: { X-API-Key: \${HL_KEY} } } }`,
    ].join('\n'),
  );
  return file;
}

describe('quayside feeds check', () => {
  it('prints one ok line per source and exits 0 when all answer', async () => {
    const result = await runCli(['feeds', 'check', '--feeds', feedsFile()], {
      MAEU_SECRET: 'right-secret',
      HL_KEY: 'key-1',
    });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const lines = result.stdout.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines.every((l) => l.startsWith('ok'))).toBe(true);
    expect(result.stdout).toMatch(/carrier MAEU\s+\d+ ms/);
  }, 60_000);

  it('reports a wrong secret as a failed source by name and exits 1', async () => {
    const result = await runCli(['feeds', 'check', '--feeds', feedsFile()], {
      MAEU_SECRET: 'wrong-secret',
      HL_KEY: 'key-1',
    });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/^FAIL\s+carrier MAEU .*refused the client credentials/m);
    expect(result.stdout).toMatch(/^ok\s+carrier HLCU/m);
    expect(result.stderr).toMatch(/1 of 2 sources failed: carrier MAEU/);
    expect(result.stdout + result.stderr).not.toContain('wrong-secret');
  }, 60_000);

  it('refuses an invalid file naming the missing variable', async () => {
    const result = await runCli(['feeds', 'check', '--feeds', feedsFile()], { HL_KEY: 'key-1' });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/MAEU_SECRET is not set/);
  }, 60_000);
});
