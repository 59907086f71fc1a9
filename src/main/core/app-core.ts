/**
 * The transport-independent heart of the main process: settings, the local cache, alerts and
 * the sync engine; the bridge handlers live per domain in ./handlers and are registered here. The Electron shell and the browser-mode shell each build
 * one AppCore and expose its dispatcher over their own transport.
 */
import type { AppClock, AppInfo, CacheInfo, SyncStatus } from '../../shared/bridge';
import { ScaledClock, systemClock, type Clock } from '../../shared/clock';
import { applySettingsPatch, type Settings, type SettingsPatch } from '../../shared/settings';
import { AlertCenter } from '../alerts/alert-center';
import { MorningWatch } from '../morning/morning-watch';
import type { Notifier } from '../alerts/notifier';
import { createBridgeDispatcher, type BridgeDispatcher } from '../bridge/dispatcher';
import { Cache } from '../cache/cache';
import { DocumentCache } from '../cache/document-cache';
import type { CacheStore } from '../cache/interface';
import type { SettingsStore } from '../settings/settings-store';
import { SyncEngine } from '../sync/engine';
import { syncDocuments } from '../sync/documents';
import type { EmbeddedServiceProcess, EmbeddedState } from '../embedded/launcher';
import { SavedAppClock } from './app-clock';
import { BridgeEventBus } from './event-bus';
import { bridgeHandlers } from './handlers';
import type { SecretStore } from './secret-store';
import { ServiceBudgets, type ServiceConnection } from './service-connection';

const EMBEDDED_SYNC_REAL_MS = 15_000;

export interface AppCoreOptions {
  appInfo: AppInfo;
  settingsStore: SettingsStore;
  secretStore: SecretStore;
  /** Where desktop notifications go besides the renderer's `alertRaised` push. */
  notifier?: Notifier;
  /** The embedded service process (with the simulated world) the shell runs, if any. */
  embedded?: Pick<EmbeddedServiceProcess, 'connection'> &
    Partial<Pick<EmbeddedServiceProcess, 'state' | 'retryNow'>>;
  clock?: Clock;
  /** Opens a file in the OS viewer (the Electron shell); see HandlerContext.openFile. */
  openFile?: (path: string) => Promise<string>;
  log?: (message: string, error?: unknown) => void;
}

export class AppCore {
  readonly events = new BridgeEventBus();
  readonly dispatch: BridgeDispatcher;
  readonly cache: CacheStore;
  readonly documents: DocumentCache;
  readonly alerts: AlertCenter;
  /** The daily digest and empty-return reminders, on the app clock. */
  readonly morning: MorningWatch;
  readonly sync: SyncEngine;
  /** Set by stop(): late reports (the embedded process exiting) find the cache closed. */
  private stopped = false;
  private syncStatus: SyncStatus;
  private readonly clock: Clock;
  /** One request budget per configured service, for every call the app makes to it. */
  private readonly budgets: ServiceBudgets;
  /** The demo clock's saved time (it never moves backwards across restarts). */
  private readonly savedClock: SavedAppClock | null = null;

