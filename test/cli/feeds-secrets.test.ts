/**
 * No credential reaches output, whatever its shape: a bearer-token file holding a line break,
 * quotes, non-ASCII text or 100 KB is refused when the feeds file is loaded (`feeds check` and
 * `serve` name the feed and the problem, never the value), and what sources say back (a token
 * endpoint echoing the client secret, an access token that cannot go in a header, a carrier
 * echoing the header it was sent) is reported with the credential taken out, in `feeds check`
 * and in `serve`'s log.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../support/http-server';
import { runCli, serveCli } from '../support/cli';

const dir = mkdtempSync(path.join(tmpdir(), 'quayside-feeds-secrets-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const CLIENT_SECRET = 'client-secret-Xq81vLw';
const BAD_ACCESS_TOKEN = 'ACCESSPART1\nACCESSPART2';
const ECHOED_TOKEN = 'echoed-token-Zr55Tq';

/** A token endpoint and DCSA endpoints on 127.0.0.1 that quote back what they were sent. */
let source: TestServer;
beforeAll(async () => {
  source = await startServer((req, res) => {
    res.setHeader('Content-Type', 'application/json');
    if (req.url.pathname === '/echoing/token') {
      const form = new URLSearchParams(req.body);
      res.writeHead(401);
      res.end(JSON.stringify({ error: `invalid_client ${form.get('client_secret')}` }));
    } else if (req.url.pathname === '/bad-token/token') {
      res.writeHead(200);
      res.end(JSON.stringify({ access_token: BAD_ACCESS_TOKEN, expires_in: 3600 }));
    } else {
      res.writeHead(403);
      res.end(JSON.stringify({ error: `not allowed: ${req.headers.authorization}` }));
    }
  });
});
afterAll(() => source.close());

function write(name: string, content: string): string {
  const file = path.join(dir, name);
  writeFileSync(file, content);
  return file;
}

function bearerFeeds(tokenFile: string): string {
  return write(
    `feeds-${path.basename(tokenFile)}.yaml`,
    `carriers:\n  MAEU: { dcsa: ${source.baseUrl}/maeu, auth: { type: bearer, token: "file:${tokenFile}" } }\n`,
  );
}

/** The pieces of a secret that must not show: each line, and any long run of it. */
function expectNoneOf(output: string, secret: string): void {
  for (const piece of secret.split(/\s+/).filter((p) => p.length >= 4))
    expect(output).not.toContain(piece.slice(0, 64));
}

const BAD_TOKENS: [string, string, RegExp][] = [
  ['a line break', 'TOKENPART1\nTOKENPART2\n', /contains a line break/],
  ['quotes', '"TOKEN-in-quotes-1234"\n', /is wrapped in quotes/],
  ['non-ASCII text', 'TOKEN-välue-ünïcode-9876', /outside visible ASCII/],
  ['100 KB', `${'TOKENBYTES'.repeat(10_240)}\n`, /is 102400 bytes long; at most 8192/],
];

describe('credentials of every shape stay out of output', () => {
  it.each(BAD_TOKENS)(
    'feeds check refuses a token file holding %s, naming the feed and not the value',
    async (_shape, content, problem) => {
      const tokenFile = write(`token-${content.length}`, content);
      const result = await runCli(['feeds', 'check', '--feeds', bearerFeeds(tokenFile)]);
      const output = result.stdout + result.stderr;
      expect(result.code).not.toBe(0);
      expect(output).toContain(`/carriers/MAEU/auth/token: the credential (file ${tokenFile})`);
      expect(output).toMatch(problem);
      expectNoneOf(output, content.replace(/["\n]/g, ' '));
    },
  );

  it('serve refuses the same file at start, with the same words', async () => {
    const content = 'TOKENPART1\nTOKENPART2\n';
    const tokenFile = write('token-serve', content);
    const result = await runCli([
      'serve',
      '--port',
      '0',
      '--data-dir',
      mkdtempSync(path.join(dir, 'data-')),
      '--feeds',
      bearerFeeds(tokenFile),
    ]);
    const output = result.stdout + result.stderr;
    expect(result.code).not.toBe(0);
    expect(output).toMatch(/\/carriers\/MAEU\/auth\/token: .*contains a line break/);
    expectNoneOf(output, content);
  });

  it('takes credentials out of what sources say back, in feeds check and in the log', async () => {
    const feeds = write(
      'feeds-echo.yaml',
      [
        'carriers:',
        `  MAEU: { dcsa: ${source.baseUrl}/maeu, auth: { type: oauth2_client_credentials, token_url: ${source.baseUrl}/echoing/token, client_id: quayside, client_secret: ${CLIENT_SECRET} } }`,
        `  HLCU: { dcsa: ${source.baseUrl}/hlcu, auth: { type: oauth2_client_credentials, token_url: ${source.baseUrl}/bad-token/token, client_id: quayside, client_secret: ${CLIENT_SECRET} } }`,
        `  CMDU: { dcsa: ${source.baseUrl}/cmdu, auth: { type: bearer, token: ${ECHOED_TOKEN} } }`,
      ].join('\n'),
    );
    const checked = await runCli(['feeds', 'check', '--feeds', feeds]);
    const output = checked.stdout + checked.stderr;
    expect(checked.code).toBe(1);
    expect(output).toMatch(/carrier MAEU.*refused the client credentials/);
    expect(output).toMatch(/carrier HLCU.*access_token that contains a line break/);
    expect(output).toMatch(/carrier CMDU.*HTTP 403.*\[redacted\]/);
    for (const secret of [CLIENT_SECRET, BAD_ACCESS_TOKEN, ECHOED_TOKEN])
      expectNoneOf(output, secret);

    const served = await serveCli(
      ['--data-dir', mkdtempSync(path.join(dir, 'data-')), '--feeds', feeds],
      { QUAYSIDE_LOG_LEVEL: 'warn' },
    );
    try {
      const key = (await served.waitFor(/API key: (\S+)/))[1]!;
      for (const scac of ['MAEU', 'HLCU', 'CMDU']) {
        const created = await fetch(`${served.baseUrl}/tracking_requests`, {
          method: 'POST',
          headers: { Authorization: `Token ${key}`, 'Content-Type': 'application/vnd.api+json' },
          body: JSON.stringify({
            data: {
              type: 'tracking_request',
              attributes: {
                request_type: 'bill_of_lading',
                request_number: `${scac}1234567`,
                scac,
              },
            },
          }),
        });
        expect(created.status).toBe(201);
      }
      for (const scac of ['MAEU', 'HLCU', 'CMDU'])
        await served.waitFor(new RegExp(`"scac":"${scac}".*line lookup failed`));
      for (const secret of [CLIENT_SECRET, BAD_ACCESS_TOKEN, ECHOED_TOKEN])
        expectNoneOf(served.output(), secret);
    } finally {
      await served.stop();
    }
  }, 90_000);
});
