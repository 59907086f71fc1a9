/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies are untyped JSON */
/**
 * Carriers as the real world has them: every line the real service lists is known to Quayside,
 * and a carrier that wants a static key header next to an OAuth2 token (Maersk's Consumer-Key)
 * is tracked through one composed auth block.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuthenticator } from '../../src/service/feeds/auth';
import { loadFeedsFile } from '../../src/service/feeds/config';
import { DcsaClient } from '../../src/service/feeds/dcsa/client';
import { CONTAINER, journeyEvents } from './feeds/dcsa/fixtures';
import { sendJson, startServer, type TestServer } from './feeds/support/http-server';
import { startTestService, type TestService } from './helpers';

const REFERENCE_DIR = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../resources/reference',
);

/** Every line the real service's `GET /v2/shipping_lines` answers (a recorded response). */
const REAL_SERVICE_SCACS = [
  'ACLU', 'ANNU', 'APLU', 'ARKU', 'CHVW', 'CLAM', 'CMDU', 'COSU', 'CULU', 'EGLV', 'GOSU', 'HDMU',
  'HDUJ', 'HLCU', 'IILU', 'MAEU', 'MATS', 'MSCU', 'ONEY', 'OOLU', 'PCIU', 'SAFM', 'SEAU', 'SEJJ',
  'SMLM', 'SMLU', 'SQQY', 'SSBF', 'SSPH', 'TEST', 'TJFH', 'TRBR', 'TRKU', 'TXZJ', 'WDSB', 'WHLC',
  'YMLU', 'ZIMU',
]; // prettier-ignore

describe('the lines the real service lists', () => {
  let t: TestService;
  beforeAll(async () => {
    t = await startTestService({}, REFERENCE_DIR);
  });
  afterAll(async () => {
    await t.close();
  });

  it('knows every SCAC (as its own or an alternative), with names and bill of lading prefixes', async () => {
    const res = await t.get('/shipping_lines?page[size]=100');
    expect(res.status).toBe(200);
    const lines = res.body.data as any[];
    const known = new Map<string, any>();
    for (const line of lines) {
      known.set(line.attributes.scac, line);
      for (const alt of line.attributes.alternative_scacs) known.set(alt, line);
    }
    const missing = REAL_SERVICE_SCACS.filter((scac) => !known.has(scac));
    expect(missing).toEqual([]);
    for (const scac of REAL_SERVICE_SCACS) {
      const line = known.get(scac);
      expect(line.attributes.name.length, scac).toBeGreaterThan(1);
      expect(line.attributes.short_name.length, scac).toBeGreaterThan(1);
    }
    // PIL is listed by the real service as PCIU: the same line as Quayside's PABV.
    expect(known.get('PCIU').attributes.scac).toBe('PABV');
  });

  it('has a valid sample feeds entry for each line with a DCSA track and trace API', () => {
    const sample = path.resolve(REFERENCE_DIR, '../feeds/carriers.sample.yaml');
    const names = [...readFileSync(sample, 'utf8').matchAll(/\$\{([A-Z0-9_]+)\}/g)].map(
      (m) => m[1]!,
    );
    const env = Object.fromEntries(
      names.map((name) => [
        name,
        name.endsWith('_URL') ? `https://${name.toLowerCase()}.example` : 'x',
      ]),
    );
    const config = loadFeedsFile(sample, { env, readFile: () => '' });
    expect(config.carriers.map((c) => c.scac).sort()).toEqual([
      'CMDU',
      'COSU',
      'EGLV',
      'HDMU',
      'HLCU',
      'MAEU',
      'MSCU',
      'ONEY',
      'OOLU',
      'YMLU',
      'ZIMU',
    ]);
    // Maersk's entry composes its key header with the OAuth2 token.
    const maersk = config.carriers.find((c) => c.scac === 'MAEU')!.auth;
    expect(maersk.type).toBe('oauth2_client_credentials');
    expect(Object.keys((maersk as { headers?: object }).headers ?? {})).toEqual(['Consumer-Key']);
  });
});

