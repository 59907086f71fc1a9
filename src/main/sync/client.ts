/**
 * HTTP client for any /v2 tracking service: `Authorization: Token <key>`, a per-request
 * timeout, Retry-After on 429, exponential backoff with full jitter on 5xx, network errors,
 * timeouts and unreadable bodies (but two refused connections or two timeouts in a row end the
 * request: the service is gone or hung), and a request budget for remote services. Waits run on
 * the injected clock; the timeout is wall-clock time (it guards a real socket).
 */
import type { Clock } from '../../shared/clock';
import { isLoopback } from '../connection/service-connection';
import { RequestBudget } from '../connection/request-budget';
import { parseJsonSliced } from './sliced-json';
import { collectionEnvelope } from './validate';

export type V2ErrorKind =
  | 'unreachable'
  | 'timeout'
  | 'key_refused'
  | 'forbidden'
  | 'not_found'
  | 'rate_limited'
  | 'server_error'
  | 'bad_response'
  | 'http';

/** A failure with a plain-words message meant for the user. */
export class V2Error extends Error {
  constructor(
    readonly kind: V2ErrorKind,
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

export interface V2ClientOptions {
  baseUrl: string;
  apiKey: string;
  clock: Clock;
  /**
   * Wall-clock limit per request. Default 10 s for a loopback service (the embedded one answers
   * in milliseconds; longer means it hangs) and 30 s for a remote one.
   */
  timeoutMs?: number;
  /** Attempts per request, the first included. */
  maxAttempts?: number;
  /**
   * The service's shared budget (see ServiceBudgets); null: none. Default: none for loopback
   * services, a fresh 10 + 85/min bucket otherwise.
   */
  budget?: RequestBudget | null;
  random?: () => number;
  /** Hears when a request starts (true) and stops (false) waiting for the budget. */
  onBudgetWait?: (waiting: boolean) => void;
}

export interface V2Response {
  status: number;
  body: unknown;
  headers: Headers;
}

/** Parses a Retry-After header (seconds or an HTTP date) into milliseconds. */
export function retryAfterMs(header: string | null, now: number): number | null {
  if (!header) return null;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

export class V2Client {
  readonly base: URL;
  /** HTTP requests sent, retries included. */
  requests = 0;
  private readonly budget: RequestBudget | null;
  private readonly timeoutMs: number;
  private readonly maxAttempts: number;
  private readonly random: () => number;

  constructor(private readonly options: V2ClientOptions) {
    this.base = new URL(options.baseUrl.endsWith('/') ? options.baseUrl : `${options.baseUrl}/`);
    this.budget =
      options.budget !== undefined
        ? options.budget
        : isLoopback(this.base)
          ? null
          : new RequestBudget(options.clock);
    this.timeoutMs = options.timeoutMs ?? (isLoopback(this.base) ? 10_000 : 30_000);
    this.maxAttempts = options.maxAttempts ?? 6;
    this.random = options.random ?? Math.random;
  }

  /** `path` relative to the base ("shipments?x=1"), or an absolute link the server gave. */
  resolve(pathOrUrl: string): URL {
    const url = new URL(pathOrUrl.replace(/^\//, ''), this.base);
    // The key goes only to the configured service, whatever a link says.
    if (url.origin !== this.base.origin) {
      throw new V2Error('bad_response', `The service sent a link to another host (${url.host}).`);
    }
    return url;
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => this.options.clock.setTimer(ms, resolve));
  }

  private backoff(attempt: number): number {
    const cap = Math.min(30_000, 500 * 2 ** attempt);
    return Math.round(cap / 2 + (this.random() * cap) / 2);
  }

  /**
   * GET with retries. Statuses in `accept` (besides 2xx) are returned instead of thrown, e.g.
   * 304 and 403 for map data.
   */
  async get(
    pathOrUrl: string,
    options: {
      headers?: Record<string, string>;
      accept?: readonly number[];
      /** Reads the body from its text (JSON.parse in slices by default). */
      read?: (text: string) => Promise<unknown>;
    } = {},
  ): Promise<V2Response> {
    const url = this.resolve(pathOrUrl);
    let last: V2Error = new V2Error('unreachable', 'The service could not be reached.');
    let timeouts = 0;
    let refusals = 0;
    for (let attempt = 0; attempt < this.maxAttempts; attempt++) {
      // A service that let two requests in a row run out of time is hung, not slow, and one
      // that refused two connections in a row (or whose host is not found twice) is not there:
      // the run ends with a plain reason at once instead of waiting out every attempt's backoff,
      // so the board says Offline within a second (the next run tries again).
      if (timeouts >= MAX_TIMEOUTS_PER_REQUEST || refusals >= MAX_REFUSALS_PER_REQUEST) break;
      if (attempt > 0) await this.sleep(this.waitBefore(last, attempt));
      if (this.budget) await this.takeBudget(this.budget);
      this.requests++;
      let response: Response;
      let text: string;
      try {
        const signal = AbortSignal.timeout(this.timeoutMs);
        response = await fetch(url, {
          headers: {
            Authorization: `Token ${this.options.apiKey}`,
            Accept: 'application/vnd.api+json, application/json',
            ...options.headers,
          },
          signal,
          redirect: 'manual',
        });
        text = await response.text();
      } catch (error) {
        last = networkError(error, url, this.timeoutMs);
        timeouts = last.kind === 'timeout' ? timeouts + 1 : 0;
        refusals = neverOpened(error) ? refusals + 1 : 0;
        continue;
      }
      timeouts = 0;
      refusals = 0;
      const status = response.status;
      if (status === 429) {
        last = new V2Error('rate_limited', 'The service is rate limiting requests.', 429);
        (last as V2Error & { retryAfter?: number | null }).retryAfter = retryAfterMs(
          response.headers.get('retry-after'),
          this.options.clock.now(),
        );
        continue;
      }
      if (status >= 500) {
        last = new V2Error('server_error', `The service failed (HTTP ${status}).`, status);
        continue;
      }
      const accepted = options.accept?.includes(status) ?? false;
      if (!accepted && (status < 200 || status >= 300)) throw statusError(status, url);
      let body: unknown = null;
      if (text.length > 0) {
        try {
          // Large pages in pieces, so the app stays responsive while a sync reads them.
          body = await (options.read ?? parseJsonSliced)(text);
        } catch (error) {
          if (!(error instanceof SyntaxError)) throw error;
          // A cut-off body is a transport failure: try again.
          last = new V2Error('bad_response', 'The service sent an unreadable (non-JSON) answer.');
          if (status >= 200 && status < 300) continue;
        }
      }
      return { status, body, headers: response.headers };
    }
    throw last;
  }

  private async takeBudget(budget: RequestBudget): Promise<void> {
    if (!budget.wouldWait()) return budget.take();
    this.options.onBudgetWait?.(true);
    try {
      await budget.take();
    } finally {
      this.options.onBudgetWait?.(false);
    }
  }

  private waitBefore(last: V2Error, attempt: number): number {
    const retryAfter = (last as V2Error & { retryAfter?: number | null }).retryAfter;
    if (last.kind === 'rate_limited' && retryAfter != null) return Math.min(retryAfter, 600_000);
    return this.backoff(attempt - 1);
  }

  /**
   * Walks a collection page by page through `links.next`. Yields each page as it arrives, so the
   * caller commits page by page. The next page is requested while the caller works on the
   * current one, so the service's time overlaps with the caller's validation and writes; pages
   * are still handed over strictly in order. `reading` turns a page's text into the page (its
   * `data` and `included` by default).
   */
  async *pages<P = CollectionPage>(
    path: string,
    reading: PageReading<P> = PLAIN_PAGES as unknown as PageReading<P>,
  ): AsyncGenerator<P> {
    const visited = new Set<string>();
    const request = (next: string) => {
      const url = this.resolve(next).toString();
      if (visited.has(url)) throw new V2Error('bad_response', 'The service sent a paging loop.');
      visited.add(url);
      const response = this.get(url, { read: reading.read });
      // Awaited below; this only keeps a failure of a page nobody waits for any more (the
      // caller stopped early) from surfacing as an unhandled rejection.
      response.catch(() => undefined);
      return response;
    };
    let pending: Promise<V2Response> | null = request(path);
    while (pending) {
      const page = (await pending).body as P | null;
      if (!page) {
        throw new V2Error(
          'bad_response',
          'The service answered with something that is not a /v2 list.',
        );
      }
      const next = reading.next(page);
      pending = next ? request(next) : null;
      yield page;
    }
  }

  /**
   * `pages(path)` with its first request sent now rather than at the first read. A failure of
   * that request surfaces when the pages are read (and nowhere if they never are).
   */
  startPages<P = CollectionPage>(path: string, reading?: PageReading<P>): AsyncIterable<P> {
    const pages = this.pages(path, reading);
    const first = pages.next();
    first.catch(() => undefined);
    return {
      async *[Symbol.asyncIterator]() {
        for (let next = await first; !next.done; next = await pages.next()) yield next.value;
      },
    };
  }
}

/** How a walk reads its pages' bodies (see V2Client.pages). */
export interface PageReading<P> {
  /** The page from the body's text; null when it is no /v2 list. Unreadable JSON: SyntaxError. */
  read(text: string): Promise<P | null>;
  /** The page's `links.next`, null on the last page. */
  next(page: P): string | null;
}

/** A page as JSON, its `data` and `included` unchecked. */
const PLAIN_PAGES: PageReading<CollectionPage & { next: string | null }> = {
  read: async (text) => collectionEnvelope(await parseJsonSliced(text)),
  next: (page) => page.next,
};

/** One page of a collection walk. */
export interface CollectionPage {
  data: unknown[];
  included: unknown[];
  total: number | null;
}

/** Timed-out attempts of one request after which the service counts as not answering. */
const MAX_TIMEOUTS_PER_REQUEST = 2;
/** Connections in a row that never opened (neverOpened) after which the service counts as gone. */
const MAX_REFUSALS_PER_REQUEST = 2;

/**
 * Why a connection never opened: no host by that name, nothing listening there, or a port fetch
 * never connects to (the Fetch standard's blocked ports, e.g. 9, 25, 6000, where no attempt
 * reaches the network). Undefined for one that opened and then failed or timed out, which is
 * worth retrying soon.
 */
function neverOpened(error: unknown): 'host_not_found' | 'refused' | 'blocked_port' | undefined {
  const cause = (error as { cause?: { code?: string; message?: string } })?.cause;
  if (cause?.code === 'ENOTFOUND' || cause?.code === 'EAI_AGAIN') return 'host_not_found';
  if (cause?.code === 'ECONNREFUSED') return 'refused';
  if (cause?.message === 'bad port') return 'blocked_port';
  return undefined;
}

const duration = (ms: number): string =>
  ms >= 1_000 ? `${Math.round(ms / 1_000)} s` : `${Math.round(ms)} ms`;

function networkError(error: unknown, url: URL, timeoutMs: number): V2Error {
  const name = (error as { name?: string })?.name;
  if (name === 'TimeoutError' || name === 'AbortError') {
    return new V2Error(
      'timeout',
      `The tracking service at ${url.host} did not answer within ${duration(timeoutMs)}.`,
    );
  }
  const why = neverOpened(error);
  if (why === 'host_not_found') {
    return new V2Error('unreachable', `The host ${url.hostname} could not be found.`);
  }
  if (why === 'refused') {
    return new V2Error('unreachable', `Nothing is listening at ${url.host}.`);
  }
  if (why === 'blocked_port') {
    return new V2Error(
      'unreachable',
      `Port ${url.port} is reserved for another protocol and cannot be used for the tracking service.`,
    );
  }
  return new V2Error('unreachable', `The service at ${url.host} could not be reached.`);
}

function statusError(status: number, url: URL): V2Error {
  if (status === 401) return new V2Error('key_refused', 'The service refused the API key.', status);
  if (status === 403) {
    return new V2Error('forbidden', 'The API key is not allowed to read this.', status);
  }
  if (status === 404) {
    return new V2Error('not_found', `Nothing found at ${url.pathname}.`, status);
  }
  if (status >= 300 && status < 400) {
    return new V2Error('http', `The service redirected the request (HTTP ${status}).`, status);
  }
  return new V2Error('http', `The service refused the request (HTTP ${status}).`, status);
}
