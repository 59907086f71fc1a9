/**
 * The operator's view of the feeds in Prometheus form, on a registry of its own (nothing global,
 * so tests and several services in one process do not collide). Feed clients record through the
 * `FeedMetrics` methods; the tracking-requests gauge reads its numbers through a callback the
 * service wiring provides at scrape time.
 */
import type { FastifyPluginAsync } from 'fastify';
import { Counter, Gauge, Registry, collectDefaultMetrics } from 'prom-client';
import type { SkippedRecord } from './skipped';

export type SourceKind = 'carrier' | 'terminal' | 'ais';

export interface FeedMetricsOptions {
  /** Counts of tracking requests per state, read at each scrape. */
  trackingRequestsByState?: () => Record<string, number> | Promise<Record<string, number>>;
  /** Sentence totals per AIS source, read at each scrape (the AIS clients keep the counts). */
  aisSentences?: () => { source: string; decoded: number; rejected: number }[];
  /** Include Node process metrics (memory, event loop lag). */
  processMetrics?: boolean;
}

/** Records a source sent that were skipped as unusable, for /healthz. */
export interface FeedSkippedSummary {
  source: string;
  kind: SourceKind;
  count: number;
  last: { type: string | null; id: string | null; reason: string; at: number };
}

export interface FeedLastSuccess {
  source: string;
  kind: SourceKind;
  /** Unix milliseconds. */
  at: number;
}

export class FeedMetrics {
  readonly registry = new Registry();
  private readonly requests: Counter<'source' | 'kind'>;
  private readonly errors: Counter<'source' | 'kind' | 'error'>;
  private readonly lastSuccess: Gauge<'source' | 'kind'>;
  private readonly rateLimitWaits: Counter<'source'>;
  private readonly callbacks: Counter<'source' | 'verdict'>;
  private readonly aisSentences: Counter<'source' | 'result'>;
  private readonly skipped: Counter<'source' | 'kind'>;
  private readonly skippedBySource = new Map<string, FeedSkippedSummary>();
  /** The same instants as `lastSuccess`, kept for /healthz (the gauge holds no readable map). */
  private readonly lastSuccessAt = new Map<string, FeedLastSuccess>();

  constructor(options: FeedMetricsOptions = {}) {
    const registers = [this.registry];
    this.requests = new Counter({
      name: 'quayside_feed_requests_total',
      help: 'Requests sent to a feed source',
      labelNames: ['source', 'kind'],
      registers,
    });
    this.errors = new Counter({
      name: 'quayside_feed_errors_total',
      help: 'Failed feed requests by kind of failure (unreachable, server_error, rejected, malformed)',
      labelNames: ['source', 'kind', 'error'],
      registers,
    });
    this.lastSuccess = new Gauge({
      name: 'quayside_feed_last_success_timestamp_seconds',
      help: 'When a source last answered usefully (Unix seconds)',
      labelNames: ['source', 'kind'],
      registers,
    });
    this.rateLimitWaits = new Counter({
      name: 'quayside_feed_rate_limit_waits_total',
      help: 'Requests held back by a source limit or a 429 Retry-After',
      labelNames: ['source'],
      registers,
    });
    this.callbacks = new Counter({
      name: 'quayside_subscription_callbacks_total',
      help: 'DCSA subscription callbacks by verdict (accepted, replayed, refused)',
      labelNames: ['source', 'verdict'],
      registers,
    });
    this.skipped = new Counter({
      name: 'quayside_feed_skipped_records_total',
      help: 'Records a source sent that were skipped as unusable (each counted once)',
      labelNames: ['source', 'kind'],
      registers,
    });
    const aisTotals = options.aisSentences;
    this.aisSentences = new Counter({
      name: 'quayside_ais_sentences_total',
      help: 'AIS sentences by result (decoded, rejected)',
      labelNames: ['source', 'result'],
      registers,
      ...(aisTotals
        ? {
            collect(this: Counter<'source' | 'result'>) {
              this.reset();
              for (const { source, decoded, rejected } of aisTotals()) {
                this.inc({ source, result: 'decoded' }, decoded);
                this.inc({ source, result: 'rejected' }, rejected);
              }
            },
          }
        : {}),
    });
    const byState = options.trackingRequestsByState;
    if (byState) {
      new Gauge({
        name: 'quayside_tracking_requests',
        help: 'Tracking requests by state',
        labelNames: ['state'],
        registers,
        async collect() {
          const counts = await byState();
          this.reset();
          for (const [state, count] of Object.entries(counts)) this.set({ state }, count);
        },
      });
    }
    if (options.processMetrics) collectDefaultMetrics({ register: this.registry });
  }