describe('a carrier that wants a key header next to an OAuth2 token', () => {
  const KEY = 'consumer-key-123';
  let issued = 0;
  let carrier: TestServer;
  let tmp: string;

  beforeAll(async () => {
    tmp = mkdtempSync(path.join(os.tmpdir(), 'quayside-carriers-'));
    carrier = await startServer((req, res) => {
      if (req.method === 'POST' && req.url.pathname === '/oauth2/token') {
        const form = new URLSearchParams(req.body);
        if (form.get('client_id') !== 'app-id' || form.get('client_secret') !== 'app-secret') {
          sendJson(res, 401, { error: 'invalid_client' });
          return;
        }
        issued++;
        sendJson(res, 200, { access_token: `token-${issued}`, expires_in: 3600 });
        return;
      }
      if (req.url.pathname === '/tnt/v2/events') {
        const hasToken = req.headers.authorization === `Bearer token-${issued}` && issued > 0;
        if (!hasToken || req.headers['consumer-key'] !== KEY) {
          sendJson(res, 401, { message: 'both the Consumer-Key and a token are required' });
          return;
        }
        sendJson(res, 200, journeyEvents());
        return;
      }
      sendJson(res, 404, {});
    });
  });
  afterAll(async () => {
    await carrier.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  const ENV = {
    MAEU_CLIENT_ID: 'app-id',
    MAEU_CLIENT_SECRET: 'app-secret',
    MAEU_CONSUMER_KEY: KEY,
  };
  const noFiles = () => {
    throw new Error('no files');
  };
  /** The carrier's entry as an operator writes it in the feeds file. */
  const feedsFile = (extraHeaders: string) => {
    const file = path.join(tmp, `feeds-${Math.random().toString(36).slice(2)}.yaml`);
    writeFileSync(
      file,
      [
        'carriers:',
        '  MAEU:',
        `    dcsa: ${carrier.baseUrl}/tnt`,
        '    auth:',
        '      type: oauth2_client_credentials',
        `      token_url: ${carrier.baseUrl}/oauth2/token`,
        '      client_id: ${MAEU_CLIENT_ID}',
        '      client_secret: ${MAEU_CLIENT_SECRET}',
        extraHeaders,
        '',
      ].join('\n'),
    );
    return file;
  };
  const clientFor = (extraHeaders: string) => {
    const maersk = loadFeedsFile(feedsFile(extraHeaders), { env: ENV, readFile: noFiles })
      .carriers[0]!;
    return new DcsaClient('MAEU', {
      baseUrl: maersk.dcsaBaseUrl,
      signer: createAuthenticator(maersk.auth),
    });
  };
  const WITH_KEY = "      headers: { Consumer-Key: '${MAEU_CONSUMER_KEY}' }";

  it('tracks with both: the static header and the token', async () => {
    const found = await clientFor(WITH_KEY).lookup({
      kind: 'equipmentReference',
      value: CONTAINER,
    });
    expect(found.outcome).toBe('found');
    const events = carrier.requests.filter((r) => r.url.pathname === '/tnt/v2/events');
    expect(events.at(-1)!.headers['consumer-key']).toBe(KEY);
    expect(events.at(-1)!.headers.authorization).toMatch(/^Bearer token-\d+$/);
  });

  it('is refused with the token alone', async () => {
    const refused = await clientFor('').lookup({ kind: 'equipmentReference', value: CONTAINER });
    expect(refused.outcome).toBe('rejected');
  });

  it('refuses an Authorization header next to a credential in the feeds file', () => {
    const file = feedsFile("      headers: { Authorization: 'Bearer x' }");
    expect(() => loadFeedsFile(file, { env: ENV, readFile: noFiles })).toThrow(
      /headers\/Authorization: the credential of this block sets Authorization/,
    );
  });
});
