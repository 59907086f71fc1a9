import { existsSync } from 'node:fs';
import { loadFeedsFile, locateFeedsFile, type FeedsConfig } from '../service/feeds/config';

/**
 * The feeds configuration a command runs with: `--feeds FILE`, else `QUAYSIDE_FEEDS`, else
 * `feeds.yaml` in the data folder; null when there is none. A file that is missing or invalid
 * throws a FeedsConfigError naming the file and every bad field.
 */
export function configuredFeeds(cliPath: string | undefined, dataDir: string): FeedsConfig | null {
  const file = locateFeedsFile({ cliPath, dataDir, exists: existsSync });
  return file === null ? null : loadFeedsFile(file);
}
