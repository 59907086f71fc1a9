import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import {
  FeedsConfigError,
  loadFeedsFile,
  locateFeedsFile,
  type FeedsConfig,
} from '../../../../src/service/feeds/config';

const ISSUE_EXAMPLE = `
carriers:
  MAEU:
    dcsa: https://carrier.example/track-and-trace     # Quayside calls {dcsa}/v2/events
    auth: { type: oauth2_client_credentials, token_url: https://carrier.example/oauth2/token,
            client_id: \${MAEU_CLIENT_ID}, client_secret: \${MAEU_CLIENT_SECRET}, scope: tnt }
    requests_per_minute: 60
  HLCU:
    dcsa: https://other.example/dcsa/tnt
    auth: { type: headers, headers: { X-IBM-Client-Id: \${HL_ID}, X-IBM-Client-Secret: \${HL_SECRET} } }
    subscriptions: true        # use DCSA event subscriptions (push) where the carrier offers them
ais:
  - { type: nmea_tcp, host: 127.0.0.1, port: 5631 }
  - { type: nmea_udp, port: 5632 }
terminals:
  pier400: { url: https://terminal.example/api, auth: { type: bearer, token: \${PIER400_TOKEN} } }
`;

const ENV = {
  MAEU_CLIENT_ID: 'maeu-id',
  MAEU_CLIENT_SECRET: 'maeu-very-secret',
  HL_ID: 'hl-id',
  HL_SECRET: 'hl-very-secret',
  PIER400_TOKEN: 'pier-token',
};

function writeConfig(text: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'quayside-feeds-'));
  const file = path.join(dir, 'feeds.yaml');
  writeFileSync(file, text);
  return file;
}

function load(text: string, env: Record<string, string> = ENV): FeedsConfig {
  return loadFeedsFile(writeConfig(text), { env, readFile: () => 'from-file\n' });
}

function problemsOf(text: string, env: Record<string, string> = ENV): string[] {
  try {
    load(text, env);
  } catch (err) {
    expect(err).toBeInstanceOf(FeedsConfigError);
    return (err as FeedsConfigError).problems;
  }
  throw new Error('expected the config to be refused');
}

