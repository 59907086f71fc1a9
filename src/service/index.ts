/**
 * Programmatic entry points of the tracking service, used by the `quayside serve` command,
 * tests, benches and the desktop app's embedded mode.
 */
import path from 'node:path';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { systemClock, type Clock } from '../shared/clock';
import { APP_ROOT } from '../native/app-root';
import { buildApp } from './app';
import { CustomFields } from './custom-fields';
import { Renderer } from './resources/batch-render';
import { createTrackingRequest } from './tracking/requests';
import { Documents } from './documents';
import { DEFAULT_CONFIG, type ServiceConfig, type ServiceContext } from './context';
import { storedPortCalls } from './routing';
import { marineSeaRoutes } from './routing/sea-routes-client';
import { createRouteMapService } from './routing/route-map-service';
import { loadInlandLeg } from './routing/inland-source';
import type { AccountStore } from './store/accounts';
import { resolveSecretKey, SecretBox } from './security/secret-box';
import type { PostgresOptions } from './store/dialect';
import { openServiceStorage } from './store/open';
import { readReferenceDir, type ReferenceData } from './store/reference';
import type { ServiceStorage } from './store';
import type { FeedsConfig } from './feeds/config';
import { FeedMetrics } from './feeds/metrics';
import { configuredScacs, engineFeedConfig } from './feeds/runtime';
import { TrackingEngine, type EngineLogger, type TrackingEngineOptions } from './tracking/engine';
import { Webhooks } from './webhooks';
import type { DeliveryPolicy } from './webhooks/worker';
import type { EventSink } from './events/event-sink';

export type { ServiceConfig } from './context';
export { TrackingStore } from './store/tracking-store';
export { AccountStore } from './store/accounts';

/**
 * resources/reference of the app folder (a checkout or an installed package), found from the
 * app root because built code may sit in out/main or in a chunk below it.
 */
export const SHIPPED_REFERENCE_DIR = path.join(APP_ROOT, 'resources', 'reference');

export interface ServiceOptions {
  dataDir: string;
  /**
   * Keep the service's rows in this PostgreSQL database instead of the SQLite file in `dataDir`
   * (which still holds the secret key file and document files unless given otherwise).
   */
  database?: PostgresOptions;
  clock?: Clock;
  /**
   * Key (32 bytes) sealing webhook secrets at rest; default: QUAYSIDE_SECRET_KEY or the data
   * folder's key file (see security/secret-box.ts).
   */
  secretKey?: Buffer;
  /** Real time for the request limits; tests may inject a manual one. Default: system clock. */
  wallClock?: Clock;
  logger?: FastifyServerOptions['loggerInstance'];
  config?: Partial<ServiceConfig>;
  /** Directory of the reference JSON files (default: resources/reference). */
  referenceDir?: string;
  /** Webhook retry and concurrency settings (tests shorten or bound them). */
  webhookPolicy?: Partial<DeliveryPolicy>;
  /**
   * The validated feeds configuration (a feeds file, or the simulated world's document); when
   * given, the tracking engine runs with the service and only its carriers' SCACs (plus TEST)
   * are accepted. `emptyFeedsConfig()` runs the engine for TEST numbers alone.
   */
  feeds?: FeedsConfig;
  /** Tracking engine tuning (intervals, concurrency). */
  engine?: Pick<
    TrackingEngineOptions,
    'concurrency' | 'queueLimit' | 'tickMs' | 'lineIntervalMs' | 'terminalIntervalMs' | 'leaseMs'
  >;
}

export interface ServiceStore {
  accounts: AccountStore;
  /** The store owners and their unit of work (`stores.transaction`). */
  stores: ServiceStorage;
  tracking: ServiceStorage['tracking'];
  reference: ReferenceData;
  context: ServiceContext;
  /** Where the tracking engine records events: the webhook outbox. */
  events: EventSink;
}

export interface ServiceApp {
  app: FastifyInstance;
  store: ServiceStore;
  /** The tracking engine, when the service was given feeds. */
  engine: TrackingEngine | null;
  /** Tells the service the origin it listens at (e.g. http://127.0.0.1:4010). */
  listeningAt(origin: string): void;
  close(): Promise<void>;
}

