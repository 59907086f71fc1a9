import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { APP_ICON_ICO } from '../../src/main/app-resources';
import { startBrowserServer, type BrowserServer } from '../../src/main/browser/browser-server';
import { AppCore } from '../../src/main/core/app-core';
import { JsonFileSettingsStore } from '../../src/main/settings/json-file-settings-store';
import { FileSecretStore } from '../../src/main/core/secret-store';

describe('browser-mode server', () => {
  let dir: string;
  let core: AppCore;
  let server: BrowserServer;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'quayside-browser-'));
    const rendererDir = join(dir, 'renderer');
    mkdirSync(rendererDir);
    writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>Quayside</title>');
    core = new AppCore({
      appInfo: {
        name: 'Quayside',
        version: '0',
        shell: 'browser',
        platform: 'linux',
        dataDir: dir,
      },
      settingsStore: new JsonFileSettingsStore(dir),
      secretStore: new FileSecretStore(dir),
    });
    server = await startBrowserServer({ core, rendererDir });
  });
  afterEach(async () => {
    await server.close();
    await core.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const call = (method: string, body: unknown, token: string | null = server.token) =>
    fetch(`${server.origin}/bridge/${method}`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        ...(token === null ? {} : { 'X-Quayside-Token': token }),
      },
      body: JSON.stringify(body),
    });

  it('listens on loopback only and prints a url that carries the token', () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]{32}$/);
  });

  /** The launch page's cookie, as a browser would send it back. */
  const launchCookie = async (): Promise<string> => {
    const setCookie = (await fetch(server.url)).headers.get('set-cookie') ?? '';
    return setCookie.split(';')[0]!;
  };

  it('answers the launch page uncached and sets an HttpOnly, SameSite=Strict cookie without the token', async () => {
    const response = await fetch(server.url);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const setCookie = response.headers.get('set-cookie') ?? '';
    expect(setCookie).toMatch(/^quayside_launch_\d+=[\w-]+; Path=\/; HttpOnly; SameSite=Strict$/);
    expect(setCookie).not.toContain(server.token);
    // Only the launch url (with the token) sets it.
    const plain = await fetch(`${server.origin}/`);
    expect(plain.headers.get('set-cookie')).toBeNull();
    expect(plain.headers.get('cache-control')).toBe('no-store');
    expect((await fetch(`${server.origin}/?token=wrong`)).headers.get('set-cookie')).toBeNull();
  });

  it('takes the token in no url: the event stream and files want the cookie', async () => {
    expect((await fetch(`${server.origin}/bridge/events?token=${server.token}`)).status).toBe(401);
    const cookie = await launchCookie();
    // The cookie opens no bridge call: those need the token itself in the header.
    const called = await fetch(`${server.origin}/bridge/getSettings`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Cookie: cookie },
      body: JSON.stringify({ argument: null }),
    });
    expect(called.status).toBe(401);
  });

  it('serves the renderer with a strict content security policy', async () => {
    const response = await fetch(server.url);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('<title>Quayside</title>');
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("object-src 'none'");
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
  });

  it('answers the favicon request every page load makes with the app icon, without the token', async () => {
    const page = await fetch(server.url);
    expect(page.status).toBe(200);
    const icon = await fetch(`${server.origin}/favicon.ico`);
    expect(icon.status).toBe(200);
    expect(icon.headers.get('content-type')).toBe('image/x-icon');
    const bytes = Buffer.from(await icon.arrayBuffer());
    // ICONDIR: reserved 0, type 1 (icon).
    expect([...bytes.subarray(0, 4)]).toEqual([0, 0, 1, 0]);
    expect(bytes.equals(readFileSync(APP_ICON_ICO))).toBe(true);
  });

  it('answers bridge calls that carry the token', async () => {
    const response = await call('updateSettings', { argument: { theme: 'dark' } });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ ok: true, result: { theme: 'dark' } });
    expect(new JsonFileSettingsStore(dir).read().theme).toBe('dark');
  });

  it('rejects calls without the token, or with a wrong one', async () => {
    for (const token of [null, 'not-the-token', `${server.token}x`]) {
      const response = await call('getSettings', { argument: null }, token);
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    }
  });

  it('rejects a malformed argument with a clear 400', async () => {
    const response = await call('updateSettings', { argument: { theme: 'purple' } });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { ok: false; error: { code: string; message: string } };
    expect(body.error.code).toBe('invalid_argument');
    expect(body.error.message).toContain('/theme');
  });

  it('rejects bodies that are not JSON objects, and unknown methods', async () => {
    const notJson = await fetch(`${server.origin}/bridge/getSettings`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Quayside-Token': server.token },
      body: '{"argument": ',
    });
    expect(notJson.status).toBe(400);
    expect((await call('getSettings', [1, 2])).status).toBe(400);
    expect((await call('runSql', { argument: 'SELECT 1' })).status).toBe(404);
  });

  it('refuses requests for another Host name (DNS rebinding)', async () => {
    const port = new URL(server.origin).port;
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(
        { host: '127.0.0.1', port, path: '/', headers: { Host: `evil.example:${port}` } },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(403);
  });

  it('pushes events to subscribers over server-sent events', async () => {
    const controller = new AbortController();
    const response = await fetch(`${server.origin}/bridge/events`, {
      headers: { Cookie: await launchCookie() },
      signal: controller.signal,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let received = '';
    await reader.read(); // the connection comment
    core.setSyncStatus({ state: 'syncing', progress: 0.5, message: null, lastSuccessAt: null });
    while (!received.includes('\n\n')) {
      const chunk = await reader.read();
      received += decoder.decode(chunk.value);
    }
    controller.abort();
    expect(received).toContain('event: syncStatus');
    expect(received).toContain('"progress":0.5');
  });

  it('refuses the event stream without the cookie, or with a wrong one', async () => {
    expect((await fetch(`${server.origin}/bridge/events`)).status).toBe(401);
    const cookie = await launchCookie();
    const wrong = await fetch(`${server.origin}/bridge/events`, {
      headers: { Cookie: `${cookie}x` },
    });
    expect(wrong.status).toBe(401);
  });

  it('gives the tab a cached document with its type and name, only with the launch cookie', async () => {
    const id = '5f0c7a3e-0000-4000-8000-000000000001';
    const pdf = Buffer.from('%PDF-1.7\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
    core.documents.upsert(
      {
        id,
        name: 'Arrival notice',
        fileName: 'arrival notice.pdf',
        contentType: 'application/pdf',
        sizeBytes: pdf.byteLength,
        documentType: 'arrival_notice',
        extractionStatus: 'extracted',
        extractionError: null,
        source: 'upload',
        createdAt: '2026-01-05T00:00:00.000Z',
        updatedAt: null,
        carrierScac: null,
        numbers: [],
        shipmentIds: [],
        email: null,
      },
      '2026-01-05T00:00:00.000Z',
    );
    core.documents.writeFile(id, pdf);
    const cookie = await launchCookie();
    const file = (sent: string | null, query = '') =>
      fetch(`${server.origin}/documents/${id}/file${query}`, {
        headers: sent === null ? {} : { Cookie: sent },
      });

    const response = await file(cookie);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect(response.headers.get('content-disposition')).toBe(
      'inline; filename="arrival_notice.pdf"',
    );
    expect(Buffer.from(await response.arrayBuffer()).equals(pdf)).toBe(true);

    expect((await file(null)).status).toBe(401);
    expect((await file(null, `?token=${server.token}`)).status).toBe(401);
    expect((await file(`${cookie}x`)).status).toBe(401);
    const unknown = await fetch(
      `${server.origin}/documents/00000000-0000-4000-8000-000000000000/file`,
      { headers: { Cookie: cookie } },
    );
    expect(unknown.status).toBe(404);
    const traversal = await fetch(`${server.origin}/documents/..%2Fsettings.json/file`, {
      headers: { Cookie: cookie },
    });
    expect(traversal.status).toBe(404);
  });

  it('takes an upload larger than other bridge calls, and refuses one over the file limit', async () => {
    const big = 'A'.repeat(2 * 1024 * 1024);
    // Reaches the handler (which then reports the missing connection), not the 1 MB body limit.
    const upload = await call('uploadDocument', {
      argument: { fileName: 'a.pdf', dataBase64: big },
    });
    expect(upload.status).not.toBe(413);
    const huge = await call('uploadDocument', {
      argument: { fileName: 'a.pdf', dataBase64: 'A'.repeat(30 * 1024 * 1024) },
    });
    expect(huge.status).toBe(413);
    const other = await call('updateSettings', { argument: { theme: big } });
    expect(other.status).toBe(413);
  });

  it('takes a spreadsheet up to its 5 MB limit and refuses a larger body', async () => {
    const rows = Buffer.from(
      `Container\n${'MSKU1234565\n'.repeat(100_000)}`.slice(0, 4 * 1024 * 1024),
    );
    const sheet = await call('readTrackingSpreadsheet', {
      argument: { fileName: 'boxes.csv', dataBase64: rows.toString('base64') },
    });
    // Past the body limit: the handler read it and found it too long.
    expect(sheet.status).not.toBe(413);
    expect(JSON.stringify(await sheet.json())).toContain('more than 5,000 rows');
    const huge = await call('readTrackingSpreadsheet', {
      argument: { fileName: 'boxes.csv', dataBase64: 'A'.repeat(8 * 1024 * 1024) },
    });
    expect(huge.status).toBe(413);
  });

  it('closes at once although a tab holds an event stream and a keep-alive connection mid-call', async () => {
    const events = await fetch(`${server.origin}/bridge/events`, {
      headers: { Cookie: await launchCookie() },
    });
    expect(events.headers.get('content-type')).toContain('text/event-stream');
    // A bridge call whose body is still on its way when the app quits.
    const socket = connect(Number(new URL(server.origin).port), '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', resolve));
    const body = JSON.stringify({ argument: null });
    socket.write(
      `POST /bridge/getSettings HTTP/1.1\r\nHost: ${new URL(server.origin).host}\r\n` +
        `Connection: keep-alive\r\nContent-Type: application/json\r\n` +
        `X-Quayside-Token: ${server.token}\r\nContent-Length: ${body.length}\r\n\r\n`,
    );
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
    const ended = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    await new Promise((resolve) => setTimeout(resolve, 50));

    const closed = server.close();
    socket.write(body);
    // Without the fix the close waited out Fastify's 72 s keep-alive timeout (past this test's).
    await closed;
    await ended;
    expect(answer).toMatch(/^HTTP\/1\.1 200/);
    expect(answer.toLowerCase()).toContain('connection: close');
    await events.body?.cancel().catch(() => undefined);
  });
});