  /** Records one request's outcome (the `outcome` of any feed adapter result). */
  recordRequest(kind: SourceKind, source: string, outcome: string, at: number = Date.now()): void {
    this.requests.inc({ source, kind });
    if (outcome === 'found' || outcome === 'not_found') {
      this.lastSuccess.set({ source, kind }, at / 1000);
      this.lastSuccessAt.set(`${kind} ${source}`, { source, kind, at });
    } else {
      this.errors.inc({ source, kind, error: outcome });
    }
  }

  /** When each source last answered usefully, in the order they first did. */
  lastSuccesses(): FeedLastSuccess[] {
    return [...this.lastSuccessAt.values()];
  }

  /** One record skipped as unusable (told once per record; see SkippedRecords). */
  recordSkipped(record: SkippedRecord, at: number = Date.now()): void {
    const { source, kind, type, id, reason } = record;
    this.skipped.inc({ source, kind });
    const key = `${kind} ${source}`;
    const summary = this.skippedBySource.get(key);
    this.skippedBySource.set(key, {
      source,
      kind,
      count: (summary?.count ?? 0) + 1,
      last: { type, id, reason, at },
    });
  }

  /** Skipped records per source, in the order sources first had one. */
  skippedRecords(): FeedSkippedSummary[] {
    return [...this.skippedBySource.values()];
  }

  recordRateLimitWait(source: string): void {
    this.rateLimitWaits.inc({ source });
  }

  recordCallback(source: string, verdict: 'accepted' | 'replayed' | 'refused'): void {
    this.callbacks.inc({ source, verdict });
  }

  /** For sources that report as they go; sources given in `aisSentences` are read at scrape. */
  recordAisSentences(source: string, decoded: number, rejected: number): void {
    if (decoded > 0) this.aisSentences.inc({ source, result: 'decoded' }, decoded);
    if (rejected > 0) this.aisSentences.inc({ source, result: 'rejected' }, rejected);
  }
}

export interface OperatorPluginOptions {
  metrics: FeedMetrics;
  /**
   * The database's state; `/healthz` answers 503 while it is not ok, so a balancer stops sending
   * this instance traffic it can only answer with 503s. Feeds are reported, never decisive: a
   * carrier's outage is not this instance's.
   */
  database?: () => Promise<{ ok: boolean; detail?: string }>;
}

/** `GET /metrics` (Prometheus text) and `GET /healthz`; no API key, like any scrape target. */
export const operatorPlugin: FastifyPluginAsync<OperatorPluginOptions> = async (app, opts) => {
  app.get('/metrics', { schema: { hide: true } }, async (_req, reply) => {
    const text = await opts.metrics.registry.metrics();
    return reply.type(opts.metrics.registry.contentType).send(text);
  });
  app.get('/healthz', { schema: { hide: true } }, async (_req, reply) => {
    const database = (await opts.database?.()) ?? { ok: true };
    return reply
      .status(database.ok ? 200 : 503)
      .header('cache-control', 'no-store')
      .send({
        status: database.ok ? 'ok' : 'unavailable',
        database: database.ok
          ? { status: 'ok' }
          : { status: 'unavailable', ...(database.detail ? { detail: database.detail } : {}) },
        feeds: opts.metrics.lastSuccesses().map(({ source, kind, at }) => ({
          source,
          kind,
          last_success_at: new Date(at).toISOString(),
        })),
        skipped_records: opts.metrics.skippedRecords().map(({ source, kind, count, last }) => ({
          source,
          kind,
          count,
          last: {
            type: last.type,
            id: last.id,
            reason: last.reason,
            at: new Date(last.at).toISOString(),
          },
        })),
      });
  });
};
