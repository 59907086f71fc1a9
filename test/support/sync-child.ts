/**
 * Runs one sync in its own process so a test can kill it with SIGKILL mid-run.
 * Usage, once bundled (test/support/built-child.ts): node sync-child.mjs <baseUrl> <apiKey> <dataDir>
 */
import { runSyncCommand } from '../../src/main/sync/command';

const [baseUrl, apiKey, dataDir] = process.argv.slice(2);
if (!baseUrl || !apiKey || !dataDir) {
  console.error('usage: sync-child <baseUrl> <apiKey> <dataDir>');
  process.exit(2);
}
process.stdout.write('started\n');
await runSyncCommand({ baseUrl, apiKey, dataDir, pageSize: 3 });
