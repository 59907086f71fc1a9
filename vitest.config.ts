import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
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
  'test/service/truckers.test.ts',
  'test/integration/engine-sim.test.ts',
];

/**
 * Tests that start a real server, a child process, a socket listener or the simulated world, or
 * take seconds of work (the living world, OCR, the limits and reference walks): the
 * `integration` project. Every other file outside test/reliability is a `unit` test, the fast
 * loop (`npm run test:fast`).
 */
const INTEGRATION_SUITE = [
  'test/integration/**/*.test.ts',
  'test/cli/**/*.test.ts',
  'test/main/sync/**/*.test.ts',
  'test/packaging/dist.test.ts',
  'test/main/alerts/restart.test.ts',
  'test/main/app-core-offline.test.ts',
  'test/main/app-core.test.ts',
  'test/main/desktop/window-bounds.test.ts',
  'test/main/documents.test.ts',
  'test/main/delivery-order.test.ts',
  'test/main/delivery-order-email.test.ts',
  'test/main/embedded-launcher.test.ts',
  'test/main/spreadsheet-import.test.ts',
  'test/service/documents/**/*.test.ts',
  'test/service/feeds/ais/ais-tcp.test.ts',
  'test/service/feeds/dcsa/callback-replays.test.ts',
  'test/service/feeds/dcsa/dcsa-subscriptions.test.ts',
  'test/service/feeds/metrics.test.ts',
  'test/service/feeds/wired/*.test.ts',
  'test/service/hardening/secrets-at-rest.test.ts',
  'test/service/limits-reference.test.ts',
  'test/service/record-actions.test.ts',
  'test/service/truckers.test.ts',
  'test/service/rendered-cache.test.ts',
  'test/service/routing/route-response.test.ts',
  'test/service/routing/sea-routes-client.test.ts',
  'test/service/shared-rate-limits.test.ts',
  'test/service/store/postgres-store.test.ts',
  'test/service/store/record-counts.test.ts',
  'test/service/tracking/lifecycle.test.ts',
  'test/service/tracking/test-numbers.test.ts',
  'test/service/webhooks/delivery.test.ts',
  'test/sim/ais.test.ts',
  'test/sim/carrier-auth.test.ts',
  'test/sim/dcsa.test.ts',
  'test/sim/living-world.test.ts',
  'test/sim/scaled-clock.test.ts',
  'test/sim/terminal.test.ts',
  // Seconds each (a whole world built, the sea-lane graph, ESLint over probes, a packaged
  // config), or a real server or child process: kept out of the fast loop.
  'test/sim/sea-lanes.test.ts',
  'test/sim/world.test.ts',
  'test/service/mcp/mcp-http.test.ts',
  'test/service/webhooks/api.test.ts',
  'test/main/browser-server.test.ts',
  'test/main/private-data.test.ts',
  'test/scripts/start-fresh-clone.test.ts',
  'test/scripts/architecture-boundaries.test.ts',
  'test/packaging/electron-builder.test.ts',
];

/** Crash, restart, kill and fuzz runs: long, and heavy on the machine. */
const RELIABILITY_SUITE = ['test/reliability/**/*.test.ts'];

/**
 * `npm pack`, installed into an empty folder, served from another one (test/installed): minutes
 * of installing and compiling, so it runs only when named (`npm run test:installed`).
 */
const INSTALLED_SUITE = ['test/installed/**/*.test.ts'];
const installedAskedFor = process.argv.some((arg) => /^(--project=)?installed$/.test(arg));

/**
 * Vitest's own order runs projects by name, which left the reliability project (three files of
 * 45-50 s each) for last: its final file ran alone for about 45 s at the end of the run. Long
 * projects first, the unit project's short files last, to fill the workers' gaps; within a
 * project Vitest's order stands (sort is stable).
 */
const PROJECT_ORDER = ['reliability', 'integration', 'postgres', 'installed', 'unit'];
class LongProjectsFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification) => {
      const at = PROJECT_ORDER.indexOf(file.project.name);
      return at === -1 ? PROJECT_ORDER.length : at;
    };
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

const postgresMissing = postgresAvailable();
if (postgresMissing) console.warn(`Skipping the PostgreSQL store tests: ${postgresMissing}`);

export default defineConfig({
  test: {
    // Each project names its files (arrays of `extends` would be concatenated).
    exclude: ['test/e2e/**', 'node_modules/**'],
    pool: 'forks',
    // A worker's test files share its loaded modules instead of importing them afresh (about half
    // a second a file: the unit project took 39 s, 15 s without). So a file undoes what it changes
    // of the process (environment variables, umask) in its hooks.
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two cores on CI: keep parallelism modest so real-port integration tests stay stable.
    maxWorkers: 2,
    sequence: { sequencer: LongProjectsFirst },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          exclude: [
            ...INTEGRATION_SUITE,
            ...RELIABILITY_SUITE,
            ...INSTALLED_SUITE,
            'test/e2e/**',
            'node_modules/**',
          ],
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: INTEGRATION_SUITE,
          // Real processes, servers and files: on a busy two-core machine one of these may take
          // several times its idle time. An outer limit only; each test waits on its conditions.
          testTimeout: 120_000,
          // test/cli and others run bin/quayside.mjs, which runs the build; the rest start the
          // built workers.
          globalSetup: ['test/support/build-global-setup.ts'],
        },
      },
      {
        extends: true,
        // Its service and sync processes start the built workers (see build-global-setup.ts).
        test: {
          name: 'reliability',
          include: RELIABILITY_SUITE,
          globalSetup: ['test/support/build-global-setup.ts'],
        },
      },
      ...(installedAskedFor
        ? [
            {
              extends: true as const,
              test: {
                name: 'installed',
                include: INSTALLED_SUITE,
                testTimeout: 20 * 60_000,
                hookTimeout: 20 * 60_000,
              },
            },
          ]
        : []),
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
                globalSetup: [
                  'test/support/postgres-global-setup.ts',
                  'test/support/build-global-setup.ts',
                ],
              },
            },
          ]),
    ],
  },
});
