/**
 * One HTTP GET/POST with a per-request timeout, classified into the outcomes the tracking
 * lifecycle branches on. Never throws: network failures, timeouts and unreadable bodies come back
 * as values so a bad feed can never crash the caller.
 */
import { systemClock } from '../../shared/clock';
import { redactCredentials } from './config/secret';

/** How a source authenticates. DCSA carriers use either an API key header or a bearer token. */
export type FeedCredentials =
  | { kind: 'none' }
  | { kind: 'api-key'; header?: string; key: string }
  | { kind: 'bearer'; token: string };

export interface HttpSourceConfig {
  /** Base URL without a trailing slash requirement, e.g. `https://api.line.example/dcsa`. */
  baseUrl: string;
  credentials?: FeedCredentials;
  /** Per-request timeout in milliseconds. */
  timeoutMs?: number;
  /** Configured authentication (see auth/); applied on top of `credentials`. */
  signer?: RequestSigner;
  /** The source's own rate and concurrency limiter (see limiter.ts). */
  gate?: RequestGate;
  /** Told each lookup's outcome (`found`, `not_found`, `rejected`, ...), e.g. for metrics. */
  onOutcome?: (outcome: string) => void;
}

/** Supplies auth headers per request and learns when the source refused them. */
export interface RequestSigner {
  headers(): Promise<Record<string, string>>;
  /** Called on a 401 for a request sent with `used`; true when one retry is worth it. */
  rejected(used: Record<string, string>): boolean;
}

export interface RequestGate {
  run<T>(task: () => Promise<T>): Promise<T>;
  pauseFor(ms: number): void;
}

export const DEFAULT_TIMEOUT_MS = 10_000;

export type HttpOutcome =
  | { kind: 'response'; status: number; headers: Headers; body: unknown; rawText: string }
  /** 2xx whose body is not JSON at all. */
  | { kind: 'unparseable'; status: number; headers: Headers; rawText: string; error: string }
  | { kind: 'unreachable'; reason: 'timeout' | 'network'; error: string };

export function authHeaders(credentials: FeedCredentials | undefined): Record<string, string> {
  if (!credentials || credentials.kind === 'none') return {};
  if (credentials.kind === 'api-key') return { [credentials.header ?? 'API-Key']: credentials.key };
  return { Authorization: `Bearer ${credentials.token}` };
}

