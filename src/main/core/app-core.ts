/**
 * The transport-independent heart of the main process: settings, the local cache, alerts, the
 * sync engine and every bridge handler. The Electron shell and the browser-mode shell each build
 * one AppCore and expose its dispatcher over their own transport.
 */
import type {
  AppInfo,
  CacheInfo,
  ConnectionCheck,
  RouteMapResult,
  ShippingLineOption,
  SyncStatus,
} from '../../shared/bridge';
import { systemClock, type Clock } from '../../shared/clock';
import { applySettingsPatch, type Settings, type SettingsPatch } from '../../shared/settings';
import shippingLines from '../../../resources/reference/shipping_lines.json';
import { ServiceBudgets } from './service-connection';
import { AlertCenter } from '../alerts/alert-center';
import type { Notifier } from '../alerts/notifier';
import {
  BridgeHandlerError,
  createBridgeDispatcher,
  type BridgeDispatcher,
} from '../bridge/dispatcher';
import { Cache } from '../cache/cache';
import { containersCsv } from '../cache/csv';
import type { SettingsStore } from '../settings/settings-store';
import { SyncEngine } from '../sync/engine';
import { testConnection } from '../sync/test-connection';
import { BridgeEventBus } from './event-bus';
import { maskSecret, type SecretStore } from './secret-store';
import {
  createTrackingRequest,
  listTrackingRequests,
  type ServiceConnection,
} from './service-requests';

/** The embedded service (with the simulated world), run out of the UI process by the shell. */
export interface EmbeddedService {
  /** Null until it is up (or after it stopped). */
  connection(): ServiceConnection | null;
}

const EMBEDDED_SYNC_REAL_MS = 15_000;

export interface AppCoreOptions {
  appInfo: AppInfo;
  settingsStore: SettingsStore;
  secretStore: SecretStore;
  /** Where desktop notifications go besides the renderer's `alertRaised` push. */
  notifier?: Notifier;
  embedded?: EmbeddedService;
  clock?: Clock;
  log?: (message: string, error?: unknown) => void;
}

export class AppCore {
  readonly events = new BridgeEventBus();
  readonly dispatch: BridgeDispatcher;
  readonly cache: Cache;
  readonly alerts: AlertCenter;
  readonly sync: SyncEngine;
  private syncStatus: SyncStatus;
  private readonly clock: Clock;
  /** One request budget per configured service, for every call the app makes to it. */
  private readonly budgets: ServiceBudgets;

  constructor(private readonly options: AppCoreOptions) {
    const log = options.log ?? ((message, error) => console.error(message, error));
    this.clock = options.clock ?? systemClock;
    this.cache = Cache.open(options.appInfo.dataDir);
    this.budgets = new ServiceBudgets(this.clock);
    this.alerts = new AlertCenter(
      this.cache,
      {
        notify: (notification) => {
          this.events.emit('alertRaised', {
            id: notification.alertId,
            kind: notification.kind,
            title: notification.title,
            body: notification.body,
            containerId: notification.containerId,
            // The one decision where the OS notification comes from: the shell's notifier
            // when it has one, else the renderer's Web Notification.
            osNotification: !options.notifier,
          });
          options.notifier?.notify(notification);
        },
      },
      this.clock,
      () => this.settings().alerts,
    );
    this.sync = new SyncEngine({
      cache: this.cache,
      clock: this.clock,
      alerts: this.alerts,
      budgets: this.budgets,
      connection: () => this.connection(),
      onStatus: (status) => this.setSyncStatus(status),
      onSkipped: (record) =>
        log(`sync skipped ${record.type} ${record.id ?? ''}: ${record.reason}`),
    });
    this.syncStatus = this.sync.status();
    this.dispatch = createBridgeDispatcher(
      {
        getAppInfo: () => this.options.appInfo,
        getSettings: () => this.settings(),
        updateSettings: (patch) => this.updateSettings(patch),
        getSyncStatus: () => this.syncStatus,
        getClock: () => ({
          now: new Date(this.clock.now()).toISOString(),
          speed: this.clock.speed,
        }),
        syncNow: async () => {
          await this.sync.sync().catch(() => undefined);
          return this.syncStatus;
        },

        listContainers: (query) => this.cache.board.containers(query, this.clock.now()),
        getBoardFacets: () => this.cache.board.facets(),
        getViewCounts: () => this.cache.board.viewCounts(this.clock.now()),
        getContainerDetail: ({ id }) => this.cache.board.containerDetail(id),
        exportContainersCsv: (query) => {
          let csv = '';
          let rows = -1; // the header line
          for (const line of containersCsv(this.cache.board, query, this.clock.now())) {
            csv += line;
            rows++;
          }
          return { csv, rows };
        },
        getRouteMap: async ({ containerId }): Promise<RouteMapResult | null> => {
          const map = await this.sync.routeMap(containerId);
          return map
            ? {
                geojson: JSON.parse(map.geojson) as RouteMapResult['geojson'],
                fetchedAt: map.fetchedAt,
                completed: map.completed,
              }
            : null;
        },

        listShipments: (query) => this.cache.board.shipments(query),
        getShipmentDetail: ({ id }) => this.cache.board.shipmentDetail(id),

        listShippingLines: (): ShippingLineOption[] =>
          shippingLines
            .map((line) => ({ scac: line.scac, name: line.name, shortName: line.short_name }))
            .sort((a, b) => a.name.localeCompare(b.name)),
        createTrackingRequest: async (draft) => {
          const outcome = await createTrackingRequest(this.connection(), draft, this.budgets);
          // The new request's shipment appears on the next sync; start one soon.
          if (outcome.ok) void this.sync.sync().catch(() => undefined);
          return outcome;
        },
        listTrackingRequests: async ({ offset, limit }) => {
          try {
            return await listTrackingRequests(
              this.connection(),
              offset ?? 0,
              limit ?? 100,
              this.budgets,
            );
          } catch (error) {
            throw new BridgeHandlerError((error as Error).message);
          }
        },

        listAlerts: (query) => this.cache.listAlerts(query),
        markAlertsRead: ({ ids }) => ({
          changed: this.cache.markAlertsRead(new Date(this.clock.now()).toISOString(), ids),
        }),

        testConnection: async ({ baseUrl, apiKey }): Promise<ConnectionCheck> => {
          const key = apiKey ?? this.options.secretStore.get();
          if (!key) {
            return {
              ok: false,
              message: 'Enter the API key for this service.',
              incrementalSync: null,
            };
          }
          return testConnection(baseUrl, key, { clock: this.clock, budgets: this.budgets });
        },
        setRemoteApiKey: ({ apiKey }) => {
          this.options.secretStore.set(apiKey);
          // A new key may carry other entitlements: ask for map data again.
          this.sync.resetRoutingEntitlement();
          return {
            stored: apiKey !== null,
            masked: maskSecret(apiKey),
            storedIn: this.options.secretStore.description,
          };
        },
        getRemoteApiKeyStatus: () => ({
          masked: maskSecret(this.options.secretStore.get()),
          storedIn: this.options.secretStore.description,
        }),
        getCacheInfo: () => this.cacheInfo(),
        clearCache: () => {
          this.cache.clear();
          this.events.emit('dataChanged', { at: new Date(this.clock.now()).toISOString() });
          return this.cacheInfo();
        },
      },
      (method, error) => log(`bridge method ${method} failed`, error),
    );
  }

