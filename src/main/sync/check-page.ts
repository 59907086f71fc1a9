/**
 * Checking one page of a shipments or containers walk: every record and included resource
 * against the tolerant schemas (a bad one is skipped and reported by its id), custom field values
 * matched to their records, complete event histories to their containers, all cut into the short
 * write slices of the cache. Pure but for the sink it reports into, so the same code runs on the
 * main thread (records.ts, a slice per turn) and on the page thread (walk-page.ts).
 */
import type {
  CachedContainer,
  CachedEvent,
  CachedShipment,
  CachedTerminal,
} from '../../shared/cached-resources';
import type { CachePage } from '../cache/interface';
import type { CustomFieldValueRecord, CustomFieldValueSet } from '../cache/custom-fields';
import { customFieldValue } from './custom-fields';
import type { RunState } from './run-state';
import { checkRecords, typeOf } from './validate';

/** Records validated between two yields to the event loop. */
const CHECK_SLICE = 100;
/** Containers (with their events) written per transaction. */
const WRITE_SLICE = 10;

function sliced<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** A page's records as checked: all of them, and cut into write slices. */
export interface CheckedPage {
  primary: CachePage & { shipments: CachedShipment[] };
  slices: CachePage[];
}

/** Where checking a page reports what it skipped and which definitions values name. */
export type PageSink = Pick<RunState, 'pending' | 'definitionIdsSeen'>;

/**
 * Checks one page's records and included resources and cuts them into write slices. Pure but for
 * `sink`; yields between slices of work, so that the main thread runs it a slice per turn
 * (readPage) and the page thread at once (page-worker.ts).
 */
export function* checkPage(
  kind: 'shipments' | 'containers',
  page: { data: unknown[]; included: unknown[] },
  sink: PageSink,
): Generator<undefined, CheckedPage> {
  const shipments: CachedShipment[] = [];
  const terminals: CachedTerminal[] = [];
  const includedContainers: CachedContainer[] = [];
  const eventsByContainer = new Map<string, CachedEvent[]>();
  const includedEvents = new Map<string, CachedEvent>();
  const includedValues = new Map<string, CustomFieldValueRecord>();
  // Included records are checked like primary ones, and a bad one is reported by its id.
  for (const [i, inc] of page.included.entries()) {
    if (i > 0 && i % CHECK_SLICE === 0) yield;
    const type = typeOf(inc);
    if (type === 'shipment') shipments.push(...checkRecords('shipment', [inc], sink.pending));
    else if (type === 'container') {
      includedContainers.push(...checkRecords('container', [inc], sink.pending));
    } else if (type === 'terminal' || type === 'rail_terminal') {
      terminals.push(...checkRecords(type, [inc], sink.pending));
    } else if (type === 'transport_event') {
      for (const e of checkRecords('transport_event', [inc], sink.pending)) {
        includedEvents.set(e.id, e);
      }
    } else if (type === 'port') checkRecords('port', [inc], sink.pending);
    else if (type === 'custom_field') {
      for (const v of checkRecords('custom_field', [inc], sink.pending)) {
        const value = customFieldValue(sink, v);
        if (value) includedValues.set(v.id, value);
      }
    }
  }
  const checked: (CachedShipment | CachedContainer)[] = [];
  for (let i = 0; i < page.data.length; i += CHECK_SLICE) {
    yield;
    const slice = page.data.slice(i, i + CHECK_SLICE);
    checked.push(
      ...(kind === 'shipments'
        ? checkRecords('shipment', slice, sink.pending)
        : checkRecords('container', slice, sink.pending)),
    );
  }
  // Each primary record's values, when the page holds them all; the relationship itself is
  // not stored with the record (the values live in their own table).
  const valueSets: CustomFieldValueSet[] = [];
  for (const record of checked) {
    const ids = takeCustomFieldIds(record);
    if (!ids) continue;
    const values = ids.map((id) => includedValues.get(id));
    if (values.every((v): v is CustomFieldValueRecord => v !== undefined)) {
      valueSets.push({
        entityType: kind === 'shipments' ? 'shipment' : 'container',
        entityId: record.id,
        values,
      });
    }
  }
  const setsOf = (ids: ReadonlySet<string>) => valueSets.filter((v) => ids.has(v.entityId));
  const primary =
    kind === 'shipments'
      ? {
          shipments: [...shipments, ...(checked as CachedShipment[])],
          containers: includedContainers,
        }
      : { shipments, containers: checked as CachedContainer[] };
  for (const c of primary.containers ?? []) {
    // Included events are used only when the page holds the container's whole history.
    const ids = c.relationships?.transport_events?.data?.map((d) => d.id);
    if (!ids) continue;
    const events = ids.map((id) => includedEvents.get(id));
    if (events.every((e): e is CachedEvent => e !== undefined)) {
      eventsByContainer.set(c.id, events);
    }
  }
  // Written in short transactions (shipments and terminals first, then a few containers
  // each) with the event loop free in between, so the UI stays responsive during a full
  // sync. Each slice is atomic; cursors move only after the whole walk, so a run stopped
  // between slices converges on the next one.
  const slices: CachePage[] = [
    {
      shipments: primary.shipments,
      terminals,
      customFieldValues: setsOf(new Set(primary.shipments.map((s) => s.id))),
    },
    ...sliced(primary.containers ?? [], WRITE_SLICE).map((containers) => ({
      containers,
      customFieldValues: setsOf(new Set(containers.map((c) => c.id))),
      events: new Map(
        containers.flatMap((c) => {
          const events = eventsByContainer.get(c.id);
          return events ? [[c.id, events] as const] : [];
        }),
      ),
    })),
  ];
  return { primary, slices };
}

/**
 * Takes the `custom_fields` relationship off a checked record (its values are stored apart) and
 * returns the value ids it lists; null when the record did not carry it.
 */
function takeCustomFieldIds(record: { relationships?: unknown }): string[] | null {
  const relationships = record.relationships as Record<string, unknown> | null | undefined;
  if (!relationships || !('custom_fields' in relationships)) return null;
  const { custom_fields: customFields, ...rest } = relationships;
  record.relationships = rest;
  const data = (customFields as { data?: unknown } | null)?.data;
  if (!Array.isArray(data)) return null;
  const ids = data.map((d) => (d as { id?: unknown } | null)?.id);
  return ids.every((id): id is string => typeof id === 'string') ? ids : null;
}
