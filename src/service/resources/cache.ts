/**
 * The cache of rendered containers and shipments (least recently used go first), valid while no
 * write to the rendered tables happened since rendering and the row's updated_at is unchanged.
 */
import { rememberSerialized } from '../jsonapi/document';
import type { Resource } from '../jsonapi/include';

/** How many rendered resources of each cached type are kept (least recently used go first). */
const CONTAINER_CACHE_SIZE = 4096;
const SHIPMENT_CACHE_SIZE = 2048;

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
  private readonly entries = new Map<string, CachedResource>();
  constructor(private readonly capacity: number) {}

  get(id: string, updatedAt: string, generation: number): Resource | undefined {
    const entry = this.entries.get(id);
    if (!entry) return undefined;
    if (entry.generation !== generation || entry.updatedAt !== updatedAt) {
      this.entries.delete(id);
      return undefined;
    }
    // Refresh its place: least recently used entries are evicted first.
    this.entries.delete(id);
    this.entries.set(id, entry);
    return entry.resource;
  }

  set(id: string, updatedAt: string, generation: number, resource: Resource): void {
    this.entries.delete(id);
    if (this.entries.size >= this.capacity) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(id, { updatedAt, generation, resource });
  }
}

/** The container and shipment caches and the write-generation rule for using them. */
export class RenderedResourceCache {
  readonly containers = new ResourceCache(CONTAINER_CACHE_SIZE);
  readonly shipments = new ResourceCache(SHIPMENT_CACHE_SIZE);

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
