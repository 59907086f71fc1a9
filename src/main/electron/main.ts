/**
 * The Electron shell. The only place (with the preload) that imports 'electron'.
 * Security baseline: context isolation, sandboxed renderer, no Node integration, a strict CSP
 * (meta tag in index.html), navigation and new windows blocked with http(s) links handed to the
 * OS browser, every permission but notifications denied, and IPC accepted only from our window.
 */
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  app,
  BrowserWindow,
  ipcMain,
  Notification,
  session,
  shell,
  utilityProcess,
  type IpcMainInvokeEvent,
  type WebContents,
} from 'electron';
import type { BridgeReply } from '../../shared/bridge';
import { IPC_EVENT_CHANNEL, IPC_INVOKE_CHANNEL } from '../../shared/ipc-channels';
import { makeAppInfo } from '../app-info';
import { parseShellOptions } from '../cli-args';
import { AppCore } from '../core/app-core';
import { EmbeddedServiceProcess } from '../service-launcher/launcher';
import { ScaledClock } from '../../shared/clock';
import { PRODUCT_NAME } from '../paths';
import { privateDataDir, privateNewFiles } from '../private-data';
import { ElectronSettingsStore } from './electron-settings-store';
import { SECRET_KEY_ENV } from '../../shared/service-env';
import { createSecretStore, embeddedServiceSecretKey } from './safe-storage-secret-store';
import { notificationRoute } from '../desktop/notification-target';
import { handleFindLinks } from './find-links';
import {
  appWindowIcon,
  rememberWindowState,
  restoredWindowState,
  setAppUserModelId,
  startDesktopShell,
} from './desktop-shell';

const options = parseShellOptions(process.argv.slice(1));
app.setName(PRODUCT_NAME);
if (options.dataDir) app.setPath('userData', resolve(options.dataDir));
// Files made from here on (Chromium's, the embedded service's) and those already there: the
// user's alone.
privateNewFiles();
privateDataDir(app.getPath('userData'));

const here = fileURLToPath(new URL('.', import.meta.url));
const rendererIndex = join(here, '../renderer/index.html');
const rendererUrl = pathToFileURL(rendererIndex).href;
const preloadPath = join(here, '../preload/index.cjs');

let mainWindow: BrowserWindow | null = null;

function isOurRenderer(contents: WebContents, frameUrl: string | undefined): boolean {
  return mainWindow !== null && contents === mainWindow.webContents && frameUrl === rendererUrl;
}

function openExternally(url: string): void {
  const protocol = new URL(url).protocol;
  // Only web and mail links leave the app; file:, smb: and custom schemes never reach the OS.
  if (protocol === 'https:' || protocol === 'http:' || protocol === 'mailto:') {
    void shell.openExternal(url); /* eng-disable OPEN_EXTERNAL_JS_CHECK */
  }
}

function hardenWebContents(contents: WebContents): void {
  contents.on('will-navigate', (event, url) => {
    if (url !== rendererUrl) {
      event.preventDefault();
      openExternally(url);
    }
  });
  contents.on('will-redirect', (event) => event.preventDefault());
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    openExternally(url);
    return { action: 'deny' };
  });
}

function createWindow(dataDir: string): BrowserWindow {
  const { file: windowStateFile, state: windowState } = restoredWindowState(dataDir);
  const window = new BrowserWindow({
    ...windowState.bounds,
    icon: appWindowIcon(),
    minWidth: 1024,
    minHeight: 640,
    title: PRODUCT_NAME,
    show: false,
    webPreferences: {
      // Reviewed: the preload only forwards the bridge contract over one IPC channel.
      preload: preloadPath /* eng-disable PRELOAD_JS_CHECK */,
      // Middle-click would otherwise open links in a new window, around the navigation guard.
      disableBlinkFeatures: 'Auxclick',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      spellcheck: false,
    },
  });
  window.once('ready-to-show', () => {
    if (windowState.maximized) window.maximize();
    window.show();
  });
  rememberWindowState(window, windowStateFile);
  void window.loadFile(rendererIndex);
  return window;
}

