/**
 * The cache of rendered containers and shipments (least recently used go first), valid while no
 * write to the rendered tables happened since rendering and the row's updated_at is unchanged.
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
/** An entry's memory as a multiple of its JSON: the bytes themselves plus the frozen objects. */
const MEMORY_PER_JSON_BYTE = 3;

interface CachedResource {
  updatedAt: string;
  generation: number;
  resource: Resource;
}

/** A row identified for rendering without reading all its columns. */
export interface RowKey {
  id: string;
  updated_at: string;
}

/**
 * Rendered resources (frozen, with their JSON text remembered) by id. An entry is used only while
 * no write to the rendered tables has happened in this process since it was rendered (the write
 * generation) and the row's updated_at is still the one it was rendered from (which also catches
 * a change written by another process).
 */
export class ResourceCache {
  private readonly entries: ByteLru<string, CachedResource>;
  constructor(maxBytes: number) {
    this.entries = new ByteLru(maxBytes);
  }

  /** The memory the kept entries take (estimated from their JSON). */
  get bytes(): number {
    return this.entries.bytes;
  }

  get(id: string, updatedAt: string, generation: number): Resource | undefined {
    const entry = this.entries.get(id);
    if (!entry) return undefined;
    if (entry.generation !== generation || entry.updatedAt !== updatedAt) {
      this.entries.delete(id);
      return undefined;
    }
    return entry.resource;
  }

  set(id: string, updatedAt: string, generation: number, resource: Resource): void {
    const bytes = MEMORY_PER_JSON_BYTE * Math.max(1, serializedLength(resource));
    this.entries.set(id, { updatedAt, generation, resource }, bytes);
  }
}

/** The container and shipment caches and the write-generation rule for using them. */
export class RenderedResourceCache {
  readonly containers = new ResourceCache(CONTAINER_CACHE_BYTES);
  readonly shipments = new ResourceCache(SHIPMENT_CACHE_BYTES);

  /** `writeGeneration`: the database's write counter (undefined: nothing is cached). */
  constructor(private readonly writeGeneration: () => number | undefined) {}

  /**
   * The write generation to capture before reading rows that will be rendered: rendered
   * resources are cached only when no write happened between that read and the rendering.
   * Undefined when the database has no write counter (nothing is cached then).
   */
  generation(): number | undefined {
    return this.writeGeneration();
  }

  lookup(cache: ResourceCache, key: RowKey): Resource | undefined {
    const generation = this.writeGeneration();
    return generation === undefined ? undefined : cache.get(key.id, key.updated_at, generation);
  }

  remember(
    cache: ResourceCache,
    key: RowKey,
    resource: Resource,
    readAt: number | undefined,
  ): Resource {
    if (readAt === undefined || this.writeGeneration() !== readAt) return resource;
    cache.set(key.id, key.updated_at, readAt, rememberSerialized(resource));
    return resource;
  }
}