  /** Starts the background work: pending notifications, deadline checks, periodic sync. */
  start(): void {
    this.alerts.deliverPending();
    this.alerts.start();
    this.restartSync();
  }

  /**
   * (Re)starts periodic sync. The embedded service is local and cheap to ask, and its world may
   * run many times faster than real time: it is synced every 15 real seconds.
   */
  restartSync(): void {
    const { connection, syncIntervalMinutes } = this.settings();
    const simulated = connection.mode === 'embedded' && this.options.embedded !== undefined;
    const speed = this.clock.speed;
    this.sync.start(simulated ? EMBEDDED_SYNC_REAL_MS * speed : syncIntervalMinutes * 60_000);
  }

  stop(): void {
    this.sync.stop();
    this.alerts.stop();
    this.cache.close();
  }

  settings(): Settings {
    return this.options.settingsStore.read();
  }

  /** Where sync and tracking requests go: the embedded service, or the configured remote one. */
  connection(): ServiceConnection | null {
    const { connection } = this.settings();
    if (connection.mode === 'embedded') return this.options.embedded?.connection() ?? null;
    const apiKey = this.options.secretStore.get();
    return connection.remoteBaseUrl && apiKey
      ? { baseUrl: connection.remoteBaseUrl, apiKey }
      : null;
  }

  private updateSettings(patch: SettingsPatch): Settings {
    const before = this.settings();
    const next = applySettingsPatch(before, patch);
    this.options.settingsStore.write(next);
    this.events.emit('settingsChanged', next);
    if (
      before.syncIntervalMinutes !== next.syncIntervalMinutes ||
      before.connection.mode !== next.connection.mode ||
      before.connection.remoteBaseUrl !== next.connection.remoteBaseUrl
    ) {
      this.sync.resetRoutingEntitlement();
      this.restartSync();
    }
    return next;
  }

  private cacheInfo(): CacheInfo {
    return { path: this.cache.db.name, sizeBytes: this.cache.sizeBytes(), ...this.cache.counts() };
  }

  /** The sync engine reports progress here; every renderer is told. */
  setSyncStatus(status: SyncStatus): void {
    const finishedRun = this.syncStatus.state === 'syncing' && status.state !== 'syncing';
    this.syncStatus = status;
    this.events.emit('syncStatus', status);
    if (finishedRun)
      this.events.emit('dataChanged', { at: new Date(this.clock.now()).toISOString() });
  }

  getSyncStatus(): SyncStatus {
    return this.syncStatus;
  }
}
