/**
 * Per-account request budgets with several instances: on PostgreSQL every instance behind the
 * load balancer draws on one budget per account, so an API key gets its limit in total, not
 * once per instance; concurrent requests never take more than the budget. Runs on both stores
 * (vitest.config.ts POSTGRES_SUITE); the two-instance case needs PostgreSQL.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../../src/service';
import { testStoreKind } from '../support/store-kinds';
import { FIXTURE_REFERENCE_DIR, startTestService, type TestService } from '../support/service';

let t: TestService | undefined;
const others: RunningService[] = [];
afterEach(async () => {
  for (const other of others.splice(0)) await other.close();
  await t?.close();
  t = undefined;
});

const LIMIT = 5;

/** Another instance on the test service's database, with the same clocks and the given limit. */
async function secondInstance(requestsPerMinute: number): Promise<RunningService> {
  const b = await startService({
    dataDir: t!.dataDir,
    database: t!.database,
    host: '127.0.0.1',
    port: 0,
    clock: t!.clock,
    wallClock: t!.wallClock,
    referenceDir: FIXTURE_REFERENCE_DIR,
    config: { requestsPerMinute },
  });
  others.push(b);
  return b;
}

async function status(
  baseUrl: string,
  key: string,
): Promise<{ status: number; retry: string | null }> {
  const res = await fetch(`${baseUrl}/shipments`, { headers: { Authorization: `Token ${key}` } });
  await res.arrayBuffer();
  return { status: res.status, retry: res.headers.get('retry-after') };
}

describe(`request budgets (${testStoreKind()})`, () => {
  it('never lets concurrent requests take more than the budget', async () => {
    t = await startTestService({ requestsPerMinute: LIMIT });
    const answers = await Promise.all(
      Array.from({ length: 3 * LIMIT }, () => status(t!.baseUrl, t!.keyA)),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(LIMIT);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(2 * LIMIT);
  });

  it.skipIf(testStoreKind() !== 'postgres')(
    'reads that ran beside their take are refused when another instance used the budget up',
    async () => {
      const limit = 50;
      t = await startTestService({ requestsPerMinute: limit });
      const b = await secondInstance(limit);
      // The first answer tells this instance the budget has plenty of room, so its next reads
      // start before their takes are counted...
      expect((await status(t.baseUrl, t.keyA)).status).toBe(200);
      // ...but the other instance then uses all but four places.
      for (let i = 0; i < limit - 5; i++)
        expect((await status(b.baseUrl, t.keyA)).status).toBe(200);
      const answers = await Promise.all(
        Array.from({ length: 10 }, () =>
          fetch(`${t!.baseUrl}/shipments`, { headers: { Authorization: `Token ${t!.keyA}` } }),
        ),
      );
      const ok = answers.filter((r) => r.status === 200);
      const refused = answers.filter((r) => r.status === 429);
      expect(ok).toHaveLength(4);
      expect(refused).toHaveLength(6);
      for (const r of refused) {
        expect(r.headers.get('retry-after')).toBe('60');
        expect(r.headers.get('content-type')).toContain('application/vnd.api+json');
        const body = (await r.json()) as { data?: unknown; errors: { status: string }[] };
        expect(body.data).toBeUndefined();
        expect(body.errors[0]).toMatchObject({ status: '429', detail: 'Rate limit exceeded' });
      }
      for (const r of ok) expect(((await r.json()) as { data: unknown[] }).data).toBeDefined();
    },
  );

  it.skipIf(testStoreKind() !== 'postgres')(
    'two instances on one database share one budget per account',
    async () => {
      t = await startTestService({ requestsPerMinute: LIMIT });
      const b = await secondInstance(LIMIT);

      // Sent to both instances at once, as a round-robin balancer would.
      const answers = await Promise.all(
        Array.from({ length: 4 * LIMIT }, (_, i) =>
          status(i % 2 ? b.baseUrl : t!.baseUrl, t!.keyA),
        ),
      );
      expect(answers.filter((a) => a.status === 200)).toHaveLength(LIMIT);
      expect(answers.filter((a) => a.status === 429).every((a) => a.retry === '60')).toBe(true);
      // Another account has its own budget, on either instance.
      expect((await status(b.baseUrl, t.keyB)).status).toBe(200);

      t.wallClock.advance(30_000);
      expect(await status(b.baseUrl, t.keyA)).toEqual({ status: 429, retry: '30' });
      t.wallClock.advance(30_001);
      expect((await status(b.baseUrl, t.keyA)).status).toBe(200);
      expect((await status(t.baseUrl, t.keyA)).status).toBe(200);
    },
  );
});
