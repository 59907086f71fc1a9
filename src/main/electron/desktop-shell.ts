/**
 * Wires the desktop behaviour modules (src/main/desktop) to Electron: tray/menu-bar icon, dock
 * and launcher badge, update checks, start at login, remembered window bounds. The decisions
 * live in those modules; this file only moves data between them and Electron's APIs.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import { app, Menu, nativeImage, screen, Tray, type BrowserWindow } from 'electron';
import electronUpdater from 'electron-updater';
import type { Settings } from '../../shared/settings';
import { appIconPng, badgeOverlayPng } from '../app-resources';
import type { AppCore } from '../core/app-core';
import { AttentionTracker, type TrayCommand } from '../desktop/attention';
import { APP_USER_MODEL_ID } from '../desktop/app-user-model';
import { applyStartAtLogin } from '../desktop/start-at-login';
import { UpdateController } from '../desktop/updates';
import { restoreBounds, WindowStateFile, type WindowState } from '../desktop/window-bounds';

/** Before any window or notification: Windows groups both by this id. */
export function setAppUserModelId(): void {
  if (process.platform === 'win32') app.setAppUserModelId(APP_USER_MODEL_ID);
}

export const appWindowIcon = (): string => appIconPng(256);

/** The bounds to open the main window with, from window-state.json in the data folder. */
export function restoredWindowState(dataDir: string): {
  file: WindowStateFile;
  state: WindowState;
} {
  const file = new WindowStateFile(join(dataDir, 'window-state.json'));
  const primary = screen.getPrimaryDisplay();
  const others = screen.getAllDisplays().filter((display) => display.id !== primary.id);
  const state = restoreBounds(
    file.read(),
    [primary, ...others].map((display) => display.workArea),
  );
  return { file, state };
}

export function rememberWindowState(window: BrowserWindow, file: WindowStateFile): void {
  window.on('close', () => {
    try {
      file.write({ bounds: window.getNormalBounds(), maximized: window.isMaximized() });
    } catch (error) {
      console.error(`Could not remember the window position: ${(error as Error).message}`);
    }
  });
}

export interface DesktopShellOptions {
  core: AppCore;
  now: () => number;
  /** Shows the main window at a renderer route (`/containers/<id>`, `/alerts`), or just shows it. */
  showWindow: (route?: string) => void;
  /** The main window, for the Windows taskbar overlay. */
  getWindow: () => BrowserWindow | null;
}

export function startDesktopShell({
  core,
  now,
  showWindow,
  getWindow,
}: DesktopShellOptions): () => void {
  const { autoUpdater } = electronUpdater;
  autoUpdater.autoDownload = true;
  // Installs on the next quit the dispatcher chooses; never quits for it.
  autoUpdater.autoInstallOnAppQuit = true;
  const isSyncing = () => core.getSyncStatus().state === 'syncing';
  const updates = new UpdateController({
    updater: {
      setFeedURL: (options) => autoUpdater.setFeedURL(options),
      checkForUpdates: () => autoUpdater.checkForUpdates(),
      quitAndInstall: () => autoUpdater.quitAndInstall(),
    },
    isSyncing,
    onState: () => tracker.refresh(),
    // The first check waits until start-up is long over.
    defer: (run) => setTimeout(run, 15_000).unref(),
  });
  autoUpdater.on('download-progress', () => updates.downloading());
  autoUpdater.on('update-downloaded', (info) => updates.downloaded(info.version));
  autoUpdater.on('error', (error) => updates.failed(error.message));

  const trayIcon = nativeImage.createFromPath(appIconPng(32));
  const tray = new Tray(
    process.platform === 'linux' ? trayIcon : trayIcon.resize({ width: 16, height: 16 }),
  );
  tray.on('click', () => showWindow());

  const commands: Record<TrayCommand, () => void> = {
    open: () => showWindow(),
    openAlerts: () => showWindow('/alerts'),
    // The same path as the header's button: also restarts a stopped embedded service now.
    syncNow: () => void core.dispatch('syncNow', null),
    restartToUpdate: () => {
      if (updates.requestRestart() === 'after-sync') {
        tray.setToolTip('Quayside restarts to update when the sync in progress ends.');
      }
    },
    quit: () => app.quit(),
  };
  const tracker = new AttentionTracker(
    () => ({
      unreadAlerts: core.cache.listAlerts({ limit: 1 }).unread,
      actionToday: core.cache.board.containers({ view: 'needs_action_today', limit: 1 }, now())
        .total,
      syncing: isSyncing(),
      updateReady: updates.current().phase === 'ready',
    }),
    (trayModel, badge) => {
      tray.setToolTip(trayModel.tooltip);
      if (process.platform === 'darwin') tray.setTitle(trayModel.title);
      tray.setContextMenu(
        Menu.buildFromTemplate(
          trayModel.items.map((item) => ({
            label: item.label,
            enabled: item.enabled,
            click: commands[item.command],
          })),
        ),
      );
      if (process.platform === 'win32') {
        const overlay = badge.overlayLabel
          ? nativeImage.createFromPath(badgeOverlayPng(badge.overlayLabel))
          : null;
        getWindow()?.setOverlayIcon(overlay, badge.overlayDescription);
      } else {
        // Dock (macOS) and Unity launcher (Linux).
        app.setBadgeCount(badge.count);
      }
    },
  );

  const applySettings = (settings: Settings) => {
    updates.configure(settings.desktop.updateUrl);
    // A development run would register the bare Electron binary: only installed apps do this.
    if (!app.isPackaged) return;
    try {
      applyStartAtLogin(settings.desktop.startAtLogin, {
        platform: process.platform,
        loginItems: app,
        executable: process.env.APPIMAGE ?? process.execPath,
        autostartDir: join(process.env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), 'autostart'),
      });
    } catch (error) {
      console.error(`Could not change start at login: ${(error as Error).message}`);
    }
  };
  applySettings(core.settings());
  tracker.refresh();

  const unsubscribe = core.events.subscribe((event, payload) => {
    if (event === 'settingsChanged') applySettings(payload as Settings);
    if (event === 'syncStatus') updates.syncStateChanged();
    tracker.refresh();
  });
  // Reading alerts and the day rolling over change the counts without an event.
  const timer = setInterval(() => tracker.refresh(), 30_000);
  // Workstations stay up for days: look for updates again every few hours.
  const updateTimer = setInterval(() => void updates.check(), 4 * 60 * 60 * 1000);
  updateTimer.unref();
  return () => {
    clearInterval(timer);
    clearInterval(updateTimer);
    unsubscribe();
    tray.destroy();
  };
}
