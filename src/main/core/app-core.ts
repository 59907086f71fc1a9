/**
 * The transport-independent heart of the main process: settings, the local cache, alerts and
 * the sync engine; the bridge handlers live per domain in ./handlers and are registered here. The Electron shell and the browser-mode shell each build
 * one AppCore and expose its dispatcher over their own transport.
 */
import type { AppClock, AppInfo, CacheInfo, SyncStatus } from '../../shared/bridge';
import { ScaledClock, systemClock, type Clock } from '../../shared/clock';
import { isLoopback } from '../connection/service-connection';
import { applySettingsPatch, type Settings, type SettingsPatch } from '../../shared/settings';
import { AlertCenter } from '../alerts/alert-center';
import { MorningWatch } from '../morning/morning-watch';
import type { Notifier } from '../alerts/notifier';
import { createBridgeDispatcher, type BridgeDispatcher } from '../bridge/dispatcher';
import { Cache } from '../cache/cache';
import { IN_MEMORY } from '../cache/connection';
import { DocumentCache } from '../cache/document-cache';
import type { CacheStore } from '../cache/interface';
import type { SettingsStore } from '../settings/settings-store';
import { SyncEngine } from '../sync/engine';
import { syncDocuments } from '../sync/documents';
import { syncTruckers } from '../sync/truckers';
import type { EmbeddedServiceProcess, EmbeddedState } from '../service-launcher/launcher';
import { SavedAppClock } from './app-clock';
import { sourceFor, type Source } from './source';
import { FirstSync, LOADING_RESYNC_MS } from './first-sync';
import { pendingTrackingRequests } from './service-requests';
import { BridgeEventBus } from './event-bus';
import { bridgeHandlers, type HandlerContext } from './handlers';
import type { SecretStore } from './secret-store';
import { ServiceBudgets, type ServiceConnection } from '../connection/service-connection';

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
  /** The demo world's clock (it follows the embedded service's simulated time). */
  clock?: Clock;
  /** The clock of every other source: real time (tests may put a manual one). */
  realClock?: Clock;
  /** Opens a file in the OS viewer (the Electron shell); see HandlerContext.openFile. */
  openFile?: (path: string) => Promise<string>;
  log?: (message: string, error?: unknown) => void;
}

/**
 * What belongs to the source shown: its cache file, alerts, digest and sync, on its clock. A
 * switch of source opens another one; the one left finishes its run into its own file.
 */
interface SourceSession {
  source: Source;
  clock: Clock;
  cache: CacheStore;
  alerts: AlertCenter;
  morning: MorningWatch;
  sync: SyncEngine;
  firstSync: FirstSync;
}

export class AppCore {
  readonly events = new BridgeEventBus();
  readonly dispatch: BridgeDispatcher;
  readonly documents: DocumentCache;
  private session: SourceSession;
  private syncStatus: SyncStatus;
  /** The demo world's clock; `realClock` for every other source. */
  private readonly demoClock: Clock;
  private readonly realClock: Clock;
  /** One request budget per configured service, for every call the app makes to it. */
  private readonly budgets: ServiceBudgets;
  /** The demo clock's saved time (it never moves backwards across restarts). */
  private readonly savedClock: SavedAppClock | null = null;
  private readonly log: (message: string, error?: unknown) => void;
  private started = false;
  /** Set by stop(): late reports (the embedded process exiting) find the cache closed. */
  private stopped = false;

  constructor(private readonly options: AppCoreOptions) {
    this.log = options.log ?? ((message, error) => console.error(message, error));
    this.demoClock = options.clock ?? systemClock;
    this.realClock = options.realClock ?? systemClock;
    this.budgets = new ServiceBudgets(this.realClock);
    this.session = this.openSession(this.currentSource());
    if (this.demoClock instanceof ScaledClock && options.embedded) {
      this.savedClock = new SavedAppClock(options.appInfo.dataDir, this.demoClock);
      // A crash can lose the last seconds of saved time, but never what the demo's cache
      // recorded (only known here when the demo is the source at launch).
      const newestAlert = this.session.source.simulated ? this.cache.newestAlertAt() : null;
      this.savedClock.restore(newestAlert ? Date.parse(newestAlert) : null);
    }
    this.documents = DocumentCache.open(options.appInfo.dataDir);
    this.syncStatus = {
      ...this.session.sync.status(),
      firstSync: this.session.firstSync.loading(),
    };
    this.session.alerts.baseline();
    this.dispatch = createBridgeDispatcher(
      bridgeHandlers(
        this.withShownSource({
          appInfo: options.appInfo,
          documents: this.documents,
          ...(options.openFile ? { openFile: options.openFile } : {}),
          budgets: this.budgets,
          events: this.events,
          secretStore: options.secretStore,
          settings: () => this.settings(),
          updateSettings: (patch) => this.updateSettings(patch),
          connectionChanged: () => {
            if (this.followSource()) this.restartSync();
          },
          syncStatus: () => this.syncStatus,
          appClock: () => this.appClock(),
          retryConnection: () => {
            if (this.simulated()) this.options.embedded?.retryNow?.();
          },
          connection: () => this.connection(),
          cacheInfo: () => this.cacheInfo(),
        }),
      ),
      (method, error) => this.log(`bridge method ${method} failed`, error),
    );
  }

