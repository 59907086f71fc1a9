/**
 * The service with the simulated world beside it, on loopback ports and one shared clock: what
 * `quayside serve --sim` runs and what the desktop app embeds. The feed adapters point at the
 * world's carrier, terminal and AIS endpoints; the first start seeds the demo account with the
 * world's demo tracking requests so it is lively at once.
 *
 * The API key is created on first start and kept in `<dataDir>/embedded-key.json` (mode 0600)
 * so restarts reuse it. The simulated world pauses while the service is stopped: its clock and
 * the origin its scenarios are laid out around are kept in `<dataDir>/sim-clock.json`, so a
 * restart continues the same world from where it stopped instead of replaying it from now.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ScaledClock, type Clock } from '../shared/clock';
import { startService, type RunningService, type ServiceOptions } from '../service';
import {
  ensurePrivateDir,
  restrictFiles,
  writePrivateFile,
} from '../service/security/private-files';
import { parseFeedsConfig, type FeedsConfig } from '../service/feeds/config';
import {
  demoShipments,
  FIRST_START_LOOKBACK_MS,
  followNewBookings,
  startSimWorld,
  type ErrorRates,
  type RunningSimWorld,
} from '../sim';
import { SIM_CLOCK_FILE, readSimClock, writeSimClock } from './sim-clock-file';

export const KEY_FILE = 'embedded-key.json';
/** How often (real time) the simulated time is saved, so a crash loses at most this much. */
const SIM_CLOCK_SAVE_MS = 5_000;

export const DEFAULT_SEED = 42;
export const DEFAULT_SIM_SPEED = 3600;
/** The embedded service's per-account request limit (a guard against a runaway loop only). */
export const EMBEDDED_REQUESTS_PER_MINUTE = 6_000;

export interface EmbeddedOptions {
  /** Port of the SMTP listener for email submissions; off when unset. */
  smtpPort?: number;
  dataDir: string;
  /** 0 picks a free port. */
  port?: number;
  host?: string;
  /** Simulated seconds per real second (ignored when `clock` is given). */
  simSpeed?: number;
  seed?: number;
  /**
   * Resume the simulated world no earlier than this (the app's clock): a crash can lose the
   * last few seconds of saved time, and the app's time must not move backwards.
   */
  resumeAt?: number;
  /** For tests: drive both the service and the world with this clock. */
  clock?: Clock;
  errorRates?: ErrorRates;
  logger?: ServiceOptions['logger'];
  config?: ServiceOptions['config'];
  referenceDir?: string;
  /** Key sealing webhook secrets at rest (the app keeps it in the OS keychain); see startService. */
  secretKey?: Buffer;
  /** PostgreSQL instead of the data folder's SQLite file (see ServiceOptions.database). */
  database?: ServiceOptions['database'];
  /** Seed the demo account with the world's demo requests on first start (default true). */
  seedDemo?: boolean;
}

export interface EmbeddedService {
  /** e.g. http://127.0.0.1:4010/v2 */
  baseUrl: string;
  apiKey: string;
  /** True when this start created `apiKey`: the only time it should be shown. */
  apiKeyCreated: boolean;
  clock: Clock;
  service: RunningService;
  sim: RunningSimWorld;
  close(): Promise<void>;
}

/**
 * The simulated world's feeds, loaded exactly as a user's feeds file is: validated, with the
 * simulated carriers' credentials (OAuth2 client credentials, API-key headers, bearer tokens).
 */
export function simFeeds(sim: RunningSimWorld): FeedsConfig {
  return parseFeedsConfig(sim.feedsDocument(), 'simulated world');
}

function readKey(dataDir: string): string | null {
  try {
    const parsed = JSON.parse(fs.readFileSync(path.join(dataDir, KEY_FILE), 'utf8')) as unknown;
    const key = (parsed as { apiKey?: unknown }).apiKey;
    return typeof key === 'string' && key.length > 0 ? key : null;
  } catch {
    return null;
  }
}

function writeKey(dataDir: string, apiKey: string): void {
  writePrivateFile(path.join(dataDir, KEY_FILE), JSON.stringify({ apiKey }));
}

