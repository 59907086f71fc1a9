/**
 * One HTTP POST of a webhook body through the SSRF guard: the literal host is checked first, the
 * connection resolves names through the checked lookup, redirects are not followed (a 3xx is an
 * unsuccessful attempt) and the whole exchange is bounded by a timeout.
 */
import { performance } from 'node:perf_hooks';
import type { Agent, request as undiciRequest } from 'undici';
import { checkUrlShape, checkedLookup, type UrlGuardOptions } from './url-guard';

/** Only these answers count as delivered. */
export const DELIVERED_STATUSES: ReadonlySet<number> = new Set([200, 201, 202, 204]);

const RESPONSE_BODY_LIMIT = 64 * 1024;
export const USER_AGENT = 'Quayside Webhook Bot';

export interface SendResult {
  succeeded: boolean;
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
  responseHeaders: Record<string, string> | null;
  responseBody: string | null;
}

export interface SenderOptions extends UrlGuardOptions {
  /** Per-request timeout covering connect, headers and body. */
  timeoutMs: number;
}

export class WebhookSender {
  /**
   * undici with its agent, loaded at the first delivery: the package takes about a quarter of a
   * second to load, which a service start without webhooks to send need not wait for.
   */
  private client?: Promise<{ agent: Agent; request: typeof undiciRequest }>;
  private readonly active = new Set<AbortController>();

  constructor(private readonly options: SenderOptions) {}

  private http() {
    this.client ??= import('undici').then(({ Agent, request }) => ({
      request,
      agent: new Agent({
        connect: { lookup: checkedLookup(this.options), timeout: this.options.timeoutMs },
        headersTimeout: this.options.timeoutMs,
        bodyTimeout: this.options.timeoutMs,
        keepAliveTimeout: 4_000,
      }),
    }));
    return this.client;
  }

  async post(url: string, body: string, headers: Record<string, string>): Promise<SendResult> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    const shape = checkUrlShape(url, this.options);
    if ('error' in shape) return failure(shape.error, elapsed());

    const abort = new AbortController();
    this.active.add(abort);
    let timedOut = false;
    // A real timer: this bounds network I/O, not scheduled work.
    const timer = setTimeout(() => {
      timedOut = true;
      abort.abort();
    }, this.options.timeoutMs);
    try {
      const { agent, request } = await this.http();
      const res = await request(shape.target.url, {
        method: 'POST',
        body,
        headers: {
          ...headers,
          'content-type': 'application/json',
          'user-agent': USER_AGENT,
        },
        dispatcher: agent,
        signal: abort.signal,
      });
      const responseBody = await readLimited(res.body);
      const responseHeaders: Record<string, string> = {};
      for (const [k, v] of Object.entries(res.headers)) {
        if (v !== undefined) responseHeaders[k] = Array.isArray(v) ? v.join(', ') : v;
      }
      const succeeded = DELIVERED_STATUSES.has(res.statusCode);
      let error: string | null = null;
      if (!succeeded) {
        error =
          res.statusCode >= 300 && res.statusCode < 400
            ? `redirect not followed (HTTP ${res.statusCode}${responseHeaders.location ? ` to ${responseHeaders.location}` : ''})`
            : `HTTP ${res.statusCode}`;
      }
      return {
        succeeded,
        statusCode: res.statusCode,
        latencyMs: elapsed(),
        error,
        responseHeaders,
        responseBody,
      };
    } catch (err) {
      const message = timedOut
        ? `timed out after ${this.options.timeoutMs} ms`
        : abort.signal.aborted
          ? 'aborted: the service is stopping'
          : describeError(err);
      return failure(message, elapsed());
    } finally {
      clearTimeout(timer);
      this.active.delete(abort);
    }
  }

  async close(): Promise<void> {
    if (this.client) await (await this.client).agent.close();
  }

  /** Aborts the requests in flight (the sender stays usable). */
  abortAll(): void {
    for (const abort of this.active) abort.abort();
  }
}

function failure(error: string, latencyMs: number): SendResult {
  return {
    succeeded: false,
    statusCode: null,
    latencyMs,
    error,
    responseHeaders: null,
    responseBody: null,
  };
}

function describeError(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  // undici wraps connect failures; the cause carries the useful part (e.g. the SSRF refusal).
  const cause = (err as { cause?: unknown }).cause;
  const base = cause instanceof Error ? cause.message : err.message;
  return base || err.name;
}

async function readLimited(body: AsyncIterable<Buffer> & { destroy(): void }): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= RESPONSE_BODY_LIMIT) {
      body.destroy();
      break;
    }
  }
  return Buffer.concat(chunks).subarray(0, RESPONSE_BODY_LIMIT).toString('utf8');
}
