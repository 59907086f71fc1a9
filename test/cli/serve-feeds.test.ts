/* eslint-disable @typescript-eslint/no-explicit-any -- API bodies are untyped JSON */
/**
 * `quayside serve` on its own: TEST numbers track with no feeds at all (and their webhook is
 * delivered, signed), and a bad feeds file stops the start with the file and the field named.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startReceiver, verifySignatures } from '../support/webhook-receiver';
import { until } from '../support/wait';
import { runCli, serveCli } from '../support/cli';

const dirs: string[] = [];
const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quayside-serve-feeds-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

describe('quayside serve and its feeds', () => {
  it('tracks TEST-TR-SUCCEEDED with no feeds and delivers the signed webhook', async () => {
    const receiver = await startReceiver();
    const served = await serveCli(['--data-dir', tempDir(), '--allow-private-webhooks']);
    try {
      const key = (await served.waitFor(/API key: (\S+)/))[1]!;
      expect(await served.waitFor(/Feeds: none configured/)).toBeTruthy();
      const send = async (method: string, p: string, body?: unknown) => {
        const res = await fetch(served.baseUrl + p, {
          method,
          headers: { Authorization: `Token ${key}`, 'Content-Type': 'application/vnd.api+json' },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        return { status: res.status, body: (await res.json()) as any };
      };
      const hook = await send('POST', '/webhooks', {
        data: {
          type: 'webhook',
          attributes: {
            url: receiver.url,
            active: true,
            events: ['tracking_request.succeeded'],
          },
        },
      });
      expect(hook.status).toBe(201);
      const created = await send('POST', '/tracking_requests', {
        data: {
          type: 'tracking_request',
          attributes: {
            request_type: 'bill_of_lading',
            request_number: 'TEST-TR-SUCCEEDED',
            scac: 'TEST',
          },
        },
      });
      expect(created.status).toBe(201);
      await until(() => receiver.received.length > 0);
      const delivered = receiver.received[0]!;
      expect(delivered.json.data.attributes.event).toBe('tracking_request.succeeded');
      expect(verifySignatures(delivered, hook.body.data.attributes.secret).reference).toBe(true);
      const request = await send('GET', `/tracking_requests/${created.body.data.id}`);
      expect(request.body.data.attributes.status).toBe('created');

      // A real line with no source configured is refused at once.
      const refused = await send('POST', '/tracking_requests', {
        data: {
          type: 'tracking_request',
          attributes: {
            request_type: 'bill_of_lading',
            request_number: 'MAEU123456789',
            scac: 'MAEU',
          },
        },
      });
      expect(refused.status).toBe(422);
      expect(refused.body.errors[0].detail).toContain('Supported: none');
    } finally {
      expect(await served.stop()).toBe(0);
      await receiver.close();
    }
  }, 90_000);

  it('refuses to start on a feeds file with an unknown key or a missing secret', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'feeds.yaml');
    fs.writeFileSync(
      file,
      [
        'carriers:',
        '  MAEU:',
        '    dcsa: https://carrier.example/tnt',
        '    auth: { type: bearer, token: ${QS_TEST_UNSET_TOKEN} }',
        '    rate: 5',
        '',
      ].join('\n'),
    );
    const env = { QS_TEST_UNSET_TOKEN: '' };
    const result = await runCli(['serve', '--data-dir', dir, '--port', '0', '--feeds', file], env);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`Invalid feeds configuration ${file}`);
    expect(result.stderr).toContain('/carriers/MAEU');
    expect(result.stderr).not.toContain('listening');
    expect(result.stdout).not.toContain('listening');
    // Nothing was started: no database was created.
    expect(fs.existsSync(path.join(dir, 'quayside.sqlite'))).toBe(false);
  }, 90_000);

  it('refuses --feeds together with --sim', async () => {
    const result = await runCli(['serve', '--sim', '--feeds', 'x.yaml', '--data-dir', tempDir()]);
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe(
      '--feeds and --sim cannot be combined: --sim brings its own simulated feeds',
    );
  }, 90_000);
});
