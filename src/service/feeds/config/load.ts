/**
 * Loads the feeds file: parse YAML, validate the whole document, then resolve secret references.
 * Any problem throws one `FeedsConfigError` listing every bad field with the file name, so the
 * service refuses to start instead of running with half a configuration.
 *
 * Secrets are written as `${ENV_NAME}` (anywhere in a value) or `file:/path` (a whole value; the
 * file's content, trailing newline dropped). Credential fields come back as `Secret`.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import yaml from 'js-yaml';
import type { TSchema } from 'typebox';
import { Value } from 'typebox/value';
import {
  AIS_SCHEMAS,
  AUTH_SCHEMAS,
  CarrierSchema,
  FeedsFileSchema,
  SCAC_PATTERN,
  TERMINAL_ID_PATTERN,
  TerminalSchema,
  type RawAisSource,
  type RawAuth,
} from './schema';
import { Secret, secretProblem, type SecretUse } from './secret';

export type FeedAuth =
  | { type: 'none' }
  | { type: 'headers'; headers: Record<string, Secret> }
  | { type: 'bearer'; token: Secret; headers?: Record<string, Secret> }
  | { type: 'basic'; username: Secret; password: Secret; headers?: Record<string, Secret> }
  | {
      type: 'oauth2_client_credentials';
      tokenUrl: string;
      clientId: Secret;
      clientSecret: Secret;
      scope?: string;
      audience?: string;
      /** Static headers sent next to the token (composed auth). */
      headers?: Record<string, Secret>;
    };

export interface SourceLimits {
  requestsPerMinute?: number;
  concurrency?: number;
  timeoutMs?: number;
}

export interface CarrierFeed extends SourceLimits {
  scac: string;
  dcsaBaseUrl: string;
  auth: FeedAuth;
  subscriptions: boolean;
  /** Also ask the carrier's import-deadlines extension for the line LFD. */
  importDeadlines: boolean;
}

export interface TerminalFeed extends SourceLimits {
  id: string;
  url: string;
  auth: FeedAuth;
}

export type AisFeed =
  | { type: 'nmea_tcp'; host: string; port: number }
  | { type: 'nmea_udp'; host?: string; port: number };

export interface FeedsConfig {
  /** The file it came from, or a label such as `simulated world` for a built config. */
  origin: string;
  carriers: CarrierFeed[];
  terminals: TerminalFeed[];
  ais: AisFeed[];
  publicBaseUrl?: string;
}

