/**
 * The records step of a sync run: walks of shipments and containers (with shipment, terminal,
 * event and custom-field includes to save requests), each page checked and written in short
 * transactions. Records the server no longer lists are removed after a complete full walk.
 */
import { isoString } from '../../shared/clock';
import type { CachePage } from '../cache/interface';
import type {
  CachedContainer,
  CachedEvent,
  CachedShipment,
  CachedTerminal,
} from '../../shared/cached-resources';
import type { CollectionPage } from './client';
import { checkRecords, typeOf } from './validate';
import { inTurns, nextTurn } from '../turns';
import type { CustomFieldValueRecord, CustomFieldValueSet } from '../cache/custom-fields';
import {
  reportSkipped,
  STATE,
  type RunState,
  type SyncContext,
  type WalkResult,
} from './run-state';
import { customFieldValue } from './custom-fields';

/** A collection walk whose first request is under way. */
export interface CollectionWalk {
  kind: 'shipments' | 'containers';
  cursorKey: string;
  /** From a cursor: only what changed since, so nothing missing from it is removed. */
  incremental: boolean;
  pages: AsyncIterable<CollectionPage>;
}

/** Records validated between two yields to the event loop. */
const CHECK_SLICE = 100;
/** Containers (with their events) written per transaction. */
const WRITE_SLICE = 10;

function sliced<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/**
 * Sends the first request of a collection's walk (from its cursor when incremental) at once;
 * the pages are read by walkCollection. The containers walk is started together with the
 * shipments walk, so the service prepares its first page while the shipments are written.
 */
export function startWalk(
  ctx: SyncContext,
  run: RunState,
  kind: 'shipments' | 'containers',
): CollectionWalk {
  const cursorKey = CURSOR_KEYS[kind];
  const cursor = run.incremental ? ctx.options.cache.getState<string>(cursorKey) : null;
  const path = walkPath(kind, { pageSize: ctx.pageSize, cursor, customFields: run.customFields });
  return { kind, cursorKey, incremental: cursor !== null, pages: run.client.startPages(path) };
}

/** Where each collection's walk keeps its cursor (the newest `updated_at` it stored). */
export const CURSOR_KEYS = {
  shipments: STATE.shipmentsCursor,
  containers: STATE.containersCursor,
} as const;

/** The first page's path of a walk: from `cursor` when given, with the includes it uses. */
export function walkPath(
  kind: 'shipments' | 'containers',
  options: { pageSize: number; cursor: string | null; customFields: boolean },
): string {
  const includes = kind === 'containers' ? ['shipment', 'pod_terminal', 'transport_events'] : [];
  if (options.customFields) includes.push('custom_fields');
  const include = includes.length ? `&include=${includes.join(',')}` : '';
  const filter = options.cursor
    ? `&filter[updated_at][start]=${encodeURIComponent(options.cursor)}`
    : '';
  return `${kind}?page[size]=${options.pageSize}${include}${filter}`;
}

/** Reads every page of a started walk into the cache. */
export async function walkCollection(
  ctx: SyncContext,
  run: RunState,
  { kind, cursorKey, incremental, pages }: CollectionWalk,
  phase: readonly [number, number],
): Promise<WalkResult> {
  const { cache } = ctx.options;
  const seen = new Set<string>();
  let maxUpdated: number | null = null;
  let done = 0;
  for await (const page of pages) {
    const now = isoString(ctx.options.clock.now());
    for (const raw of page.data) {
      const id = (raw as { id?: unknown })?.id;
      // A malformed record is skipped, but its cached copy is kept rather than deleted.
      if (typeof id === 'string') seen.add(id);
    }
    const { primary, slices } = await readPage(ctx, run, kind, page);
    const records = kind === 'shipments' ? primary.shipments : (primary.containers ?? []);
    for (const r of records) {
      if (kind === 'shipments' && !seen.has(r.id)) continue;
      const updated = r.attributes.updated_at ? Date.parse(r.attributes.updated_at) : NaN;
      if (run.sawUpdatedAt === null) run.sawUpdatedAt = !Number.isNaN(updated);
      else if (Number.isNaN(updated)) run.sawUpdatedAt = false;
      if (!Number.isNaN(updated) && (maxUpdated === null || updated > maxUpdated)) {
        maxUpdated = updated;
      }
    }
    await writeSlices(ctx, run, slices, now);
    done += page.data.length;
    const fraction = page.total ? Math.min(1, done / page.total) : 0.5;
    ctx.setStatus({ progress: phase[0] + (phase[1] - phase[0]) * fraction });
  }
  if (!incremental) cache.deleteMissing(kind, seen);
  return { cursorKey, maxUpdated };
}

/** Checks one page's records on the main thread, a slice per turn (see checkPage). */
export async function readPage(
  ctx: SyncContext,
  run: RunState,
  kind: 'shipments' | 'containers',
  page: { data: unknown[]; included: unknown[] },
): Promise<CheckedPage> {
  const checked = await inTurns(checkPage(kind, page, run));
  reportSkipped(ctx, run);
  return checked;
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
): Generator<void, CheckedPage> {
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

/** Writes the slices; each write stores its alerts, which are then notified once. */
export async function writeSlices(
  ctx: SyncContext,
  run: RunState,
  slices: CachePage[],
  now: string,
): Promise<void> {
  const { cache, alerts } = ctx.options;
  for (const slice of slices) {
    await nextTurn();
    const outcome = cache.applyPage(slice, now, alerts?.detect);
    run.changedShipments += outcome.shipmentsChanged;
    run.changedContainers += outcome.containersChanged;
    run.newAlerts += outcome.alerts.length;
    alerts?.deliver(outcome.alerts);
  }
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