  constructor(private readonly options: AppCoreOptions) {
    const log = options.log ?? ((message, error) => console.error(message, error));
    this.clock = options.clock ?? systemClock;
    this.cache = Cache.open(options.appInfo.dataDir);
    if (this.clock instanceof ScaledClock && this.simulated()) {
      this.savedClock = new SavedAppClock(options.appInfo.dataDir, this.clock);
      // A crash can lose the last seconds of saved time, but never what the cache recorded.
      const newestAlert = this.cache.newestAlertAt();
      this.savedClock.restore(newestAlert ? Date.parse(newestAlert) : null);
    }
    this.documents = DocumentCache.open(options.appInfo.dataDir);
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
    this.morning = new MorningWatch(this.cache, this.alerts, this.clock, () => this.settings());
    this.sync = new SyncEngine({
      cache: this.cache,
      clock: this.clock,
      alerts: this.alerts,
      budgets: this.budgets,
      connection: () => this.connection(),
      unavailable: () => this.embeddedUnavailable(),
      onStatus: (status) => this.setSyncStatus(status),
      onSkipped: (record) =>
        log(`sync skipped ${record.type} ${record.id ?? ''}: ${record.reason}`),
      extraSteps: [
        async (client, budget) => {
          // Documents are extra: a service without them (or a failed download) never fails
          // the board's sync.
          try {
            const outcome = await syncDocuments(
              client,
              this.documents,
              new Date(this.clock.now()).toISOString(),
              budget,
            );
            for (const skipped of outcome.skipped) {
              log(`sync skipped document ${skipped.id ?? ''}: ${skipped.reason}`);
            }
          } catch (error) {
            log('sync of documents failed', error);
          }
        },
      ],
    });
    this.syncStatus = this.sync.status();
    this.dispatch = createBridgeDispatcher(
      bridgeHandlers({
        appInfo: options.appInfo,
        cache: this.cache,
        documents: this.documents,
        ...(options.openFile ? { openFile: options.openFile } : {}),
        clock: this.clock,
        sync: this.sync,
        budgets: this.budgets,
        events: this.events,
        secretStore: options.secretStore,
        settings: () => this.settings(),
        updateSettings: (patch) => this.updateSettings(patch),
        syncStatus: () => this.syncStatus,
        appClock: () => this.appClock(),
        retryConnection: () => {
          if (this.simulated()) this.options.embedded?.retryNow?.();
        },
        connection: () => this.connection(),
        cacheInfo: () => this.cacheInfo(),
      }),
      (method, error) => log(`bridge method ${method} failed`, error),
    );
  }

  /** Starts the background work: pending notifications, deadline checks, periodic sync. */
  start(): void {
    this.savedClock?.start();
    this.alerts.deliverPending();
    this.alerts.start();
    this.restartSync(); // starts the morning watch too
  }

  /**
   * (Re)starts periodic sync. The embedded service is local and cheap to ask, and its world may
   * run many times faster than real time: it is synced every 15 real seconds.
   */
  restartSync(): void {
    const { syncIntervalMinutes } = this.settings();
    const speed = this.clock.speed;
    this.sync.start(
      this.simulated() ? EMBEDDED_SYNC_REAL_MS * speed : syncIntervalMinutes * 60_000,
    );
    // The clock may have just taken the simulated world's speed: reschedule on it.
    this.morning.start();
  }

  /**
   * The launcher's news about the embedded service: when it is up again the app syncs at once;
   * when it is down the header says so (offline, then reconnecting) and the demo clock holds
   * still, as the simulated world does while its process is not running.
   */
  onEmbeddedState(state: EmbeddedState): void {
    // The embedded process reports its exit while the shell shuts down, after the cache closed.
    if (this.stopped || !this.simulated()) return;
    if (state.up) {
      this.restartSync();
      void this.sync.sync().catch(() => undefined);
      return;
    }
    if (this.clock instanceof ScaledClock) this.clock.hold();
    this.sync.reportUnavailable({
      message: state.message ?? 'The built-in tracking service is not answering.',
      reconnecting: state.restarting,
      since: state.since,
    });
  }

  /** True when the app runs on the built-in simulated world (its clock is the world's). */
  private simulated(): boolean {
    return this.settings().connection.mode === 'embedded' && this.options.embedded !== undefined;
  }

  private embeddedUnavailable() {
    const state = this.simulated() ? this.options.embedded?.state?.() : undefined;
    if (!state || state.up) return null;
    return {
      message: state.message ?? 'The built-in tracking service is not answering.',
      reconnecting: state.restarting,
      since: state.since,
    };
  }

  private appClock(): AppClock {
    const simulated = this.simulated();
    return {
      now: new Date(this.clock.now()).toISOString(),
      speed: this.clock.speed,
      simulated,
      running: !simulated || (this.options.embedded?.state?.().up ?? true),
    };
  }

  stop(): void {
    this.stopped = true;
    this.savedClock?.stop();
    this.sync.stop();
    this.alerts.stop();
    this.morning.stop();
    this.cache.close();
    this.documents.close();
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
    // A new digest time or tariff moves the next check.
    if (JSON.stringify([before.digest, before.costs]) !== JSON.stringify([next.digest, next.costs]))
      this.morning.start();
    return next;
  }

  private cacheInfo(): CacheInfo {
    return { path: this.cache.path, sizeBytes: this.cache.sizeBytes(), ...this.cache.counts() };
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
