/**
 * Search across shipments, containers and tracking requests by any of their numbers and
 * references, callable without HTTP. Shipments first, then containers, then tracking requests;
 * newest first within each; requests whose shipment is already listed are left out. Every item
 * is a `search_result` (what the real service sends and its clients read) whose `entity_type`
 * names what it found: `shipment`, `cargo` (a container) or `tracking_request`.
 */
import type { SearchResult } from '../../shared/api/resources';
import type { ServiceContext } from '../context';
import { ApiError } from '../jsonapi/errors';

export const SEARCH_LIMIT = 25;

/** At most SEARCH_LIMIT results for `query`; a blank query is a 400 naming the parameter. */
export async function searchRecords(
  ctx: ServiceContext,
  accountId: string,
  query: string | undefined,
): Promise<SearchResult[]> {
  const { ref } = ctx;
  const text = (query ?? '').trim();
  if (!text) {
    throw new ApiError(400, 'The query parameter is required', {
      source: { parameter: 'query' },
    });
  }
  const hits = await ctx.stores.reads.search(accountId, text.toUpperCase(), SEARCH_LIMIT);
  const { shipments, containers, trackingRequests: requests } = hits;
  const shipmentIds = shipments.map((s) => s.id);
  const countOf = hits.containerCounts;
  const blank = {
    shipment_id: null,
    scac: null,
    port_of_lading_name: null,
    port_of_discharge_name: null,
    containers_count: null,
    tracking_stopped: null,
    tracking_stopped_reason: null,
    status: null,
    failed_reason: null,
  };
  return [
    ...shipments.map((s) => ({
      id: s.id,
      type: 'search_result' as const,
      attributes: {
        ...blank,
        entity_type: 'shipment',
        number: s.bill_of_lading_number,
        scac: s.scac,
        port_of_lading_name: s.port_of_lading_id
          ? (ref.portsById.get(s.port_of_lading_id)?.name ?? null)
          : null,
        port_of_discharge_name: s.port_of_discharge_id
          ? (ref.portsById.get(s.port_of_discharge_id)?.name ?? null)
          : null,
        containers_count: countOf.get(s.id) ?? 0,
        tracking_stopped: s.line_tracking_stopped_at !== null,
        tracking_stopped_reason: s.line_tracking_stopped_reason,
        ref_numbers: JSON.parse(s.ref_numbers) as string[],
        created_at: s.created_at,
        updated_at: s.updated_at,
      },
    })),
    ...containers.map((c) => ({
      id: c.id,
      type: 'search_result' as const,
      attributes: {
        ...blank,
        entity_type: 'cargo',
        number: c.number,
        shipment_id: c.shipment_id,
        scac: hits.containerScacs.get(c.id) ?? null,
        ref_numbers: JSON.parse(c.ref_numbers) as string[],
        created_at: c.created_at,
        updated_at: c.updated_at,
      },
    })),
    ...requests
      .filter((r) => !r.shipment_id || !shipmentIds.includes(r.shipment_id))
      .map((r) => ({
        id: r.id,
        type: 'search_result' as const,
        attributes: {
          ...blank,
          entity_type: 'tracking_request',
          number: r.request_number,
          shipment_id: r.shipment_id,
          scac: r.scac,
          status: r.status,
          failed_reason: r.failed_reason,
          ref_numbers: JSON.parse(r.ref_numbers) as string[],
          created_at: r.created_at,
          updated_at: r.updated_at,
        },
      })),
  ].slice(0, SEARCH_LIMIT);
}
