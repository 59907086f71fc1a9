/**
 * The service with the simulated world beside it (what `quayside serve --sim` runs), in its own
 * process so the soak can sample its RSS. The per-key rate limit is raised: five clients share the
 * demo account's key, and the soak measures the service, not the limiter.
 *
 * Usage: node --import tsx scripts/soak/service.ts <dataDir> <simSpeed>
 * Sends {baseUrl, apiKey} over the IPC channel once listening; SIGTERM closes it cleanly.
 */
import { startEmbeddedService } from '../../src/embedded/service-with-world';

const [dataDir, speed] = process.argv.slice(2);
if (!dataDir || !speed) {
  console.error('usage: service.ts <dataDir> <simSpeed>');
  process.exit(2);
}

const embedded = await startEmbeddedService({
  dataDir,
  simSpeed: Number(speed),
  config: { requestsPerMinute: 100_000 },
  // Some feed faults, so the engine's retry paths run for the whole soak too.
  errorRates: { serverError: 0.02, malformed: 0.01 },
});

process.once('SIGTERM', () => {
  void embedded.close().finally(() => process.exit(0));
});
process.send?.({ baseUrl: embedded.baseUrl, apiKey: embedded.apiKey });
