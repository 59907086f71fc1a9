import { parseArgs } from 'node:util';
import { defaultServiceDataDir } from '../../service/data-dir';
import { FeedsConfigError } from '../../service/feeds/config';
import { configuredFeeds } from '../feeds-file';
import { probeFeeds } from '../../service/feeds/probe';
import type { CommandCode } from '../command';

/**
 * Checks every source of the feeds file before the service relies on it: one line per source
 * with its latency, exit 1 when the file is invalid or any source fails. Secrets are never shown.
 */
export const feedsCheckCommand: CommandCode = {
  async run(args) {
    const { values } = parseArgs({
      args,
      options: { feeds: { type: 'string' }, 'data-dir': { type: 'string' } },
      strict: true,
    });
    let config;
    try {
      config = configuredFeeds(values.feeds, values['data-dir'] ?? defaultServiceDataDir());
    } catch (err) {
      if (err instanceof FeedsConfigError) {
        console.error(err.message);
        return 1;
      }
      throw err;
    }
    if (config === null) {
      console.error(
        'No feeds file: pass --feeds FILE, set QUAYSIDE_FEEDS or add feeds.yaml to the data folder.',
      );
      return 1;
    }
    const file = config.origin;
    const results = await probeFeeds(config);
    if (results.length === 0) {
      console.log(`${file}: no sources configured`);
      return 0;
    }
    const width = Math.max(...results.map((r) => r.source.length));
    for (const r of results) {
      console.log(
        `${r.ok ? 'ok  ' : 'FAIL'}  ${r.source.padEnd(width)}  ${String(r.latencyMs).padStart(5)} ms  ${r.target}  ${r.detail}`,
      );
    }
    const failed = results.filter((r) => !r.ok);
    if (failed.length > 0) {
      console.error(
        `${failed.length} of ${results.length} sources failed: ${failed.map((r) => r.source).join(', ')}`,
      );
      return 1;
    }
    return 0;
  },
};
