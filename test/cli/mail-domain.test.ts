/**
 * `serve --mail-domain` names the domain in each account's inbox address, so the address a user
 * copies from the settings is one their mail can reach; a malformed domain stops the start.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, serveCli } from '../support/cli';

const dirs: string[] = [];
const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quayside-mail-domain-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

describe('serve --mail-domain', () => {
  it('shows inbox addresses at the configured domain', async () => {
    const served = await serveCli([
      '--data-dir',
      tempDir(),
      '--smtp-port',
      '0',
      '--mail-domain',
      'Inbox.Example.com',
    ]);
    try {
      const key = (await served.waitFor(/API key: (\S+)/))[1]!;
      const res = await fetch(`${served.baseUrl}/documents/settings`, {
        headers: { Authorization: `Token ${key}` },
      });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { data: { attributes: { inbox_address: string } } };
      expect(body.data.attributes.inbox_address).toMatch(/^track\+[0-9a-z]+@inbox\.example\.com$/);
    } finally {
      expect(await served.stop()).toBe(0);
    }
  }, 90_000);

  it('refuses a malformed domain with one line naming it', async () => {
    const result = await runCli([
      'serve',
      '--data-dir',
      tempDir(),
      '--port',
      '0',
      '--mail-domain',
      'not a domain@x',
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe(
      'Invalid --mail-domain not a domain@x: expected a domain name such as mail.example.com',
    );
  }, 90_000);
});
