/**
 * The one way from a validated feeds configuration (a user's feeds.yaml, or the simulated
 * world's document) to the clients the tracking engine runs: each carrier and terminal gets its
 * authenticator, its own limiter and metrics; the AIS sources are passed on as configured.
 */
import { createAuthenticator } from './auth';
import type { FeedsConfig, SourceLimits } from './config/load';
import type { FeedConfig } from './index';
import { SourceLimiter } from './limiter';
import type { FeedMetrics, SourceKind } from './metrics';

function sourceSettings(
  kind: SourceKind,
  name: string,
  limits: SourceLimits,
  metrics: FeedMetrics | undefined,
) {
  return {
    timeoutMs: limits.timeoutMs,
    gate: new SourceLimiter({
      requestsPerMinute: limits.requestsPerMinute,
      concurrency: limits.concurrency,
      onWait: () => metrics?.recordRateLimitWait(`${kind} ${name}`),
    }),
    onOutcome: (outcome: string) => metrics?.recordRequest(kind, name, outcome),
  };
}

export function engineFeedConfig(config: FeedsConfig, metrics?: FeedMetrics): FeedConfig {
  return {
    carriers: Object.fromEntries(
      config.carriers.map((carrier) => [
        carrier.scac,
        {
          baseUrl: carrier.dcsaBaseUrl,
          signer: createAuthenticator(carrier.auth, { timeoutMs: carrier.timeoutMs }),
          importDeadlines: carrier.importDeadlines,
          subscriptions: carrier.subscriptions,
          ...sourceSettings('carrier', carrier.scac, carrier, metrics),
        },
      ]),
    ),
    terminals: Object.fromEntries(
      config.terminals.map((terminal) => [
        terminal.id,
        {
          name: terminal.id,
          baseUrl: terminal.url,
          signer: createAuthenticator(terminal.auth, { timeoutMs: terminal.timeoutMs }),
          ...sourceSettings('terminal', terminal.id, terminal, metrics),
        },
      ]),
    ),
    ais: config.ais,
    ...(config.publicBaseUrl ? { publicBaseUrl: config.publicBaseUrl } : {}),
  };
}

/** SCACs this configuration can track (TEST numbers are answered on every service). */
export function configuredScacs(config: FeedsConfig): string[] {
  return config.carriers.map((c) => c.scac).sort();
}

/** A configuration with no sources: the service answers TEST numbers and nothing else. */
export function emptyFeedsConfig(origin = 'no feeds configured'): FeedsConfig {
  return { origin, carriers: [], terminals: [], ais: [] };
}
