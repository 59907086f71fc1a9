/**
 * `serve --smtp-url` (or QUAYSIDE_SMTP_URL) gives the service an outgoing mail server: the
 * settings say so and the start line names the server without its password; a malformed URL
 * stops the start with one line that never echoes the password.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, serveCli } from '../support/cli';

const PASSWORD = 'Cli-pa55word';
const dirs: string[] = [];
const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quayside-smtp-url-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

describe('serve --smtp-url', () => {
  it('QUAYSIDE_SMTP_URL turns outgoing mail on; the password is shown nowhere', async () => {
    const served = await serveCli(['--data-dir', tempDir()], {
      QUAYSIDE_SMTP_URL: `smtp://orders:${PASSWORD}@mail.example.com:2525`,
    });
    try {
      const key = (await served.waitFor(/API key: (\S+)/))[1]!;
      await served.waitFor(/Outgoing mail: smtp:\/\/mail\.example\.com:2525/);
      const res = await fetch(`${served.baseUrl}/documents/settings`, {
        headers: { Authorization: `Token ${key}` },
      });
      const body = (await res.json()) as { data: { attributes: { outgoing_mail: boolean } } };
      expect(body.data.attributes.outgoing_mail).toBe(true);
    } finally {
      expect(await served.stop()).toBe(0);
    }
    expect(served.output()).not.toContain(PASSWORD);
  }, 90_000);

  it('refuses a URL that is not smtp(s) with user and password, without echoing it', async () => {
    const result = await runCli([
      'serve',
      '--data-dir',
      tempDir(),
      '--port',
      '0',
      '--smtp-url',
      `https://orders:${PASSWORD}@mail.example.com`,
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe(
      'Invalid --smtp-url (QUAYSIDE_SMTP_URL): the scheme must be smtp or smtps, not https; expected smtp[s]://user:password@host[:port]',
    );
    expect(result.stdout + result.stderr).not.toContain(PASSWORD);
  }, 90_000);
});