  /** Handlers read the cache, clock and sync of the source shown when they run. */
  private withShownSource(
    context: Omit<HandlerContext, 'cache' | 'clock' | 'sync'>,
  ): HandlerContext {
    return Object.defineProperties(context as HandlerContext, {
      cache: { get: () => this.session.cache },
      clock: { get: () => this.session.clock },
      sync: { get: () => this.session.sync },
    });
  }

  /** The shown source's cache. */
  get cache(): CacheStore {
    return this.session.cache;
  }

  get alerts(): AlertCenter {
    return this.session.alerts;
  }

  /** The daily digest and empty-return reminders, on the source's clock. */
  get morning(): MorningWatch {
    return this.session.morning;
  }

  get sync(): SyncEngine {
    return this.session.sync;
  }

  private currentSource(): Source {
    const { connection } = this.settings();
    const source = sourceFor(
      this.options.appInfo.dataDir,
      connection,
      connection.mode === 'remote' ? this.options.secretStore.get() : null,
    );
    // Without the embedded service there is no demo world to follow.
    return source.simulated && !this.options.embedded ? { ...source, simulated: false } : source;
  }

  private openSession(source: Source): SourceSession {
    const clock = source.simulated ? this.demoClock : this.realClock;
    const cache = Cache.openFile(source.cacheFile ?? IN_MEMORY);
    const firstSync = new FirstSync(cache, () =>
      pendingTrackingRequests(this.connection(), this.budgets),
    );
    const session: Partial<SourceSession> = { source, clock, cache, firstSync };
    const shown = () => this.session === session;
    const alerts = new AlertCenter(
      cache,
      {
        notify: (notification) => {
          // A run of a source no longer shown stores its alerts for that source, silently.
          if (!shown()) return;
          this.events.emit('alertRaised', {
            id: notification.alertId,
            kind: notification.kind,
            title: notification.title,
            body: notification.body,
            containerId: notification.containerId,
            link: notification.link,
            // The one decision where the OS notification comes from: the shell's notifier
            // when it has one, else the renderer's Web Notification.
            osNotification: !this.options.notifier,
          });
          this.options.notifier?.notify(notification);
        },
      },
      clock,
      () => this.settings().alerts,
      () => firstSync.loading(),
    );
    const morning = new MorningWatch(cache, alerts, clock, () => this.settings());
    const sync = new SyncEngine({
      cache,
      clock,
      alerts,
      budgets: this.budgets,
      connection: () => (shown() ? this.connection() : null),
      unavailable: () => this.embeddedUnavailable(),
      onStatus: (status) => {
        if (!shown()) return;
        this.setSyncStatus(status);
        if (status.state === 'idle' && status.lastSuccessAt !== null && firstSync.loading())
          void this.firstRunEnded(session as SourceSession, status.lastSuccessAt);
      },
      onSkipped: (record) =>
        this.log(`sync skipped ${record.type} ${record.id ?? ''}: ${record.reason}`),
      extraSteps: [
        async (client) => {
          // Truckers are extra too: a service without them keeps the board's sync whole.
          try {
            await syncTruckers(client, cache);
          } catch (error) {
            this.log('sync of truckers failed', error);
          }
        },
        async (client, budget) => {
          // Documents are extra: a service without them (or a failed download) never fails
          // the board's sync.
          try {
            const outcome = await syncDocuments(
              client,
              this.documents,
              new Date(clock.now()).toISOString(),
              budget,
            );
            for (const skipped of outcome.skipped) {
              this.log(`sync skipped document ${skipped.id ?? ''}: ${skipped.reason}`);
            }
            // Orders made on any desktop: this source's cache checks each for staleness.
            for (const order of outcome.deliveryOrders) cache.recordDeliveryOrder(order);
          } catch (error) {
            this.log('sync of documents failed', error);
          }
        },
      ],
    });
    Object.assign(session, { alerts, morning, sync });
    return session as SourceSession;
  }