/** Joins a base URL and a path without losing the base URL's own path segments. */
export function joinUrl(baseUrl: string, path: string): URL {
  const base = baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`;
  return new URL(path.replace(/^\/+/, ''), base);
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'DELETE';
  headers?: Record<string, string>;
  body?: unknown;
  /**
   * Real milliseconds: a network timeout is about the socket, never simulated time (a scaled
   * clock at 3600x would otherwise give a 10 s timeout under 3 real milliseconds).
   */
  timeoutMs: number;
}

export async function requestJson(url: URL, options: RequestOptions): Promise<HttpOutcome> {
  const controller = new AbortController();
  let timedOut = false;
  const cancelTimer = systemClock.setTimer(options.timeoutMs, () => {
    timedOut = true;
    controller.abort();
  });
  try {
    const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
    let body: string | undefined;
    if (options.body !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(options.body);
    }
    const response = await fetch(url, {
      method: options.method ?? 'GET',
      headers,
      body,
      signal: controller.signal,
      redirect: 'error',
    });
    // The timeout covers the body too: a server that stalls mid-body is as unreachable as one
    // that never answers.
    const rawText = await response.text();
    if (rawText.trim() === '') {
      return {
        kind: 'response',
        status: response.status,
        headers: response.headers,
        body: null,
        rawText,
      };
    }
    try {
      const parsed: unknown = JSON.parse(rawText);
      return {
        kind: 'response',
        status: response.status,
        headers: response.headers,
        body: parsed,
        rawText,
      };
    } catch (err) {
      return {
        kind: 'unparseable',
        status: response.status,
        headers: response.headers,
        rawText,
        error: err instanceof Error ? err.message : String(err),
      };
    }
  } catch (err) {
    const message = err instanceof Error ? describeFetchError(err) : String(err);
    return {
      kind: 'unreachable',
      reason: timedOut ? 'timeout' : 'network',
      error: timedOut ? `no answer within ${options.timeoutMs} ms` : message,
    };
  } finally {
    cancelTimer();
  }
}

function describeFetchError(err: Error): string {
  const cause = (err as Error & { cause?: unknown }).cause;
  if (cause instanceof Error) return `${err.message}: ${cause.message}`;
  return err.message;
}

/** Truncates a body for error reports so a huge bad page does not flood logs. */
export function excerpt(text: string, max = 200): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/**
 * The outcome with the credentials it was sent with taken out of every text an error message is
 * built from: what fetch said (undici quotes a header value it refuses) and a failed answer's
 * body (a source may echo the header back).
 */
function withoutCredentials(outcome: HttpOutcome, headerValues: string[]): HttpOutcome {
  if (headerValues.length === 0) return outcome;
  // The secret part of `Bearer x` / `Basic x` (the scheme's name is no secret), and the whole
  // value of other headers.
  const values = headerValues.map((v) => v.replace(/^(Bearer|Basic)\s+/i, ''));
  if (outcome.kind === 'unreachable')
    return { ...outcome, error: redactCredentials(outcome.error, values) };
  if (outcome.kind === 'unparseable')
    return {
      ...outcome,
      error: redactCredentials(outcome.error, values),
      rawText: redactCredentials(outcome.rawText, values),
    };
  // A useful answer's text is never quoted in a message; only a failure's is.
  if (outcome.status < 300) return outcome;
  return { ...outcome, rawText: redactCredentials(outcome.rawText, values) };
}

/**
 * A request to a configured source: waits for the source's limiter, signs with its auth, retries
 * once with fresh credentials after a 401, and pauses only this source after a 429 with
 * `Retry-After`. A token endpoint that refuses the client credentials comes back as a 401 answer
 * (a configuration problem); one that cannot be reached as `unreachable`.
 */
export async function sendFeedRequest(
  config: HttpSourceConfig,
  url: URL,
  options: Omit<RequestOptions, 'timeoutMs'>,
): Promise<HttpOutcome> {
  const send = async (): Promise<HttpOutcome> => {
    for (let attempt = 0; ; attempt++) {
      let signed: Record<string, string>;
      try {
        signed = (await config.signer?.headers()) ?? {};
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        if ((err as { refused?: boolean }).refused) {
          return {
            kind: 'response',
            status: 401,
            headers: new Headers(),
            body: null,
            rawText: message,
          };
        }
        return { kind: 'unreachable', reason: 'network', error: message };
      }
      const credentials = { ...authHeaders(config.credentials), ...signed };
      const outcome = withoutCredentials(
        await requestJson(url, {
          ...options,
          headers: { ...options.headers, ...credentials },
          timeoutMs: config.timeoutMs ?? DEFAULT_TIMEOUT_MS,
        }),
        Object.values(credentials),
      );
      if (outcome.kind === 'unreachable') return outcome;
      if (outcome.status === 429 && config.gate) {
        const retryAfter = outcome.headers.get('retry-after');
        const seconds = retryAfter === null ? NaN : Number(retryAfter);
        const at = retryAfter === null ? NaN : Date.parse(retryAfter);
        const waitMs = Number.isFinite(seconds)
          ? seconds * 1000
          : Number.isNaN(at)
            ? 0
            : at - Date.now();
        if (waitMs > 0) config.gate.pauseFor(waitMs);
      }
      if (outcome.status === 401 && attempt === 0 && config.signer?.rejected(signed)) continue;
      return outcome;
    }
  };
  return config.gate ? config.gate.run(send) : send();
}
