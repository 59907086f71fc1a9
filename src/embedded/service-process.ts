/**
 * Entry of the embedded service process: the tracking service with the simulated world, run out
 * of the UI process (Electron utilityProcess, or a Node child process in browser mode) and reached
 * over HTTP on 127.0.0.1 exactly like a remote service. Reports its url and key to the parent,
 * and shuts down cleanly when asked or when the parent goes away.
 */
import { startEmbeddedService } from './service-with-world';
import {
  OPTIONS_ENV,
  type EmbeddedControlMessage,
  type EmbeddedProcessMessage,
  type EmbeddedProcessOptions,
} from './protocol';

interface ParentPort {
  postMessage(message: unknown): void;
  on(event: 'message', listener: (event: { data: unknown }) => void): void;
}

/** Electron's utilityProcess exposes `process.parentPort`; a Node fork has `process.send`. */
const parentPort = (process as unknown as { parentPort?: ParentPort }).parentPort;

function send(message: EmbeddedProcessMessage): void {
  if (parentPort) parentPort.postMessage(message);
  else process.send?.(message);
}

function onControl(listener: (message: EmbeddedControlMessage) => void): void {
  if (parentPort)
    parentPort.on('message', (event) => listener(event.data as EmbeddedControlMessage));
  else process.on('message', (message) => listener(message as EmbeddedControlMessage));
}

async function main(): Promise<void> {
  const options = JSON.parse(process.env[OPTIONS_ENV] ?? 'null') as EmbeddedProcessOptions | null;
  if (!options) throw new Error(`${OPTIONS_ENV} is not set`);
  const embedded = await startEmbeddedService({
    dataDir: options.dataDir,
    port: 0,
    simSpeed: options.simSpeed,
    seed: options.seed,
    ...(Number.isFinite(options.resumeAt) ? { resumeAt: options.resumeAt } : {}),
  });
  let closing = false;
  const shutdown = () => {
    if (closing) return;
    closing = true;
    void embedded.close().finally(() => process.exit(0));
  };
  onControl((message) => {
    if (message.type === 'shutdown') shutdown();
  });
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
  // A Node fork loses its IPC channel when the app dies: do not outlive it.
  process.on('disconnect', shutdown);
  send({
    type: 'ready',
    baseUrl: embedded.baseUrl,
    apiKey: embedded.apiKey,
    simNow: embedded.clock.now(),
    simSpeed: options.simSpeed,
  });
}

main().catch((error: unknown) => {
  send({ type: 'failed', message: error instanceof Error ? error.message : String(error) });
  process.exit(1);
});
