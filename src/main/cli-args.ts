/** Command-line options shared by both shells (`npm start -- [options]`). */
import { parseArgs } from 'node:util';

export interface ShellOptions {
  browser: boolean;
  open: boolean;
  dataDir: string | null;
  port: number;
  /** Simulated seconds per real second for the built-in simulated world. */
  simSpeed: number;
  seed: number;
}

export const DEFAULT_APP_SIM_SPEED = 600;
export const DEFAULT_APP_SEED = 42;

export class UsageError extends Error {}

export function parseShellOptions(argv: readonly string[]): ShellOptions {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      browser: { type: 'boolean', default: false },
      'no-open': { type: 'boolean', default: false },
      'data-dir': { type: 'string' },
      port: { type: 'string' },
      'sim-speed': { type: 'string' },
      seed: { type: 'string' },
    },
    // Electron and Chromium add switches of their own; they are not ours to reject.
    strict: false,
    allowPositionals: true,
  });
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new UsageError(
      `--port must be a whole number from 0 to 65535, got "${String(values.port)}"`,
    );
  }
  const dataDir = values['data-dir'];
  if (dataDir !== undefined && (typeof dataDir !== 'string' || dataDir.trim() === '')) {
    throw new UsageError('--data-dir needs a folder path');
  }
  const simSpeed =
    values['sim-speed'] === undefined ? DEFAULT_APP_SIM_SPEED : Number(values['sim-speed']);
  if (!Number.isFinite(simSpeed) || simSpeed <= 0 || simSpeed > 1_000_000) {
    throw new UsageError(
      `--sim-speed must be a number above 0, got "${String(values['sim-speed'])}"`,
    );
  }
  const seed = values.seed === undefined ? DEFAULT_APP_SEED : Number(values.seed);
  if (!Number.isInteger(seed) || seed < 0) {
    throw new UsageError(`--seed must be a whole number, got "${String(values.seed)}"`);
  }
  return {
    simSpeed,
    seed,
    browser: values.browser === true,
    open: values['no-open'] !== true,
    dataDir: typeof dataDir === 'string' ? dataDir : null,
    port,
  };
}
