/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies are untyped JSON */
/**
 * The service's own account is recorded when the service makes it; accounts created with
 * `keys create --account` before, between or during `serve --sim` runs never take its place:
 * its key, routing entitlement and demo requests stay with it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/shared/clock';
import { KEY_FILE } from '../../src/embedded/service-with-world';
import { AccountStore } from '../../src/service/store/accounts';
import { openDatabase } from '../../src/service/store/db';
import { runCli, serveCli } from '../support/cli';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quayside-identity-'));
  dirs.push(dir);
  return dir;
}

const keyFileKey = (dir: string): string =>
  (JSON.parse(fs.readFileSync(path.join(dir, KEY_FILE), 'utf8')) as { apiKey: string }).apiKey;

async function createKey(dir: string, account?: string): Promise<{ account: string; key: string }> {
  const result = await runCli([
    'keys',
    'create',
    '--data-dir',
    dir,
    ...(account ? ['--account', account] : []),
  ]);
  expect(result.code, result.stderr).toBe(0);
  const [accountLine, key] = result.stdout.trim().split('\n');
  return { account: /^Account: (\S+)/.exec(accountLine!)![1]!, key: key! };
}

async function trackingRequestCount(baseUrl: string, key: string): Promise<number> {
  const res = await fetch(`${baseUrl}/tracking_requests?page[size]=100`, {
    headers: { Authorization: `Token ${key}` },
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as any).data.length;
}

/** Starts `serve --sim`, checks who the key file's key belongs to, and stops. */
async function serveAndCheck(
  dir: string,
  others: string[],
): Promise<{ output: string; key: string }> {
  const served = await serveCli(['--sim', '--sim-speed', '1', '--data-dir', dir]);
  try {
    const key = keyFileKey(dir);
    // The 25 demo requests, plus any booking the living world took since (followed as well).
    expect(await trackingRequestCount(served.baseUrl, key)).toBeGreaterThanOrEqual(25);
    for (const other of others) expect(await trackingRequestCount(served.baseUrl, other)).toBe(0);
    return { output: served.output(), key };
  } finally {
    expect(await served.stop()).toBe(0);
  }
}

async function expectOwnAccountOnly(dir: string, otherNames: string[]): Promise<void> {
  const opened = await openDatabase(dir);
  try {
    const accounts = new AccountStore(opened.db, systemClock);
    const own = (await accounts.primary())!;
    expect(own.name).toBe('default');
    expect(own.routingEnabled).toBe(true);
    expect((await accounts.byKey(keyFileKey(dir)))?.id).toBe(own.id);
    for (const name of otherNames)
      expect((await accounts.byName(name))?.routingEnabled).toBe(false);
  } finally {
    await opened.close();
  }
}

describe('the service keeps its own account across restarts', () => {
  it('an account created before the first start does not become the service account', async () => {
    const dir = tempDir();
    const early = await createKey(dir, 'early');
    expect(early.account).toBe('early');

    const first = await serveAndCheck(dir, [early.key]);
    expect(first.output).toContain(`API key: ${first.key}`);

    const later = await createKey(dir, 'later');
    expect((await createKey(dir)).account).toBe('default');

    const second = await serveAndCheck(dir, [early.key, later.key]);
    expect(second.key).toBe(first.key);
    // The key is shown only when it is created.
    expect(second.output).not.toContain(first.key);
    await expectOwnAccountOnly(dir, ['early', 'later']);
  }, 120_000);

  it('accounts created between and during runs do not move its key, routing or demo data', async () => {
    const dir = tempDir();
    const first = await serveAndCheck(dir, []);
    expect(first.output).toContain(`API key: ${first.key}`);

    const between = await createKey(dir, 'between');
    expect((await createKey(dir)).account).toBe('default');

    const served = await serveCli(['--sim', '--sim-speed', '1', '--data-dir', dir]);
    let during: { account: string; key: string };
    try {
      during = await createKey(dir, 'during');
      expect((await createKey(dir)).account).toBe('default');
    } finally {
      expect(await served.stop()).toBe(0);
    }

    const third = await serveAndCheck(dir, [between.key, during.key]);
    expect(third.key).toBe(first.key);
    expect(third.output).not.toContain(first.key);
    await expectOwnAccountOnly(dir, ['between', 'during']);
  }, 120_000);
});