/** Brings the main window forward, at a renderer route (`/containers/<id>`) when given. */
function showWindow(route?: string): void {
  if (!mainWindow) return;
  if (mainWindow.isMinimized()) mainWindow.restore();
  mainWindow.show();
  mainWindow.focus();
  // A fragment-only change: the renderer follows it like its own hash navigation.
  if (route) void mainWindow.loadFile(rendererIndex, { hash: route });
}

async function main(): Promise<void> {
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return;
  }
  setAppUserModelId();
  const findLinks = handleFindLinks(showWindow);
  app.on('web-contents-created', (_event, contents) => hardenWebContents(contents));
  await app.whenReady();

  session.defaultSession.setPermissionRequestHandler((_contents, permission, callback) =>
    callback(permission === 'notifications'),
  );

  const dataDir = app.getPath('userData');
  let started: AppCore | null = null;
  const clock = new ScaledClock();
  const serviceDataDir = join(dataDir, 'embedded-service');
  const serviceSecretKey = embeddedServiceSecretKey(dataDir, serviceDataDir);
  const embedded = new EmbeddedServiceProcess({
    dataDir: serviceDataDir,
    simSpeed: options.simSpeed,
    seed: options.seed,
    fork: (env) => {
      const child = utilityProcess.fork(join(here, 'service-process.js'), [], {
        env: {
          ...process.env,
          ...env,
          ...(serviceSecretKey ? { [SECRET_KEY_ENV]: serviceSecretKey } : {}),
        },
        serviceName: 'Quayside tracking service',
        stdio: 'inherit',
      });
      return {
        onMessage: (listener) => child.on('message', listener),
        onExit: (listener) => child.on('exit', (code) => listener(code)),
        send: (message) => child.postMessage(message),
        kill: () => child.kill(),
      };
    },
    onSimulatedTime: (simNow, speed) => clock.follow(simNow, speed),
    resumeAt: () => clock.now(),
    onState: (state) => started?.onEmbeddedState(state),
  });
  const core = new AppCore({
    embedded,
    clock,
    // The cached document file, in the OS's own viewer; '' when it opened.
    openFile: (path) => shell.openPath(path),
    appInfo: makeAppInfo('electron', dataDir),
    settingsStore: new ElectronSettingsStore(),
    secretStore: createSecretStore(dataDir),
    notifier: {
      notify: ({ title, body, containerId, kind }) => {
        if (!Notification.isSupported()) return;
        const notification = new Notification({ title, body });
        notification.on('click', () => showWindow(notificationRoute(containerId, kind)));
        notification.show();
      },
    },
  });
  started = core;
  core.start();
  if (core.settings().connection.mode === 'embedded') {
    embedded.start().catch((error: unknown) => console.error((error as Error).message));
  }
  app.on('before-quit', () => {
    void core.stop();
    void embedded.stop();
  });

  ipcMain.handle(
    IPC_INVOKE_CHANNEL,
    async (event: IpcMainInvokeEvent, method: unknown, argument: unknown): Promise<BridgeReply> => {
      if (!isOurRenderer(event.sender, event.senderFrame?.url)) {
        return {
          ok: false,
          error: { code: 'forbidden', message: 'Sender is not the Quayside window.' },
        };
      }
      return core.dispatch(String(method), argument);
    },
  );
  core.events.subscribe((name, payload) => {
    mainWindow?.webContents.send(IPC_EVENT_CHANNEL, name, payload);
  });

  mainWindow = createWindow(dataDir);
  const stopDesktopShell = startDesktopShell({
    core,
    now: () => clock.now(),
    showWindow,
    getWindow: () => mainWindow,
  });
  app.on('before-quit', stopDesktopShell);
  mainWindow.on('closed', () => {
    mainWindow = null;
  });
  app.on('second-instance', () => {
    if (mainWindow?.isMinimized()) mainWindow.restore();
    mainWindow?.focus();
  });
  findLinks.windowReady();
  app.on('window-all-closed', () => app.quit());
}

void main();
