/**
 * `quayside mcp`: the assistant tools over standard input and output, answering from a desktop
 * data folder's cache. Nothing else may write to standard output (it carries the protocol), so
 * messages for people go to standard error.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { ManualClock, systemClock, type Clock } from '../../shared/clock';
import { createQuaysideMcpServer } from '../../shared/mcp/tools';
import { Cache, CACHE_FILE } from '../cache/cache';
import { DocumentCache, DOCUMENTS_FILE } from '../cache/document-cache';
import { readSavedAppTime } from '../core/app-clock';
import { cacheMcpSource } from './cache-source';
import packageJson from '../../../package.json';

/**
 * The clock answers are read on: a demo data folder's saved app time (its simulated world
 * stands still while the app is closed), else the wall clock.
 */
function clockFor(dataDir: string): Clock {
  const saved = readSavedAppTime(dataDir);
  return saved === null ? systemClock : new ManualClock(saved);
}

/** Serves until standard input closes. Resolves with an exit code. */
export async function serveMcpOverStdio(dataDir: string): Promise<number> {
  if (!existsSync(join(dataDir, CACHE_FILE))) {
    process.stderr.write(
      `No Quayside cache in ${dataDir}: open the app (or run quayside sync) once, or pass --data-dir.\n`,
    );
    return 2;
  }
  const cache = Cache.open(dataDir);
  const documents = existsSync(join(dataDir, DOCUMENTS_FILE)) ? DocumentCache.open(dataDir) : null;
  const source = cacheMcpSource({ cache, documents, dataDir, clock: clockFor(dataDir) });
  const server = createQuaysideMcpServer(source, packageJson.version);
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    process.stdin.once('end', () => resolve());
  });
  await server.connect(transport);
  process.stderr.write(`Quayside MCP server: answering from ${dataDir}\n`);
  try {
    await closed;
  } finally {
    await server.close().catch(() => undefined);
    documents?.close();
    cache.close();
  }
  return 0;
}