/** Opens the store, loads reference data and builds the Fastify app (not listening). */
export async function createServiceApp(options: ServiceOptions): Promise<ServiceApp> {
  const clock = options.clock ?? systemClock;
  const secretBox = new SecretBox(resolveSecretKey(options.dataDir, options.secretKey));
  const storage = await openServiceStorage(options.dataDir, {
    secretBox,
    postgres: options.database,
    onConnectionError: (error) =>
      options.logger?.warn({ err: error }, 'database connection lost; reconnecting on next use'),
    reference: readReferenceDir(options.referenceDir ?? SHIPPED_REFERENCE_DIR),
    clock,
  });
  try {
    const { accounts, stores, ref } = storage;
    const tracking = stores.tracking;
    const config = {
      ...DEFAULT_CONFIG,
      // With feeds, the lines it can track are the configured carriers'.
      ...(options.feeds ? { supportedScacs: configuredScacs(options.feeds) } : {}),
      ...options.config,
    };
    const webhooks = new Webhooks(stores.webhooks, ref, clock, {
      allowPrivate: config.allowPrivateWebhooks,
      timeoutMs: config.webhookTimeoutMs,
      policy: options.webhookPolicy,
      logger: options.logger,
      leases: stores.leases,
    });
    const positions = stores.vessels.positionHistory();
    const routeMaps = createRouteMapService({
      source: {
        portCalls: async ({ shipment }) => storedPortCalls(shipment),
        ...stores.vessels.routeLookups(),
        positions,
        inland: loadInlandLeg(tracking, ref),
      },
      clock,
      routes: marineSeaRoutes(),
      copies: stores.routeMapCopies,
    });
    const documents = new Documents({
      stores,
      dataDir: options.dataDir,
      ref,
      clock,
      events: webhooks.outbox,
      // The same validation and creation as POST /tracking_requests.
      createTrackingRequest: (accountId, attrs) => createTrackingRequest(context, accountId, attrs),
      findTrackingRequest: (accountId, number, scac) =>
        tracking.findActiveDuplicate(accountId, number, ref.linesByAnyScac.get(scac)?.scac ?? scac),
      budget: config.documentBudget,
      logger: options.logger,
      mailDomain: config.mailDomain,
    });
    const context: ServiceContext = {
      documents,
      stores,
      ref,
      accounts,
      render: new Renderer(stores.resources, ref),
      clock,
      wallClock: options.wallClock ?? systemClock,
      config,
      routeMaps,
      positions,
      webhooks,
      customFields: new CustomFields(stores),
    };
    let engine: TrackingEngine | null = null;
    const metrics = new FeedMetrics({
      trackingRequestsByState: () => tracking.countTrackingRequestsByStatus(),
      aisSentences: () =>
        (engine?.aisSources()?.bySource() ?? []).map((s) => ({
          source: s.source,
          decoded: s.sentencesOk,
          rejected: s.badChecksum + s.malformed,
        })),
      processMetrics: true,
    });
    // Carriers call back at the public base URL when one is configured, else at this
    // service's own address once it listens (enough for carriers on the same network).
    let ownOrigin: string | null = null;
    engine = options.feeds
      ? new TrackingEngine({
          stores,
          ref,
          clock,
          feeds: engineFeedConfig(options.feeds, metrics),
          events: webhooks.outbox,
          logger: options.logger as EngineLogger | undefined,
          onSkipped: (record) => metrics.recordSkipped(record),
          callbackBase: () => options.feeds?.publicBaseUrl ?? ownOrigin,
          ...options.engine,
        })
      : null;
    const app = buildApp(context, {
      logger: options.logger,
      metrics,
      databaseHealth: storage.health,
      lineSubscriptions: engine?.lineSubscriptions(),
    });
    await engine?.start();
    if (engine) context.trackingRequestCreated = () => engine?.nudge();
    // Pending deliveries left by a previous run resume now.
    webhooks.start();
    await documents.service.resume();
    return {
      app,
      engine,
      store: { accounts, stores, tracking, reference: ref, context, events: webhooks.outbox },
      listeningAt(origin) {
        ownOrigin = origin;
      },
      async close() {
        await context.documents.service.close();
        await engine?.stop();
        await webhooks.stop();
        await app.close();
        await storage.close();
      },
    };
  } catch (err) {
    await storage.close();
    throw err;
  }
}

export interface RunningService extends ServiceApp {
  /** e.g. http://127.0.0.1:4010/v2 */
  baseUrl: string;
  port: number;
  /** Set when this start recorded the service's own account: shown once, never stored. */
  initialKey?: string;
  /** Port of the SMTP listener for email submissions, when started. */
  smtpPort?: number;
}

export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_PORT = 4010;
export const FIRST_ACCOUNT_NAME = 'default';
/** Real-time delay between listening and building the sea-route graph in the background. */
export const ROUTER_WARM_UP_DELAY_MS = 5_000;

/** Starts listening; on first start it records the service's own account and returns its key. */
export async function startService(
  options: ServiceOptions & {
    host?: string;
    port?: number;
    /** Port of the SMTP listener for email submissions (0: any free port); off when unset. */
    smtpPort?: number;
  },
): Promise<RunningService> {
  const service = await createServiceApp(options);
  try {
    let initialKey: string | undefined;
    const own = await service.store.accounts.ensurePrimary(FIRST_ACCOUNT_NAME);
    if (own.recorded) initialKey = await service.store.accounts.createKey(own.account.id);
    const host = options.host ?? DEFAULT_HOST;
    await service.app.listen({ host, port: options.port ?? DEFAULT_PORT });
    const address = service.app.server.address();
    const port =
      typeof address === 'object' && address ? address.port : (options.port ?? DEFAULT_PORT);
    const shownHost = host.includes(':') ? `[${host}]` : host;
    // Listening on every interface: loopback is the one address sure to reach it.
    const ownHost = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '[::1]' : shownHost;
    service.listeningAt(`http://${ownHost}:${port}`);
    // The mail parser and SMTP server load only when asked for: they would slow every start.
    const smtpPort = options.smtpPort;
    const smtp =
      smtpPort === undefined
        ? undefined
        : await import('./email/smtp-inbox').then(({ startSmtpInbox }) =>
            startSmtpInbox(service.store.context.documents, {
              host,
              port: smtpPort,
              logger: options.logger,
            }),
          );
    // The sea-route graph costs about 1.5 s of CPU to build (on the routing worker, not this
    // thread): start it soon after start so the first map request does not wait for it; a
    // service closed before then never starts it. A failure shows on the first map request.
    const warmUp = setTimeout(() => marineSeaRoutes().warmUp(), ROUTER_WARM_UP_DELAY_MS);
    warmUp.unref();
    return {
      ...service,
      baseUrl: `http://${shownHost}:${port}/v2`,
      port,
      initialKey,
      smtpPort: smtp?.port,
      async close() {
        clearTimeout(warmUp);
        await smtp?.close();
        await service.close();
      },
    };
  } catch (err) {
    await service.close();
    throw err;
  }
}