export async function startEmbeddedService(options: EmbeddedOptions): Promise<EmbeddedService> {
  const speed = options.simSpeed ?? DEFAULT_SIM_SPEED;
  const seed = options.seed ?? DEFAULT_SEED;
  ensurePrivateDir(options.dataDir);
  restrictFiles(path.join(options.dataDir, KEY_FILE), path.join(options.dataDir, SIM_CLOCK_FILE));
  // A test's clock is used as given; the app's simulated clock continues from the last run.
  const saved = options.clock ? null : readSimClock(options.dataDir, seed);
  const resumeAt = Math.max(saved?.simNow ?? Date.now(), options.resumeAt ?? -Infinity);
  const clock = options.clock ?? new ScaledClock(resumeAt, speed);
  const sim = await startSimWorld({
    seed,
    clock,
    host: '127.0.0.1',
    errorRates: options.errorRates,
    origin: saved?.origin,
    // The simulated carriers ask for credentials the way real ones do.
    carrierAuth: true,
  });
  const origin = sim.world.model.origin;
  const saveClock = () => {
    if (!options.clock) writeSimClock(options.dataDir, { simNow: clock.now(), origin, seed });
  };
  saveClock();
  const saveTimer = options.clock ? null : setInterval(saveClock, SIM_CLOCK_SAVE_MS);
  saveTimer?.unref();
  let service: RunningService;
  try {
    service = await startService({
      dataDir: options.dataDir,
      database: options.database,
      host: options.host ?? '127.0.0.1',
      port: options.port ?? 0,
      clock,
      logger: options.logger,
      // Only this app holds the key and the world runs hours per second: the remote service's
      // 100 requests a minute would throttle the app's own syncs for nothing.
      config: { requestsPerMinute: EMBEDDED_REQUESTS_PER_MINUTE, ...options.config },
      referenceDir: options.referenceDir,
      secretKey: options.secretKey,
      smtpPort: options.smtpPort,
      feeds: simFeeds(sim),
      // At least a quarter of a real second between scheduling passes at high speeds.
      engine: { tickMs: Math.max(60_000, options.clock ? 60_000 : speed * 250) },
    });
  } catch (err) {
    if (saveTimer) clearInterval(saveTimer);
    await sim.close();
    throw err;
  }
  try {
    const { accounts, tracking } = service.store;
    const { parties } = service.store.stores;
    // The service's own account, recorded at its first start: never another account.
    const account = (await accounts.primary())!;
    let apiKey = service.initialKey ?? readKey(options.dataDir);
    let apiKeyCreated = service.initialKey !== undefined;
    if (!apiKey || (await accounts.byKey(apiKey))?.id !== account.id) {
      apiKey = await accounts.createKey(account.id);
      apiKeyCreated = true;
    }
    if (apiKeyCreated) writeKey(options.dataDir, apiKey);
    await accounts.setRouting(account.id, true);
    if (options.seedDemo !== false) {
      if (!(await tracking.hasTrackingRequests(account.id))) {
        // Each for its invented customer (a party of the account, as the Track form makes
        // one), with the customer's PO numbers as references.
        for (const r of demoShipments(seed)) {
          await tracking.createTrackingRequest(account.id, {
            requestType: r.request_type,
            requestNumber: r.request_number,
            scac: r.scac,
            refNumbers: r.references,
            customerId: (await parties.named(account.id, r.customer)).id,
          });
        }
      }
    }
    // The demo account tracks the bookings the world keeps receiving (a restart looks back a
    // simulated day; duplicates are skipped).
    const follower =
      options.seedDemo === false
        ? null
        : followNewBookings(sim.world, {
            since: saved ? saved.simNow - 86_400_000 : origin - FIRST_START_LOOKBACK_MS,
            track: async (b) => {
              if (await tracking.findActiveDuplicate(account.id, b.request_number, b.scac)) return;
              await tracking.createTrackingRequest(account.id, {
                requestType: b.request_type,
                requestNumber: b.request_number,
                scac: b.scac,
                refNumbers: b.references,
                shipmentTags: [b.customer],
                customerId: (await parties.named(account.id, b.customer)).id,
              });
            },
          });
    return {
      baseUrl: service.baseUrl,
      apiKey,
      apiKeyCreated,
      clock,
      service,
      sim,
      async close() {
        if (saveTimer) clearInterval(saveTimer);
        saveClock();
        await follower?.stop();
        await service.close();
        await sim.close();
      },
    };
  } catch (err) {
    if (saveTimer) clearInterval(saveTimer);
    await service.close();
    await sim.close();
    throw err;
  }
}
