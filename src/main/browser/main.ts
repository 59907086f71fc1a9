/**
 * Browser-mode shell: `npm start -- --browser [--no-open] [--data-dir DIR] [--port N]`, and the
 * automatic fallback where Electron's runtime is not installed. Prints one line with the url
 * (which carries the launch token) and, unless --no-open, opens it in the default browser.
 */
import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeAppInfo } from '../app-info';
import { parseShellOptions, UsageError } from '../cli-args';
import { AppCore } from '../core/app-core';
import { defaultDataDir } from '../paths';
import { privateDataDir, privateNewFiles } from '../private-data';
import { JsonFileSettingsStore } from '../settings/json-file-settings-store';
import { FileSecretStore } from '../core/secret-store';
import { EmbeddedServiceProcess } from '../service-launcher/launcher';
import { ScaledClock } from '../../shared/clock';
import { forkNodeProcess } from '../service-launcher/node-fork';
import { startBrowserServer } from './browser-server';

function openInBrowser(url: string): void {
  const command =
    process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
  const child = spawn(command, [url], { stdio: 'ignore', detached: true });
  child.on('error', () => console.log('Could not open a browser; open the url above yourself.'));
  child.unref();
}

async function main(): Promise<void> {
  const options = parseShellOptions(process.argv.slice(2));
  const dataDir = resolve(options.dataDir ?? defaultDataDir());
  // Files made from here on (the embedded service's too) and those already there: the user's alone.
  privateNewFiles();
  privateDataDir(dataDir);
  let core: AppCore | null = null;
  const clock = new ScaledClock();
  const embedded = new EmbeddedServiceProcess({
    dataDir: join(dataDir, 'embedded-service'),
    simSpeed: options.simSpeed,
    seed: options.seed,
    fork: forkNodeProcess(fileURLToPath(new URL('./service-process.js', import.meta.url))),
    onSimulatedTime: (simNow, speed) => clock.follow(simNow, speed),
    resumeAt: () => clock.now(),
    onState: (state) => {
      if (!state.up && state.message) console.error(state.message);
      core?.onEmbeddedState(state);
    },
  });
  core = new AppCore({
    appInfo: makeAppInfo('browser', dataDir),
    settingsStore: new JsonFileSettingsStore(dataDir),
    secretStore: new FileSecretStore(dataDir),
    embedded,
    clock,
  });
  core.start();
  if (core.settings().connection.mode === 'embedded') {
    embedded.start().catch((error: unknown) => console.error((error as Error).message));
  }
  const server = await startBrowserServer({
    core: core,
    rendererDir: fileURLToPath(new URL('../renderer', import.meta.url)),
    port: options.port,
  });
  console.log(`Quayside is running at ${server.url}`);
  if (options.open) openInBrowser(server.url);

  let closing = false;
  const shutdown = () => {
    if (closing) return;
    closing = true;
    void core?.stop();
    void Promise.all([server.close(), embedded.stop()]).finally(() => process.exit(0));
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
}

main().catch((error: unknown) => {
  console.error(error instanceof UsageError ? `quayside: ${error.message}` : error);
  process.exit(error instanceof UsageError ? 2 : 1);
});