describe('feeds file', () => {
  it('loads the documented example with its secrets resolved', () => {
    const config = load(ISSUE_EXAMPLE);
    const [maeu, hlcu] = config.carriers;
    expect(maeu?.scac).toBe('MAEU');
    expect(maeu?.dcsaBaseUrl).toBe('https://carrier.example/track-and-trace');
    expect(maeu?.requestsPerMinute).toBe(60);
    expect(maeu?.auth.type).toBe('oauth2_client_credentials');
    if (maeu?.auth.type !== 'oauth2_client_credentials') throw new Error('auth type');
    expect(maeu.auth.clientSecret.reveal()).toBe('maeu-very-secret');
    expect(maeu.auth.scope).toBe('tnt');
    expect(hlcu?.subscriptions).toBe(true);
    if (hlcu?.auth.type !== 'headers') throw new Error('auth type');
    expect(hlcu.auth.headers['X-IBM-Client-Secret']?.reveal()).toBe('hl-very-secret');
    expect(config.ais).toEqual([
      { type: 'nmea_tcp', host: '127.0.0.1', port: 5631 },
      { type: 'nmea_udp', port: 5632 },
    ]);
    expect(config.terminals[0]?.id).toBe('pier400');
  });

  it('never shows a secret value in JSON, strings or inspection', () => {
    const config = load(ISSUE_EXAMPLE);
    const shown = [JSON.stringify(config), inspect(config, { depth: 10 }), String(config)].join();
    for (const value of Object.values(ENV)) expect(shown).not.toContain(value);
    expect(inspect(config, { depth: 10 })).toContain('Secret(env MAEU_CLIENT_SECRET)');
  });

  it('reads file: secrets', () => {
    const config = load(
      `terminals:\n  t1: { url: http://127.0.0.1:9/api, auth: { type: bearer, token: "file:/run/secrets/t1" } }\n`,
    );
    const auth = config.terminals[0]?.auth;
    if (auth?.type !== 'bearer') throw new Error('auth type');
    expect(auth.token.reveal()).toBe('from-file');
  });

  it('refuses an unknown key and names the file and the path', () => {
    const file = writeConfig(
      'carriers:\n  MAEU: { dcsa: https://x.example, requests_per_mnute: 5 }\n',
    );
    expect(() => loadFeedsFile(file, { env: {}, readFile: () => '' })).toThrow(
      new RegExp(`${file}[\\s\\S]*/carriers/MAEU: unknown key 'requests_per_mnute'`),
    );
  });

  it('names a missing secret variable without starting anything', () => {
    const problems = problemsOf(ISSUE_EXAMPLE, { ...ENV, HL_SECRET: '' });
    expect(problems).toEqual([
      '/carriers/HLCU/auth/headers/X-IBM-Client-Secret: environment variable HL_SECRET is not set',
    ]);
  });

  it('says what an auth type expects', () => {
    expect(
      problemsOf('carriers:\n  MAEU: { dcsa: https://x.example, auth: { type: bearer } }\n'),
    ).toEqual(["/carriers/MAEU/auth: missing 'token'"]);
    expect(
      problemsOf('carriers:\n  MAEU: { dcsa: https://x.example, auth: { type: kerberos } }\n')[0],
    ).toMatch(
      /\/carriers\/MAEU\/auth\/type: expected one of none, headers, bearer, basic, oauth2_client_credentials/,
    );
  });

  it('reports every bad field at once', () => {
    const problems = problemsOf(
      'carriers:\n  maersk: { dcsa: https://x.example }\n  HLCU: { dcsa: ftp://x.example }\nais:\n  - { type: nmea_udp, port: 70000 }\n',
    );
    expect(problems).toHaveLength(3);
    expect(problems.join('\n')).toMatch(/\/carriers\/maersk: expected a SCAC/);
    expect(problems.join('\n')).toMatch(/\/carriers\/HLCU\/dcsa: expected an http\(s\) URL/);
    expect(problems.join('\n')).toMatch(/\/ais\/0\/port: expected/);
  });

  it('refuses an alias bomb with a reason, at once', () => {
    const levels = 'abcdefghi'.split('');
    const bomb = [
      'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
      ...levels
        .slice(1)
        .map((name, i) => `${name}: &${name} [${Array(9).fill(`*${levels[i]}`).join(',')}]`),
      'ais: *i',
    ].join('\n');
    const started = performance.now();
    expect(problemsOf(bomb)).toEqual([
      expect.stringMatching(/expands to more than 10000 values through YAML aliases/),
    ]);
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it('names unknown top-level keys however many there are (never an empty reason)', () => {
    const keys = Array.from({ length: 12 }, (_, i) => `extra_${i}`);
    const problems = problemsOf(keys.map((k) => `${k}: 1`).join('\n'));
    expect(problems.length).toBeGreaterThan(0);
    for (const problem of problems) expect(problem).toMatch(/^\/: unknown key 'extra_\d+'$/);
  });

  it('reports broken YAML with its position', () => {
    expect(problemsOf('carriers: [\n')[0]).toMatch(/not valid YAML at line/);
  });

  it('is found from the flag, then the environment, then the data folder', () => {
    const exists = (f: string): boolean => f === path.join('/data', 'feeds.yaml');
    expect(
      locateFeedsFile({ cliPath: '/a.yaml', env: { QUAYSIDE_FEEDS: '/b.yaml' }, exists }),
    ).toBe('/a.yaml');
    expect(locateFeedsFile({ env: { QUAYSIDE_FEEDS: '/b.yaml' }, dataDir: '/data', exists })).toBe(
      '/b.yaml',
    );
    expect(locateFeedsFile({ env: {}, dataDir: '/data', exists })).toBe('/data/feeds.yaml');
    expect(locateFeedsFile({ env: {}, dataDir: '/other', exists })).toBeNull();
  });
});