export class FeedsConfigError extends Error {
  constructor(
    readonly origin: string,
    readonly problems: string[],
  ) {
    super(`Invalid feeds configuration ${origin}:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'FeedsConfigError';
  }
}

export interface SecretEnvironment {
  env: Record<string, string | undefined>;
  readFile: (file: string) => string;
}

const defaultSecretEnvironment = (): SecretEnvironment => ({
  env: process.env,
  readFile: (file) => readFileSync(file, 'utf8'),
});

/**
 * `${NAME}` is not valid inside a YAML flow mapping (`{ id: ${X} }`), yet that is how operators
 * write it. References are swapped for a plain-scalar-safe marker before parsing and resolved
 * after validation, which also keeps secret values out of YAML parsing entirely.
 */
const ENV_REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;
const MARKER = /QSENVREF__([A-Za-z_][A-Za-z0-9_]*?)__QSENVREF/g;

function protectReferences(text: string): string {
  return text.replace(ENV_REFERENCE, (_m, name: string) => `QSENVREF__${name}__QSENVREF`);
}

/** Reads and loads a feeds file; every failure, including a missing file, is a FeedsConfigError. */
export function loadFeedsFile(
  file: string,
  secrets: SecretEnvironment = defaultSecretEnvironment(),
): FeedsConfig {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new FeedsConfigError(file, [
      code === 'ENOENT' ? 'file not found' : `cannot read: ${code ?? String(err)}`,
    ]);
  }
  let document: unknown;
  try {
    document = yaml.load(protectReferences(text), { filename: file, schema: yaml.CORE_SCHEMA });
  } catch (err) {
    const reason = err instanceof yaml.YAMLException ? err.reason : String(err);
    const mark = err instanceof yaml.YAMLException ? err.mark : undefined;
    const where = mark ? ` at line ${mark.line + 1}, column ${mark.column + 1}` : '';
    throw new FeedsConfigError(file, [`not valid YAML${where}: ${reason}`]);
  }
  if (expandsBeyond(document, MAX_DOCUMENT_VALUES))
    throw new FeedsConfigError(file, [
      `the document expands to more than ${MAX_DOCUMENT_VALUES} values through YAML aliases (*name); write the values out`,
    ]);
  return parseFeedsConfig(document ?? {}, file, secrets);
}

/**
 * Most values a feeds file may stand for once its aliases are followed: a real one has a few
 * hundred, while nine lines of nested aliases (an "alias bomb") stand for hundreds of millions,
 * which validation would walk one by one.
 */
export const MAX_DOCUMENT_VALUES = 10_000;

/** True when walking `document` (aliases followed) meets more than `limit` values; stops there. */
function expandsBeyond(document: unknown, limit: number): boolean {
  let seen = 0;
  const stack: unknown[] = [document];
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value !== 'object' || value === null) continue;
    const children = Array.isArray(value) ? value : Object.values(value);
    seen += children.length;
    if (seen > limit) return true;
    stack.push(...children);
  }
  return false;
}

/**
 * Validates an already parsed document (a user's YAML or a config object built in code, such as
 * the simulated world's) and resolves its secrets.
 */
export function parseFeedsConfig(
  document: unknown,
  origin: string,
  secrets: SecretEnvironment = defaultSecretEnvironment(),
): FeedsConfig {
  const problems: string[] = [];
  const ok = check(FeedsFileSchema, document, '', problems);
  if (!ok) throw new FeedsConfigError(origin, problems);
  const doc = document as {
    carriers?: Record<string, unknown>;
    ais?: unknown[];
    terminals?: Record<string, unknown>;
    public_base_url?: string;
  };
  const resolver = new Resolver(secrets, problems);

  const carriers: CarrierFeed[] = [];
  for (const [scac, raw] of Object.entries(doc.carriers ?? {})) {
    const at = `/carriers/${scac}`;
    if (!SCAC_PATTERN.test(scac)) {
      problems.push(`${at}: expected a SCAC (2-4 capital letters or digits) as the key`);
      continue;
    }
    if (!check(CarrierSchema, raw, at, problems)) continue;
    const c = raw as {
      dcsa: string;
      auth?: unknown;
      requests_per_minute?: number;
      concurrency?: number;
      subscriptions?: boolean;
      import_deadlines?: boolean;
      timeout_ms?: number;
    };
    const dcsa = checkUrl(resolver.text(c.dcsa, `${at}/dcsa`), `${at}/dcsa`, problems);
    const auth = parseAuth(c.auth, `${at}/auth`, problems, resolver);
    if (dcsa === null || auth === null) continue;
    carriers.push({
      scac,
      dcsaBaseUrl: dcsa,
      auth,
      subscriptions: c.subscriptions ?? false,
      importDeadlines: c.import_deadlines ?? false,
      requestsPerMinute: c.requests_per_minute,
      concurrency: c.concurrency,
      timeoutMs: c.timeout_ms,
    });
  }

  const terminals: TerminalFeed[] = [];
  for (const [id, raw] of Object.entries(doc.terminals ?? {})) {
    const at = `/terminals/${id}`;
    if (!TERMINAL_ID_PATTERN.test(id)) {
      problems.push(`${at}: expected a terminal id of letters, digits, '-' or '_' as the key`);
      continue;
    }
    if (!check(TerminalSchema, raw, at, problems)) continue;
    const t = raw as {
      url: string;
      auth?: unknown;
      requests_per_minute?: number;
      concurrency?: number;
      timeout_ms?: number;
    };
    const url = checkUrl(resolver.text(t.url, `${at}/url`), `${at}/url`, problems);
    const auth = parseAuth(t.auth, `${at}/auth`, problems, resolver);
    if (url === null || auth === null) continue;
    terminals.push({
      id,
      url,
      auth,
      requestsPerMinute: t.requests_per_minute,
      concurrency: t.concurrency,
      timeoutMs: t.timeout_ms,
    });
  }

  const ais: AisFeed[] = [];
  (doc.ais ?? []).forEach((raw, index) => {
    const at = `/ais/${index}`;
    const source = checkByType<RawAisSource>(AIS_SCHEMAS, raw, at, problems);
    if (source === null) return;
    ais.push(
      source.type === 'nmea_tcp'
        ? { type: 'nmea_tcp', host: resolver.text(source.host, `${at}/host`), port: source.port }
        : {
            type: 'nmea_udp',
            port: source.port,
            ...(source.host !== undefined
              ? { host: resolver.text(source.host, `${at}/host`) }
              : {}),
          },
    );
  });

  let publicBaseUrl: string | undefined;
  if (doc.public_base_url !== undefined) {
    publicBaseUrl =
      checkUrl(
        resolver.text(doc.public_base_url, '/public_base_url'),
        '/public_base_url',
        problems,
      ) ?? undefined;
  }

  if (problems.length > 0) throw new FeedsConfigError(origin, problems);
  return { origin, carriers, terminals, ais, ...(publicBaseUrl ? { publicBaseUrl } : {}) };
}

function parseAuth(
  raw: unknown,
  at: string,
  problems: string[],
  resolver: Resolver,
): FeedAuth | null {
  if (raw === undefined) return { type: 'none' };
  const auth = checkByType<RawAuth>(AUTH_SCHEMAS, raw, at, problems);
  if (auth === null) return null;
  switch (auth.type) {
    case 'none':
      return { type: 'none' };
    case 'headers':
      return { type: 'headers', headers: parseHeaders(auth.headers, at, problems, resolver) };
    case 'bearer':
      return {
        type: 'bearer',
        token: resolver.secret(auth.token, `${at}/token`, 'bearer'),
        ...staticHeaders(auth.headers, at, problems, resolver),
      };
    case 'basic':
      return {
        type: 'basic',
        username: resolver.secret(auth.username, `${at}/username`, 'basic_username'),
        password: resolver.secret(auth.password, `${at}/password`, 'encoded'),
        ...staticHeaders(auth.headers, at, problems, resolver),
      };
    case 'oauth2_client_credentials': {
      const tokenUrl = checkUrl(
        resolver.text(auth.token_url, `${at}/token_url`),
        `${at}/token_url`,
        problems,
      );
      if (tokenUrl === null) return null;
      return {
        type: 'oauth2_client_credentials',
        tokenUrl,
        clientId: resolver.secret(auth.client_id, `${at}/client_id`, 'encoded'),
        clientSecret: resolver.secret(auth.client_secret, `${at}/client_secret`, 'encoded'),
        ...(auth.scope !== undefined ? { scope: resolver.text(auth.scope, `${at}/scope`) } : {}),
        ...(auth.audience !== undefined
          ? { audience: resolver.text(auth.audience, `${at}/audience`) }
          : {}),
        ...staticHeaders(auth.headers, at, problems, resolver),
      };
    }
  }
}

/** Header names checked, values resolved as secrets (a key header is a credential too). */
function parseHeaders(
  raw: Record<string, string>,
  at: string,
  problems: string[],
  resolver: Resolver,
): Record<string, Secret> {
  const headers: Record<string, Secret> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) {
      problems.push(`${at}/headers/${name}: expected an HTTP header name`);
      continue;
    }
    if (name.toLowerCase() === 'authorization') {
      problems.push(`${at}/headers/${name}: the credential of this block sets Authorization`);
      continue;
    }
    headers[name] = resolver.secret(value, `${at}/headers/${name}`, 'header');
  }
  return headers;
}

/** The optional static headers of a credential block, as a spreadable member. */
function staticHeaders(
  raw: Record<string, string> | undefined,
  at: string,
  problems: string[],
  resolver: Resolver,
): { headers?: Record<string, Secret> } {
  return raw === undefined ? {} : { headers: parseHeaders(raw, at, problems, resolver) };
}

/** Resolves `${ENV}` markers and `file:` values, recording a problem (never the value) on failure. */
class Resolver {
  constructor(
    private readonly secrets: SecretEnvironment,
    private readonly problems: string[],
  ) {}

  text(value: string, at: string): string {
    return this.resolve(value, at).value;
  }

  /** Checked for where it goes (`use`) now, so a bad value stops the start, never a request. */
  secret(value: string, at: string, use: SecretUse): Secret {
    const { value: resolved, origin } = this.resolve(value, at);
    const problem = resolved === '' ? null : secretProblem(resolved, use);
    if (problem) this.problems.push(`${at}: the credential (${origin}) ${problem}`);
    return new Secret(resolved, origin);
  }

  private resolve(value: string, at: string): { value: string; origin: string } {
    const names: string[] = [];
    let resolved = value.replace(MARKER, (_m, name: string) => {
      names.push(name);
      const found = this.secrets.env[name];
      if (found === undefined || found === '') {
        this.problems.push(`${at}: environment variable ${name} is not set`);
        return '';
      }
      return found;
    });
    // A reference written inside quotes survives parsing as the literal `${NAME}` marker form.
    if (names.length > 0) return { value: resolved, origin: `env ${names.join(', ')}` };
    if (resolved.startsWith('file:')) {
      const file = resolved.slice('file:'.length);
      if (!path.isAbsolute(file)) {
        this.problems.push(`${at}: expected an absolute path after file:`);
        return { value: '', origin: 'file' };
      }
      try {
        resolved = this.secrets.readFile(file).replace(/\r?\n$/, '');
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code ?? 'unreadable';
        this.problems.push(`${at}: cannot read secret file ${file} (${code})`);
        return { value: '', origin: `file ${file}` };
      }
      if (resolved === '') this.problems.push(`${at}: secret file ${file} is empty`);
      return { value: resolved, origin: `file ${file}` };
    }
    return { value: resolved, origin: 'inline' };
  }
}

function checkByType<T>(
  schemas: Record<string, TSchema>,
  raw: unknown,
  at: string,
  problems: string[],
): T | null {
  const kinds = Object.keys(schemas);
  const type =
    typeof raw === 'object' && raw !== null ? (raw as { type?: unknown }).type : undefined;
  if (typeof type !== 'string' || !Object.hasOwn(schemas, type)) {
    problems.push(`${at}/type: expected one of ${kinds.join(', ')}`);
    return null;
  }
  return check(schemas[type]!, raw, at, problems) ? (raw as T) : null;
}

function check(schema: TSchema, value: unknown, at: string, problems: string[]): boolean {
  if (Value.Check(schema, value)) return true;
  const found = new Set<string>();
  for (const error of Value.Errors(schema, value)) {
    const where = `${at}${error.instancePath}` || '/';
    if (error.keyword === 'boolean') {
      // A key no schema allows (`schema is false` at its path); TypeBox may stop reporting
      // before the `additionalProperties` error that says the same.
      const slash = where.lastIndexOf('/');
      found.add(`${where.slice(0, slash) || '/'}: unknown key '${where.slice(slash + 1)}'`);
    } else if (error.keyword === 'additionalProperties') {
      const keys = (error.params as { additionalProperties?: string[] }).additionalProperties ?? [];
      for (const key of keys) found.add(`${where}: unknown key '${key}'`);
    } else if (error.keyword === 'required') {
      const keys = (error.params as { requiredProperties?: string[] }).requiredProperties ?? [];
      found.add(`${where}: missing ${keys.map((k) => `'${k}'`).join(', ') || error.message}`);
    } else {
      found.add(`${where}: expected ${describe(error.keyword, error.message)}`);
    }
  }
  // Never a failure without a reason.
  if (found.size === 0) found.add(`${at || '/'}: not a valid value here`);
  problems.push(...found);
  return false;
}

function describe(keyword: string, message: string): string {
  if (keyword === 'type') return message.replace(/^must be /, 'a value of type ');
  return message.replace(/^must /, 'a value that must ');
}

function checkUrl(value: string, at: string, problems: string[]): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    problems.push(`${at}: expected an http(s) URL`);
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    problems.push(`${at}: expected an http(s) URL, got ${url.protocol}`);
    return null;
  }
  if (url.username || url.password) {
    problems.push(`${at}: credentials belong in auth, not in the URL`);
    return null;
  }
  return value.replace(/\/+$/, '');
}

export const FEEDS_ENV = 'QUAYSIDE_FEEDS';
export const FEEDS_FILE_NAME = 'feeds.yaml';

/**
 * Where the feeds file comes from: `--feeds`, else `QUAYSIDE_FEEDS`, else `<dataDir>/feeds.yaml`
 * when it exists. Null means no feeds are configured (the service still answers TEST numbers).
 */
export function locateFeedsFile(options: {
  cliPath?: string;
  env?: Record<string, string | undefined>;
  dataDir?: string;
  exists: (file: string) => boolean;
}): string | null {
  if (options.cliPath) return path.resolve(options.cliPath);
  const fromEnv = (options.env ?? process.env)[FEEDS_ENV];
  if (fromEnv) return path.resolve(fromEnv);
  if (options.dataDir) {
    const candidate = path.join(options.dataDir, FEEDS_FILE_NAME);
    if (options.exists(candidate)) return candidate;
  }
  return null;
}
