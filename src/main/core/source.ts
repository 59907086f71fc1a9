/**
 * What the app shows belongs to one source: the built-in simulated service (the demo), or a
 * remote service's address with the account its key opens. Each source keeps its own cache file
 * (rows, alerts, digest, sync state), so switching never shows another source's data as current
 * and switching back finds that source's own at once; and each runs on its own clock: the demo
 * world's (simulated, saved, never backwards) or real time.
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { CACHE_FILE } from '../cache/cache';
import type { Settings } from '../../shared/settings';
import { serviceIdentity } from '../connection/service-connection';

export interface Source {
  /** "demo", "remote:<digest of address and key>", or "unconfigured". */
  key: string;
  /** True for the built-in simulated service: the demo world's clock drives the app. */
  simulated: boolean;
  /** The source's cache file; null while no remote service is configured (nothing to show). */
  cacheFile: string | null;
}

export function sourceFor(
  dataDir: string,
  connection: Settings['connection'],
  apiKey: string | null,
): Source {
  // The demo keeps the file every earlier version used.
  if (connection.mode === 'embedded')
    return { key: 'demo', simulated: true, cacheFile: join(dataDir, CACHE_FILE) };
  const identity =
    connection.remoteBaseUrl && apiKey
      ? serviceIdentity({ baseUrl: connection.remoteBaseUrl, apiKey })
      : null;
  if (identity === null) return { key: 'unconfigured', simulated: false, cacheFile: null };
  // A digest names the file: the key must not be readable from a file name.
  const digest = createHash('sha256').update(identity).digest('hex').slice(0, 16);
  return {
    key: `remote:${digest}`,
    simulated: false,
    cacheFile: join(dataDir, CACHE_FILE.replace(/\.sqlite$/, `-${digest}.sqlite`)),
  };
}
