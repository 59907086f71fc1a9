/**
 * Batch rendering of stored rows (one query per relationship, never per row) through the
 * rendered-resource cache, and loading of included resources by type.
 */
import type { Resource } from '../jsonapi/include';
import type { ReadMark } from '../store/key-memo';
import type { ReferenceData } from '../store/reference';
import type { ResourceRows } from '../store/resource-rows';
import type { Versioned } from '../store/row-versions';
import type {
  ContainersTable,
  RawEventsTable,
  ShipmentsTable,
  TransportEventsTable,
} from '../store/schema';
import { RenderedResourceCache, type RowKey } from './rendered-cache';
import { loadIncluded } from './includes';
import { ResourceRendering } from './render';

/** List totals kept (a few filters per account in use at a time). */
const TOTALS_KEPT = 1024;

export class Renderer {
  readonly rendering: ResourceRendering;
  private readonly cache: RenderedResourceCache;
  /** List totals by account and filter (a count per page request costs as much as the page). */
  private readonly totals = new Map<string, { generation: number; total: number }>();

  constructor(
    private readonly rows: ResourceRows,
    private readonly ref: ReferenceData,
  ) {
    this.rendering = new ResourceRendering(ref);
    this.cache = new RenderedResourceCache(rows);
  }

  /** See RenderedResourceCache.generation. */
  generation(): number | undefined {
    return this.cache.generation();
  }

  /** A list total counted at write generation `readAt`, while no write has happened since. */
  keptTotal(key: string, readAt: number | undefined): number | undefined {
    const kept = this.totals.get(key);
    return readAt !== undefined && kept?.generation === readAt ? kept.total : undefined;
  }

  /** Keeps a list total counted at `readAt` (when nothing was written meanwhile). */
  keepTotal(key: string, readAt: number | undefined, total: number): void {
    if (readAt === undefined || this.cache.generation() !== readAt) return;
    this.totals.delete(key);
    if (this.totals.size >= TOTALS_KEPT) this.totals.delete(this.totals.keys().next().value!);
    this.totals.set(key, { generation: readAt, total });
  }

  transportEvent(e: TransportEventsTable): Resource {
    return this.rendering.transportEvent(e);
  }

  rawEvent(e: RawEventsTable): Resource {
    return this.rendering.rawEvent(e);
  }

  /**
   * `readAt`: the generation() captured before `rows` were read; when given, what is rendered
   * here is cached (rows carrying a row version, on PostgreSQL, are cached by that version).
   */
  async shipments(rows: Versioned<ShipmentsTable>[], readAt?: number): Promise<Resource[]> {
    if (rows.length === 0) return [];
    const out: (Resource | undefined)[] = rows.map((r) =>
      this.cache.lookup(this.cache.shipments, r),
    );
    const missing = rows.filter((_r, i) => !out[i]);
    if (missing.length > 0) {
      const containers = await this.rows.containerIdsOfShipments(missing.map((r) => r.id));
      const byShipment = groupIds(containers, 'shipment_id');
      rows.forEach((r, i) => {
        if (out[i]) return;
        const resource = this.rendering.shipment(r, byShipment.get(r.id) ?? []);
        out[i] = this.cache.remember(this.cache.shipments, r, resource, readAt);
      });
    }
    return out as Resource[];
  }

  /**
   * `readAt`: the generation() captured before `rows` were read; when given, what is rendered
   * here is cached (rows carrying a row version, on PostgreSQL, are cached by that version).
   */
  async containers(rows: Versioned<ContainersTable>[], readAt?: number): Promise<Resource[]> {
    if (rows.length === 0) return [];
    const out: (Resource | undefined)[] = rows.map((r) =>
      this.cache.lookup(this.cache.containers, r),
    );
    const missing = rows.filter((_r, i) => !out[i]);
    if (missing.length > 0) {
      const ids = missing.map((r) => r.id);
      const { transportEvents, rawEvents } = await this.rows.eventIdsOfContainers(ids);
      const ev = groupIds(transportEvents, 'container_id');
      const raw = groupIds(rawEvents, 'container_id');
      rows.forEach((r, i) => {
        if (out[i]) return;
        const resource = this.rendering.container(r, ev.get(r.id) ?? [], raw.get(r.id) ?? []);
        out[i] = this.cache.remember(this.cache.containers, r, resource, readAt);
      });
    }
    return out as Resource[];
  }

  /**
   * Renders containers known by id and updated_at (in that order), reading the full rows only
   * for those not cached. `readAt`: the generation() captured before `keys` were read.
   * Rows gone since `keys` were read are left out.
   */
  async containersByKey(keys: readonly RowKey[], readAt: number | undefined): Promise<Resource[]> {
    const cached = keys.map((k) => this.cache.lookup(this.cache.containers, k));
    const missingIds = keys.filter((_k, i) => !cached[i]).map((k) => k.id);
    if (missingIds.length === 0) return cached as Resource[];
    const rows = await this.rows.containers(missingIds);
    const rendered = new Map((await this.containers(rows, readAt)).map((r) => [r.id, r] as const));
    return keys.flatMap((k, i) => cached[i] ?? rendered.get(k.id) ?? []);
  }

  /** Like containersByKey, for shipments. */
  async shipmentsByKey(keys: readonly RowKey[], readAt: number | undefined): Promise<Resource[]> {
    const cached = keys.map((k) => this.cache.lookup(this.cache.shipments, k));
    const missingIds = keys.filter((_k, i) => !cached[i]).map((k) => k.id);
    if (missingIds.length === 0) return cached as Resource[];
    const rows = await this.rows.shipments(missingIds);
    const rendered = new Map((await this.shipments(rows, readAt)).map((r) => [r.id, r] as const));
    return keys.flatMap((k, i) => cached[i] ?? rendered.get(k.id) ?? []);
  }

  /**
   * Resources of one type by id for `include`; account-owned types are scoped (includes.ts).
   * `since`: the request's read mark (AccountReads.mark), so its includes read under its version.
   */
  load(accountId: string, type: string, ids: string[], since?: ReadMark): Promise<Resource[]> {
    return loadIncluded(
      { renderer: this, rows: this.rows, ref: this.ref },
      accountId,
      type,
      ids,
      since,
    );
  }
}

function groupIds<K extends string>(
  rows: ({ id: string } & Record<K, string>)[],
  key: K,
): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const r of rows) {
    const list = out.get(r[key]);
    if (list) list.push(r.id);
    else out.set(r[key], [r.id]);
  }
  return out;
}
