/**
 * What a find link (`quayside://find?q=…`, browser mode's `/find?q=…`, `quayside open …`)
 * opens, decided over the cache alone so it works offline. The order: an exact container
 * number, then an exact shipment number (B/L or booking) or reference number, then a partial
 * match that names one container, and otherwise the board filtered by the query. Spaces and
 * dashes never matter (`MSCU 123456-5` is `MSCU1234565`).
 */
import type { FindTarget } from '../../shared/bridge';
import { normaliseIdentifier } from '../../shared/find-link';
import type { BoardQueries } from './board-query';

/** Candidates read per search: a number or a reference names a handful of records. */
const CANDIDATES = 50;

export function resolveFind(query: string, board: BoardQueries, now: number): FindTarget {
  const wanted = normaliseIdentifier(query);
  if (!wanted) return { kind: 'board', search: query.trim() };
  const same = (value: string | null | undefined) =>
    !!value && normaliseIdentifier(value) === wanted;
  // The search index splits on spaces and dashes: ask with the text as given and as one word.
  const searches = [...new Set([query.trim(), wanted])];
  const containers = new Map(
    searches.flatMap((search) =>
      board
        .containers({ search, showCompleted: true, limit: CANDIDATES }, now)
        .rows.map((row) => [row.id, row] as const),
    ),
  );

  const byNumber = [...containers.values()].find((row) => same(row.number));
  if (byNumber) return { kind: 'container', id: byNumber.id, number: byNumber.number };

  const shipmentIds = new Set(
    searches.flatMap((search) =>
      board.shipments({ search, limit: CANDIDATES }).rows.map((s) => s.id),
    ),
  );
  for (const row of containers.values()) if (row.shipmentId) shipmentIds.add(row.shipmentId);
  for (const id of shipmentIds) {
    const shipment = board.shipmentDetail(id)?.shipment;
    if (!shipment) continue;
    const a = shipment.attributes;
    if (same(a.bill_of_lading_number) || (a.ref_numbers ?? []).some(same))
      return { kind: 'shipment', id, number: a.bill_of_lading_number };
  }
  // A container's own reference numbers.
  for (const row of containers.values()) {
    const refs = board.containerDetail(row.id)?.container.attributes.ref_numbers ?? [];
    if (refs.some(same)) return { kind: 'container', id: row.id, number: row.number };
  }

  const partial = [...containers.values()].filter((row) =>
    [row.number, row.billOfLading].some((v) => !!v && normaliseIdentifier(v).includes(wanted)),
  );
  if (partial.length === 1)
    return { kind: 'container', id: partial[0]!.id, number: partial[0]!.number };
  return { kind: 'board', search: query.trim() };
}
