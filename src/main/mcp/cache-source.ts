/**
 * The assistant tools' source over a desktop data folder: the board cache and the documents
 * cache, read only. It never reaches a service, so it answers the same on a plane; its answers
 * are as of the last complete sync.
 */
import shippingLines from '../../../resources/reference/shipping_lines.json';
import type { Clock } from '../../shared/clock';
import type { CostTables } from '../../shared/cost-clock';
import type { BoardRow, ContainerQuery } from '../../shared/desktop';
import type { DocumentSummary } from '../../shared/documents';
import type { McpSource, PageOf, Paging } from '../../shared/mcp/source';
import type { Cache } from '../cache/cache';
import type { DocumentCache } from '../cache/document-cache';
import { STATE as SYNC_STATE } from '../sync/engine';
import { JsonFileSettingsStore } from '../settings/json-file-settings-store';

/** Rows read per step when a filter the cache's queries lack is applied here. */
const SCAN_STEP = 500;

export interface CacheSourceOptions {
  cache: Cache;
  documents: DocumentCache | null;
  dataDir: string;
  clock: Clock;
}

export function cacheMcpSource({
  cache,
  documents,
  dataDir,
  clock,
}: CacheSourceOptions): McpSource {
  const board = cache.board;
  // Browser mode keeps its settings in the data folder (the tariffs among them); without that
  // file the seeded tariffs apply.
  const costs: CostTables = new JsonFileSettingsStore(dataDir).read().costs;
  const boardPage = (q: ContainerQuery, p: Paging) =>
    board.containers({ showCompleted: true, ...q, offset: p.offset, limit: p.limit }, clock.now());

  return {
    name: 'desktop cache',
    asOf: async () => cache.getState<string>(SYNC_STATE.lastSuccessAt),
    now: () => clock.now(),
    costTables: () => costs,
    findContainers: async (text, limit) => boardPage({ search: text }, { offset: 0, limit }).rows,
    findShipments: async (text, limit) => board.shipments({ search: text, limit }).rows,
    container: async (id) => {
      const detail = board.containerDetail(id);
      return detail && { row: detail.row, container: detail.container, shipment: detail.shipment };
    },
    events: async (id) => (board.containerDetail(id) ? board.eventsOf(id) : null),
    shipment: async (id) => board.shipmentDetail(id),
    containers: async (filter, p) => {
      const q: ContainerQuery = {
        status: filter.status ? [filter.status] : undefined,
        pod: filter.port ? [filter.port] : undefined,
        line: filter.carrier ? [filter.carrier] : undefined,
      };
      if (!filter.updatedAfter) return boardPage(q, p);
      // Newest first, so the walk stops at the first row older than the bound.
      const since = filter.updatedAfter;
      const newest: BoardRow[] = [];
      for (let offset = 0; ; offset += SCAN_STEP) {
        const page = boardPage(
          { ...q, sort: { column: 'updatedAt', direction: 'desc' } },
          { offset, limit: SCAN_STEP },
        );
        const kept = page.rows.filter((r) => r.updatedAt !== null && r.updatedAt >= since);
        newest.push(...kept);
        if (kept.length < page.rows.length || page.rows.length < SCAN_STEP) break;
      }
      return { total: newest.length, rows: newest.slice(p.offset, p.offset + p.limit) };
    },
    shipments: async (filter, p) => {
      const all = [];
      for (let offset = 0; ; offset += SCAN_STEP) {
        const page = board.shipments({ offset, limit: SCAN_STEP });
        all.push(...page.rows);
        if (page.rows.length < SCAN_STEP) break;
      }
      const matches = all.filter((s) => {
        if (filter.port && s.podLocode !== filter.port) return false;
        if (filter.carrier && s.lineScac !== filter.carrier) return false;
        if (filter.status || filter.updatedAfter) {
          const detail = board.shipmentDetail(s.id)!.shipment.attributes;
          if (
            filter.status &&
            (detail.line_tracking_stopped_at ? 'stopped' : 'active') !== filter.status
          )
            return false;
          if (filter.updatedAfter && !((detail.updated_at ?? '') >= filter.updatedAfter))
            return false;
        }
        return true;
      });
      return { total: matches.length, rows: matches.slice(p.offset, p.offset + p.limit) };
    },
    trackingRequests: async () => null,
    shippingLines: async () =>
      shippingLines
        .map((l) => ({ scac: l.scac, name: l.name }))
        .sort((a, b) => a.name.localeCompare(b.name)),
    activeRows: async (limit) => {
      const rows = board.worklistRows(limit + 1);
      return { rows: rows.slice(0, limit), complete: rows.length <= limit };
    },
    documents: async (filter, p): Promise<PageOf<DocumentSummary> | null> => {
      if (!documents) return null;
      let all = documents.list(5000);
      if (filter.shipmentId) {
        const detail = board.shipmentDetail(filter.shipmentId);
        const numbers = detail
          ? [
              detail.shipment.attributes.bill_of_lading_number,
              ...detail.containers.map((c) => c.number),
            ]
          : [];
        all = documents.forShipment(filter.shipmentId, numbers);
      }
      return { total: all.length, rows: all.slice(p.offset, p.offset + p.limit) };
    },
    customFieldColumns: async () => board.customFieldColumns(),
    track: async () => ({
      kind: 'unavailable',
      reason:
        'This assistant reads the desktop cache only and never reaches the service: track the number from the app (Track) or through the service (its /mcp).',
    }),
  };
}
