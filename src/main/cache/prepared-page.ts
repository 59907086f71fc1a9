/**
 * A page of records made ready for the cache's write: every row projected, every event history
 * turned into its stored text and hash. Pure (no database), so it runs wherever the page was
 * read: on the sync's page thread (sync/page-thread.ts), whose rows then cross to the main thread
 * as plain values, or inline before a write (RecordsCache.applyPage). The write itself only runs
 * statements (RecordsCache.applyPrepared).
 */
import type {
  CachedContainer,
  CachedEvent,
  CachedShipment,
  CachedTerminal,
} from '../../shared/cached-resources';
import type { CustomFieldValueSet } from './custom-fields';
import type { CachePage } from './interface';
import {
  containerRow,
  shipmentRow,
  textHash,
  type ContainerRow,
  type ShipmentRow,
} from './projection';

/** A container's whole event history as it is stored: newest first, as one JSON text. */
export interface PreparedHistory {
  json: string;
  hash: string;
  count: number;
}

export interface PreparedShipment {
  row: ShipmentRow;
  /** The record itself when at hand; otherwise read back from `row.json` if the alert rules ask. */
  record?: CachedShipment;
}

export interface PreparedContainer {
  row: ContainerRow;
  /** Its complete history when the page held it (null: a later step fetches the events). */
  history: PreparedHistory | null;
  record?: CachedContainer;
}

export interface PreparedTerminal {
  id: string;
  name: string;
  json: string;
}

export interface PreparedPage {
  shipments: PreparedShipment[];
  containers: PreparedContainer[];
  terminals: PreparedTerminal[];
  customFieldValues: readonly CustomFieldValueSet[];
}

/**
 * The page's rows. `withRecords`: keep each record beside its row (no need to read the JSON
 * back); off where the rows cross a thread boundary, which copies only plain values cheaply.
 */
export function preparePage(page: CachePage, { withRecords = true } = {}): PreparedPage {
  return {
    shipments: (page.shipments ?? []).map((s) => ({
      row: shipmentRow(s),
      ...(withRecords ? { record: s } : {}),
    })),
    containers: (page.containers ?? []).map((c) => {
      const events = page.events?.get(c.id);
      return {
        row: containerRow(c),
        history: events ? preparedHistory(events) : null,
        ...(withRecords ? { record: c } : {}),
      };
    }),
    terminals: (page.terminals ?? []).map((t: CachedTerminal) => ({
      id: t.id,
      name: t.attributes.name,
      json: JSON.stringify(t),
    })),
    customFieldValues: page.customFieldValues ?? [],
  };
}

export function preparedHistory(events: readonly CachedEvent[]): PreparedHistory {
  const json = JSON.stringify([...events].sort(newestFirst));
  return { json, hash: textHash(json), count: events.length };
}

/** The order events are stored and shown in: newest first, undated last, then by id. */
function newestFirst(a: CachedEvent, b: CachedEvent): number {
  const x = a.attributes;
  const y = b.attributes;
  if ((x.timestamp === null) !== (y.timestamp === null)) return x.timestamp === null ? 1 : -1;
  if (x.timestamp !== y.timestamp) return x.timestamp! > y.timestamp! ? -1 : 1;
  if (x.created_at !== y.created_at) return (x.created_at ?? '') > (y.created_at ?? '') ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}