  /**
   * A complete run while the source was loading: once it has brought what the service has, what
   * is already true is summed up once and the views stop saying "loading"; while the service is
   * still looking up its tracking requests, the next run comes soon.
   */
  private async firstRunEnded(session: SourceSession, at: string): Promise<void> {
    const outcome = await session.firstSync.runEnded(at).catch(() => 'waiting' as const);
    if (this.stopped || this.session !== session || outcome === 'loaded-before') return;
    if (outcome === 'loaded') session.morning.summarizeSource(this.sourceName());
    else
      session.clock.setTimer(LOADING_RESYNC_MS * session.clock.speed, () => {
        if (!this.stopped && this.session === session)
          void session.sync.sync().catch(() => undefined);
      });
    this.setSyncStatus(session.sync.status());
    this.events.emit('dataChanged', { at: new Date(session.clock.now()).toISOString() });
  }

  /** "the built-in demo service", or the remote service's host. */
  private sourceName(): string {
    if (this.session.source.simulated) return 'the built-in demo service';
    const baseUrl = this.settings().connection.remoteBaseUrl;
    try {
      const url = new URL(baseUrl ?? '');
      return isLoopback(url) ? `the service at ${url.host}` : url.host;
    } catch {
      return 'the remote service';
    }
  }

  /**
   * Shows the source the settings and key now name, if it is another one: its own cache, alerts
   * and clock at once; the one left stops its timers and closes after its run ends.
   */
  private followSource(): boolean {
    const source = this.currentSource();
    if (source.key === this.session.source.key) return false;
    const left = this.session;
    left.sync.stop();
    left.alerts.stop();
    left.morning.stop();
    this.session = this.openSession(source);
    // Set before the first sync: what that sync finds is the baseline, not news.
    this.session.alerts.baseline();
    void left.sync.settled().then(() => left.cache.close());
    this.setSyncStatus(this.session.sync.status());
    this.events.emit('dataChanged', { at: new Date(this.session.clock.now()).toISOString() });
    if (this.started) {
      this.session.alerts.deliverPending();
      this.session.alerts.start();
    }
    return true;
  }

  /** Starts the background work: pending notifications, deadline checks, periodic sync. */
  start(): void {
    this.started = true;
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
    const speed = this.session.clock.speed;
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
    if (this.demoClock instanceof ScaledClock) this.demoClock.hold();
    this.sync.reportUnavailable({
      message: state.message ?? 'The built-in tracking service is not answering.',
      reconnecting: state.restarting,
      since: state.since,
    });
  }

  /** True when the app shows the built-in simulated world (its clock is the world's). */
  private simulated(): boolean {
    return this.session.source.simulated;
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
    const { clock } = this.session;
    return {
      now: new Date(clock.now()).toISOString(),
      speed: clock.speed,
      simulated,
      running: !simulated || (this.options.embedded?.state?.().up ?? true),
    };
  }

  /**
   * Stops the timers; the caches close once a sync run under way has ended (its later steps
   * would otherwise fail on closed files), as when the shown source changes. Resolves then.
   */
  stop(): Promise<void> {
    this.stopped = true;
    this.savedClock?.stop();
    const { sync, cache } = this.session;
    const documents = this.documents;
    sync.stop();
    this.alerts.stop();
    this.morning.stop();
    return sync.settled().then(() => {
      cache.close();
      documents.close();
    });
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
      this.followSource();
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
  setSyncStatus(engineStatus: SyncStatus): void {
    const { firstSync } = this.session;
    const loading = firstSync.loading();
    const status: SyncStatus = {
      ...engineStatus,
      firstSync: loading,
      message: engineStatus.message ?? (loading ? firstSync.waitingMessage() : null),
    };
    const finishedRun = this.syncStatus.state === 'syncing' && status.state !== 'syncing';
    this.syncStatus = status;
    this.events.emit('syncStatus', status);
    if (finishedRun)
      this.events.emit('dataChanged', { at: new Date(this.session.clock.now()).toISOString() });
  }

  getSyncStatus(): SyncStatus {
    return this.syncStatus;
  }
}
