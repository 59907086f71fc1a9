/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies are untyped JSON */
/**
 * Secrets on disk: the data folder is owner-only, the database files and key files 0600, and
 * webhook signing secrets and custom header values are stored sealed (AES-256-GCM), also for
 * plaintext rows an older version left behind.
 */
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { SECRET_KEY_FILE } from '../../../src/service/security/secret-box';
import { DATABASE_FILE, openDatabase } from '../../../src/service/store/db';
import { startService } from '../../../src/service';
import { startTestService, FIXTURE_REFERENCE_DIR } from '../../support/service';

const mode = (file: string) => fs.statSync(file).mode & 0o777;

/** Every byte the database files hold, as text (for "is this secret anywhere on disk"). */
function databaseBytes(dataDir: string): string {
  return ['', '-wal', '-shm']
    .map((suffix) => path.join(dataDir, `${DATABASE_FILE}${suffix}`))
    .filter((file) => fs.existsSync(file))
    .map((file) => fs.readFileSync(file).toString('latin1'))
    .join('\n');
}

const webhookBody = {
  data: {
    type: 'webhook',
    attributes: {
      url: 'http://127.0.0.1:9/hook',
      active: true,
      events: ['container.created'],
      headers: [{ name: 'Authorization', value: 'Bearer very-secret-header-value' }],
    },
  },
};

describe.skipIf(process.platform === 'win32')('secrets at rest', () => {
  it('keeps the data folder 0700 and the database and key files 0600', async () => {
    const t = await startTestService({ allowPrivateWebhooks: true });
    try {
      expect((await t.send('POST', '/webhooks', webhookBody)).status).toBe(201);
      expect(mode(t.dataDir)).toBe(0o700);
      for (const file of [DATABASE_FILE, `${DATABASE_FILE}-wal`, `${DATABASE_FILE}-shm`]) {
        expect(mode(path.join(t.dataDir, file)), file).toBe(0o600);
      }
      expect(mode(path.join(t.dataDir, SECRET_KEY_FILE))).toBe(0o600);
    } finally {
      await t.close();
    }
  });

  it('stores webhook secrets and header values sealed, and reads them back', async () => {
    const t = await startTestService({ allowPrivateWebhooks: true });
    const dataDir = t.dataDir;
    const created = await t.send('POST', '/webhooks', webhookBody);
    expect(created.status).toBe(201);
    const secret: string = created.body.data.attributes.secret;
    expect(secret.length).toBeGreaterThan(10);
    const id = created.body.data.id;
    const patched = await t.send('PATCH', `/webhooks/${id}`, {
      data: {
        type: 'webhook',
        id,
        attributes: { headers: [{ name: 'X-Api-Key', value: 'patched-secret-value' }] },
      },
    });
    expect(patched.status).toBe(200);
    const bytes = databaseBytes(dataDir);
    expect(bytes).not.toContain(secret);
    expect(bytes).not.toContain('very-secret-header-value');
    expect(bytes).not.toContain('patched-secret-value');
    const read = await t.get(`/webhooks/${id}`);
    expect(read.body.data.attributes.secret).toBe(secret);
    expect(read.body.data.attributes.headers).toEqual([
      { name: 'X-Api-Key', value: 'patched-secret-value' },
    ]);
    await t.close();
  });

  it('seals plaintext rows left by an older version on start', async () => {
    const t = await startTestService({ allowPrivateWebhooks: true });
    const dataDir = fs.mkdtempSync(`${t.dataDir}-old-`);
    await t.close();
    // An older version wrote webhooks without sealing: the same insert, no sealing plugin.
    const old = await openDatabase(dataDir);
    const account = { id: 'a0000000-0000-4000-8000-000000000001', name: 'default' };
    await old.db
      .insertInto('accounts')
      .values({ ...account, routing_enabled: 0, created_at: new Date().toISOString() })
      .execute();
    await old.db
      .insertInto('webhooks')
      .values({
        id: 'b0000000-0000-4000-8000-000000000002',
        account_id: account.id,
        url: 'http://127.0.0.1:9/hook',
        active: 1,
        events: JSON.stringify(['container.created']),
        secret: 'old-plaintext-signing-secret',
        headers: JSON.stringify([{ name: 'Authorization', value: 'Bearer old-plaintext' }]),
        created_at: new Date().toISOString(),
        updated_at: new Date().toISOString(),
      } as any)
      .execute();
    await old.close();
    expect(databaseBytes(dataDir)).toContain('old-plaintext-signing-secret');

    const service = await startService({
      dataDir,
      host: '127.0.0.1',
      port: 0,
      referenceDir: FIXTURE_REFERENCE_DIR,
      config: { allowPrivateWebhooks: true },
    });
    try {
      const key = await service.store.accounts.createKey(account.id);
      const res = await fetch(`${service.baseUrl}/webhooks`, {
        headers: { Authorization: `Token ${key}` },
      });
      const body = (await res.json()) as any;
      expect(body.data[0].attributes.secret).toBe('old-plaintext-signing-secret');
      expect(body.data[0].attributes.headers[0].value).toBe('Bearer old-plaintext');
    } finally {
      await service.close();
    }
    const raw = new SQLite(path.join(dataDir, DATABASE_FILE), { readonly: true });
    const row = raw.prepare('SELECT secret, headers FROM webhooks').get() as {
      secret: string;
      headers: string;
    };
    raw.close();
    expect(row.secret).toMatch(/^qsbox1:/);
    expect(row.headers).toMatch(/^qsbox1:/);
    expect(databaseBytes(dataDir)).not.toContain('old-plaintext');
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  it('refuses to start with a key that cannot open the stored secrets, and says which key', async () => {
    const t = await startTestService({ allowPrivateWebhooks: true });
    expect((await t.send('POST', '/webhooks', webhookBody)).status).toBe(201);
    await t.service.close();
    const keyFile = path.join(t.dataDir, SECRET_KEY_FILE);
    const original = fs.readFileSync(keyFile, 'utf8');
    const start = () =>
      startService({
        dataDir: t.dataDir,
        host: '127.0.0.1',
        port: 0,
        referenceDir: FIXTURE_REFERENCE_DIR,
        config: { allowPrivateWebhooks: true },
      });
    try {
      fs.writeFileSync(keyFile, 'ab'.repeat(32));
      await expect(start()).rejects.toThrow(/does not open the webhook secrets.*secret\.key/);
      // The right key back: the service starts and reads its webhooks.
      fs.writeFileSync(keyFile, original);
      const service = await start();
      await service.close();
    } finally {
      fs.rmSync(t.dataDir, { recursive: true, force: true });
    }
  });
});
