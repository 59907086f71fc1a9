/**
 * The cache of rendered containers and shipments (least recently used go first), valid while the
 * row has the version it was rendered from (PostgreSQL), or while no write to the rendered tables
 * happened since rendering and the row's updated_at is unchanged (SQLite).
 * Bounded in bytes, not entries: what it holds must not grow with the number of rows served.
 */
import { ByteLru } from '../byte-lru';
import { rememberSerialized, serializedLength } from '../jsonapi/document';
import type { Resource } from '../jsonapi/include';

/**
 * The memory each cache may take. A hot board page or sync window fits many times over; a walk
 * over 100k containers no longer keeps what it read.
 */
const CONTAINER_CACHE_BYTES = 6 * 1024 * 1024;
const SHIPMENT_CACHE_BYTES = 4 * 1024 * 1024;
/**
 * An entry's memory as a multiple of its JSON's length: the text itself (a byte a character while
 * it is Latin-1) plus the frozen objects.
 */
const MEMORY_PER_JSON_CHARACTER = 3;

interface CachedResource {
  /** What the rendering was made from (see RenderedResourceCache.stamp). */
  stamp: string;
  resource: Resource;
}

/** A row identified for rendering without reading all its columns. */
export interface RowKey {
  id: string;
  updated_at: string;
  /** The row's version where the store keeps one (PostgreSQL; store/row-versions.ts). */
  row_version?: string;
}

/** Rendered resources (frozen, with their JSON text remembered) by id, each with its stamp. */
export class ResourceCache {
  private readonly entries: ByteLru<string, CachedResource>;
  constructor(maxBytes: number) {
    this.entries = new ByteLru(maxBytes);
  }

  /** The memory the kept entries take (estimated from their JSON). */
  get bytes(): number {
    return this.entries.bytes;
  }

  get(id: string, stamp: string): Resource | undefined {
    const entry = this.entries.get(id);
    if (!entry) return undefined;
    if (entry.stamp !== stamp) {
      this.entries.delete(id);
      return undefined;
    }
    return entry.resource;
  }

  set(id: string, stamp: string, resource: Resource): void {
    const bytes = MEMORY_PER_JSON_CHARACTER * Math.max(1, serializedLength(resource));
    this.entries.set(id, { stamp, resource }, bytes);
  }
}

/** Where the rows come from, as far as deciding whether a rendering is still current. */
export interface RenderedRowsSource {
  /** The database's write counter (SQLite, outside a transaction); undefined elsewhere. */
  writeGeneration(): number | undefined;
  /** True when rows read for rendering carry their `row_version` (PostgreSQL). */
  carriesRowVersions(): boolean;
}

/**
 * The container and shipment caches and the rule for using them. With row versions
 * (PostgreSQL, several instances) a rendering is used while its row still has the version it
 * was rendered from: any instance's write changes it. Without them (SQLite, one process owns
 * the file) it is used while no write to the rendered tables has run in this process since it
 * was rendered (the write generation) and the row's updated_at is unchanged (which also catches
 * a change written by another process, such as `quayside keys create`).
 */
export class RenderedResourceCache {
  readonly containers = new ResourceCache(CONTAINER_CACHE_BYTES);
  readonly shipments = new ResourceCache(SHIPMENT_CACHE_BYTES);

  constructor(private readonly source: RenderedRowsSource) {}

  /**
   * The write generation to capture before reading rows that will be rendered: without row
   * versions, rendered resources are cached only when no write happened between that read and
   * the rendering. Undefined when the database has no write counter.
   */
  generation(): number | undefined {
    return this.source.writeGeneration();
  }

  lookup(cache: ResourceCache, key: RowKey): Resource | undefined {
    const stamp = this.stamp(key, this.source.writeGeneration());
    return stamp === undefined ? undefined : cache.get(key.id, stamp);
  }

  remember(
    cache: ResourceCache,
    key: RowKey,
    resource: Resource,
    readAt: number | undefined,
  ): Resource {
    // A row version was read with the row itself, so it dates what was rendered from it; the
    // write counter only does when nothing was written between the read and now.
    const versioned = this.source.carriesRowVersions();
    if (!versioned && (readAt === undefined || this.source.writeGeneration() !== readAt))
      return resource;
    const stamp = this.stamp(key, readAt);
    if (stamp !== undefined) cache.set(key.id, stamp, rememberSerialized(resource));
    return resource;
  }

  /** What a rendering of `key` is made from; undefined when it cannot be told (not cached). */
  private stamp(key: RowKey, generation: number | undefined): string | undefined {
    if (this.source.carriesRowVersions())
      return key.row_version === undefined ? undefined : `v${key.row_version} ${key.updated_at}`;
    return generation === undefined ? undefined : `g${generation} ${key.updated_at}`;
  }
}
