/** Command-line options shared by both shells (`npm start -- [options]`). */
import { parseArgs } from 'node:util';

export interface ShellOptions {
  browser: boolean;
  open: boolean;
  dataDir: string | null;
  port: number;
}

export class UsageError extends Error {}

export function parseShellOptions(argv: readonly string[]): ShellOptions {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      browser: { type: 'boolean', default: false },
      'no-open': { type: 'boolean', default: false },
      'data-dir': { type: 'string' },
      port: { type: 'string' },
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
  return {
    browser: values.browser === true,
    open: values['no-open'] !== true,
    dataDir: typeof dataDir === 'string' ? dataDir : null,
    port,
  };
}
