import { parseArgs } from 'node:util';
import { exportContainersCsv, runSyncCommand } from '../../main/sync/command';
import type { CommandCode } from '../command';

/** `quayside sync`: fills a local cache from any /v2 service, once or on a schedule. */
export const syncCommand: CommandCode = {
  async run(args) {
    const { values } = parseArgs({
      args,
      options: {
        'base-url': { type: 'string' },
        'api-key': { type: 'string' },
        'data-dir': { type: 'string' },
        watch: { type: 'boolean', default: false },
        interval: { type: 'string' },
      },
      strict: true,
    });
    const baseUrl = values['base-url'];
    const apiKey = values['api-key'] ?? process.env.QUAYSIDE_API_KEY;
    const dataDir = values['data-dir'];
    if (!baseUrl || !apiKey || !dataDir) {
      console.error(
        'sync needs --base-url, --api-key (or QUAYSIDE_API_KEY in the environment) and --data-dir',
      );
      return 2;
    }
    const intervalMinutes = values.interval === undefined ? undefined : Number(values.interval);
    if (intervalMinutes !== undefined && !(intervalMinutes > 0)) {
      console.error('--interval must be a number of minutes above 0');
      return 2;
    }
    await runSyncCommand({ baseUrl, apiKey, dataDir, watch: values.watch, intervalMinutes });
    return 0;
  },
};

/** `quayside export containers`: the cached container board as CSV on standard output. */
export const exportCommand: CommandCode = {
  async run(args) {
    const { values } = parseArgs({
      args,
      options: { 'data-dir': { type: 'string' }, format: { type: 'string', default: 'csv' } },
      strict: true,
    });
    if (!values['data-dir']) {
      console.error('export containers needs --data-dir (the folder of a synced cache)');
      return 2;
    }
    if (values.format !== 'csv') {
      console.error(`Unsupported format "${values.format}": only csv is available`);
      return 2;
    }
    // The whole cache, completed (empty-returned) containers included, as the board hides them.
    await exportContainersCsv(values['data-dir'], process.stdout, { showCompleted: true });
    return 0;
  },
};
