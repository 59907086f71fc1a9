import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import pino from 'pino';
import { DEFAULT_HOST, DEFAULT_PORT, startService } from '../../../service';
import { defaultServiceDataDir } from '../../../service/data-dir';
import type { CliCommand } from '../index';

/** The simulated world's entry point, wired here (the service itself never imports src/sim). */
type StartSimWorld = (options: {
  serviceBaseUrl: string;
  apiKey?: string;
  dataDir: string;
}) => Promise<{
  close(): Promise<void>;
}>;

async function loadSimWorld(): Promise<StartSimWorld | undefined> {
  const simDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../sim');
  const entry = ['index.ts', 'index.js']
    .map((f) => path.join(simDir, f))
    .find((f) => existsSync(f));
  if (!entry) return undefined;
  const mod = (await import(pathToFileURL(entry).href)) as { startSimWorld?: StartSimWorld };
  return typeof mod.startSimWorld === 'function' ? mod.startSimWorld : undefined;
}

function parsePort(raw: string | undefined): number {
  if (raw === undefined) return DEFAULT_PORT;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`Invalid --port ${raw}`);
  return port;
}

export const serveCommand: CliCommand = {
  name: 'serve',
  usage: 'serve [--port N] [--host H] [--data-dir DIR] [--sim]',
  async run(args) {
    const { values } = parseArgs({
      args,
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        'data-dir': { type: 'string' },
        sim: { type: 'boolean', default: false },
      },
      strict: true,
    });
    const port = parsePort(values.port);
    const dataDir = values['data-dir'] ?? defaultServiceDataDir();
    let startSim: StartSimWorld | undefined;
    if (values.sim) {
      startSim = await loadSimWorld();
      if (!startSim) {
        console.error('--sim is not available yet: src/sim does not export startSimWorld.');
        return 1;
      }
    }
    const logger = pino({ level: process.env.QUAYSIDE_LOG_LEVEL ?? 'warn' });
    const service = await startService({
      dataDir,
      host: values.host ?? DEFAULT_HOST,
      port,
      logger,
    });
    console.log(`Quayside service listening on ${service.baseUrl}`);
    if (service.initialKey) console.log(`API key: ${service.initialKey}`);
    const world = startSim
      ? await startSim({ serviceBaseUrl: service.baseUrl, apiKey: service.initialKey, dataDir })
      : undefined;

    await new Promise<void>((resolve) => {
      let stopping = false;
      const stop = (signal: string) => {
        if (stopping) return;
        stopping = true;
        console.log(`Received ${signal}, shutting down`);
        void (async () => {
          try {
            await world?.close();
            await service.close();
          } finally {
            resolve();
          }
        })();
      };
      process.once('SIGINT', () => stop('SIGINT'));
      process.once('SIGTERM', () => stop('SIGTERM'));
    });
    return 0;
  },
};
