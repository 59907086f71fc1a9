/**
 * Update checks through electron-updater's generic provider, whose url is the `desktop.updateUrl`
 * setting (empty: never check). The first check waits until the app is up, so it never delays
 * start-up; a downloaded update waits for the dispatcher's "restart", and a restart asked for
 * while a sync runs waits for the sync to finish. Nothing here restarts the app on its own.
 */
export type UpdateState =
  | { phase: 'disabled' }
  | { phase: 'idle' }
  | { phase: 'checking' }
  | { phase: 'downloading' }
  | { phase: 'ready'; version: string }
  | { phase: 'error'; message: string };

/** The part of electron-updater's autoUpdater this uses. */
export interface Updater {
  setFeedURL(options: { provider: 'generic'; url: string }): void;
  checkForUpdates(): Promise<unknown>;
  quitAndInstall(): void;
}

export interface UpdateControllerOptions {
  updater: Updater;
  isSyncing: () => boolean;
  onState: (state: UpdateState) => void;
  /** Schedules the first check after start-up (the shell passes a timer). */
  defer: (run: () => void) => void;
}

export type RestartAnswer = 'restarting' | 'after-sync' | 'no-update';

export class UpdateController {
  private state: UpdateState = { phase: 'disabled' };
  private feedUrl = '';
  private restartWhenIdle = false;

  constructor(private readonly options: UpdateControllerOptions) {}

  current(): UpdateState {
    return this.state;
  }

  /** Applies the update url setting; a new non-empty url schedules a check. */
  configure(updateUrl: string): void {
    if (updateUrl === this.feedUrl) return;
    this.feedUrl = updateUrl;
    if (updateUrl === '') {
      if (this.state.phase !== 'ready') this.set({ phase: 'disabled' });
      return;
    }
    this.options.updater.setFeedURL({ provider: 'generic', url: updateUrl });
    if (this.state.phase !== 'ready') this.set({ phase: 'idle' });
    this.options.defer(() => void this.check());
  }

  async check(): Promise<void> {
    if (this.feedUrl === '' || this.state.phase === 'checking' || this.state.phase === 'ready')
      return;
    this.set({ phase: 'checking' });
    try {
      await this.options.updater.checkForUpdates();
      // No update found: electron-updater emitted nothing that moved the state on.
      if (this.current().phase === 'checking') this.set({ phase: 'idle' });
    } catch (error) {
      this.set({ phase: 'error', message: (error as Error).message });
    }
  }

  /** electron-updater events. */
  downloading(): void {
    if (this.state.phase !== 'ready') this.set({ phase: 'downloading' });
  }
  downloaded(version: string): void {
    this.set({ phase: 'ready', version });
  }
  failed(message: string): void {
    if (this.state.phase !== 'ready') this.set({ phase: 'error', message });
  }

  /** The dispatcher clicked "Update ready, restart". */
  requestRestart(): RestartAnswer {
    if (this.state.phase !== 'ready') return 'no-update';
    if (this.options.isSyncing()) {
      this.restartWhenIdle = true;
      return 'after-sync';
    }
    this.options.updater.quitAndInstall();
    return 'restarting';
  }

  /** Called on every sync status change: a restart put off by a running sync happens now. */
  syncStateChanged(): void {
    if (!this.restartWhenIdle || this.options.isSyncing()) return;
    this.restartWhenIdle = false;
    this.options.updater.quitAndInstall();
  }

  private set(state: UpdateState): void {
    this.state = state;
    this.options.onState(state);
  }
}
