import { defineConfig } from 'vitest/config';
import { postgresAvailable } from './test/support/postgres';

/**
 * The service's store-broad tests, run a second time on PostgreSQL (test/support/store-kinds.ts):
 * tracking lifecycle, API lists, filters and search, webhooks, route maps, DCSA push.
 */
const POSTGRES_SUITE = [
  'test/service/api.test.ts',
  'test/service/rendered-cache.test.ts',
  'test/service/store/*.test.ts',
  'test/service/tracking/lifecycle.test.ts',
  'test/service/webhooks/api.test.ts',
  'test/service/webhooks/delivery.test.ts',
  'test/service/routing/route-map.test.ts',
  'test/service/feeds/wired/push-subscriptions.test.ts',
  'test/service/feeds/dcsa/callback-replays.test.ts',
  'test/service/shared-rate-limits.test.ts',
  'test/integration/engine-sim.test.ts',
];

const postgresMissing = postgresAvailable();
if (postgresMissing) console.warn(`Skipping the PostgreSQL store tests: ${postgresMissing}`);

export default defineConfig({
  test: {
    // Each project names its files (arrays of `extends` would be concatenated).
    exclude: ['test/e2e/**', 'node_modules/**'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two cores on CI: keep parallelism modest so real-port integration tests stay stable.
    maxWorkers: 2,
    projects: [
      { extends: true, test: { name: 'sqlite', include: ['test/**/*.test.ts'] } },
      ...(postgresMissing
        ? []
        : [
            {
              extends: true as const,
              test: {
                name: 'postgres',
                include: POSTGRES_SUITE,
                env: { QUAYSIDE_TEST_STORE: 'postgres' },
                // Every query is a round trip here: the long simulated-world walks take longer.
                testTimeout: 90_000,
                globalSetup: ['test/support/postgres-global-setup.ts'],
              },
            },
          ]),
    ],
  },
});
