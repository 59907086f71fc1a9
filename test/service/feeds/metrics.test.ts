import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { DcsaClient } from '../../../src/service/feeds/dcsa/client';
import { SourceLimiter } from '../../../src/service/feeds/limiter';
import { FeedMetrics, operatorPlugin } from '../../../src/service/feeds/metrics';
import { startServer, type TestServer } from '../../support/http-server';

let app: FastifyInstance | null = null;
let carrier: TestServer | null = null;
afterEach(async () => {
  await app?.close();
  await carrier?.close();
});

/** Parses Prometheus text exposition into `name{labels}` → value, failing on any odd line. */
function parseExposition(text: string): Map<string, number> {
  const samples = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('# HELP ') || line.startsWith('# TYPE ')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*(?:\{[^}]*\})?) (-?[0-9.e+]+|NaN|[+-]Inf)$/.exec(line);
    if (!match) throw new Error(`not Prometheus text: ${line}`);
    samples.set(match[1]!, Number(match[2]));
  }
  return samples;
}

describe('/metrics and /healthz', () => {
  it('serves Prometheus text whose counters move with feed traffic', async () => {
    let pending = 3;
    const metrics = new FeedMetrics({ trackingRequestsByState: () => ({ pending, created: 1 }) });
    carrier = await startServer((req, res) => {
      const known = req.url.searchParams.get('equipmentReference') === 'MSCU6639870';
      res.writeHead(known ? 200 : 500, { 'Content-Type': 'application/json' });
      res.end(known ? '[]' : '{}');
    });
    const client = new DcsaClient('MSCU', {
      baseUrl: carrier.baseUrl,
      gate: new SourceLimiter({
        concurrency: 1,
        onWait: () => metrics.recordRateLimitWait('MSCU'),
      }),
      onOutcome: (outcome) => metrics.recordRequest('carrier', 'MSCU', outcome),
    });
    app = Fastify();
    await app.register(operatorPlugin, { metrics });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const address = app.server.address();
    const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    const scrape = async (): Promise<Map<string, number>> => {
      const response = await fetch(`${base}/metrics`);
      expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
      return parseExposition(await response.text());
    };

    const before = await scrape();
    expect(before.get('quayside_tracking_requests{state="pending"}')).toBe(3);

    await Promise.all([
      client.lookup({ kind: 'equipmentReference', value: 'MSCU6639870' }),
      client.lookup({ kind: 'equipmentReference', value: 'MSCU0000001' }),
    ]);
    metrics.recordCallback('MSCU', 'refused');
    metrics.recordAisSentences('udp:5632', 10, 2);
    metrics.recordSkipped(
      { kind: 'carrier', source: 'MSCU', type: 'EQUIPMENT', id: 'e-1', reason: 'no time' },
      Date.UTC(2026, 0, 2),
    );
    pending = 2;

    const after = await scrape();
    expect(after.get('quayside_feed_requests_total{source="MSCU",kind="carrier"}')).toBe(2);
    expect(
      after.get('quayside_feed_errors_total{source="MSCU",kind="carrier",error="server_error"}'),
    ).toBe(1);
    expect(
      after.get('quayside_feed_last_success_timestamp_seconds{source="MSCU",kind="carrier"}'),
    ).toBeGreaterThan(0);
    expect(after.get('quayside_feed_rate_limit_waits_total{source="MSCU"}')).toBe(1);
    expect(
      after.get('quayside_subscription_callbacks_total{source="MSCU",verdict="refused"}'),
    ).toBe(1);
    expect(after.get('quayside_ais_sentences_total{source="udp:5632",result="rejected"}')).toBe(2);
    expect(after.get('quayside_tracking_requests{state="pending"}')).toBe(2);
    expect(after.get('quayside_feed_skipped_records_total{source="MSCU",kind="carrier"}')).toBe(1);

    const health = await fetch(`${base}/healthz`);
    expect(health.status).toBe(200);
    expect(health.headers.get('cache-control')).toBe('no-store');
    expect(await health.json()).toEqual({
      status: 'ok',
      database: { status: 'ok' },
      feeds: [{ source: 'MSCU', kind: 'carrier', last_success_at: expect.any(String) }],
      skipped_records: [
        {
          source: 'MSCU',
          kind: 'carrier',
          count: 1,
          last: { type: 'EQUIPMENT', id: 'e-1', reason: 'no time', at: '2026-01-02T00:00:00.000Z' },
        },
      ],
    });
  });
});
