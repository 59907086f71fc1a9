/**
 * The records step of a sync run: walks of shipments and containers (with shipment, terminal,
 * event and custom-field includes to save requests), each page read (walk-page.ts: checked and
 * projected, on the page thread where it runs) and written in short transactions. Records the
 * server no longer lists are removed after a complete full walk.
 */
import { isoString } from '../../shared/clock';
import type { CachePage, PageOutcome } from '../cache/interface';
import { inTurns, nextTurn } from '../turns';
import { checkPage, type CheckedPage } from './check-page';
import { readWalkPage } from './page-thread';
import {
  reportSkipped,
  STATE,
  type RunState,
  type SyncContext,
  type WalkResult,
} from './run-state';
import type { WalkPage } from './walk-page';

/** A collection walk whose first request is under way. */
export interface CollectionWalk {
  kind: 'shipments' | 'containers';
  cursorKey: string;
  /** From a cursor: only what changed since, so nothing missing from it is removed. */
  incremental: boolean;
  pages: AsyncIterable<WalkPage>;
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
  const pages = run.client.startPages(path, {
    read: (text) => readWalkPage(kind, text),
    next: (page) => page.next,
  });
  return { kind, cursorKey, incremental: cursor !== null, pages };
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
  const { cache, alerts } = ctx.options;
  const seen = new Set<string>();
  let maxUpdated: number | null = null;
  let done = 0;
  for await (const page of pages) {
    const now = isoString(ctx.options.clock.now());
    // A malformed record is skipped, but its cached copy is kept rather than deleted.
    for (const id of page.ids) seen.add(id);
    for await (const step of page.rest) {
      if (step.type === 'findings') {
        run.pending.push(...step.skipped);
        for (const id of step.definitionIds) run.definitionIdsSeen.add(id);
        reportSkipped(ctx, run);
        for (const updated of step.updated) {
          if (run.sawUpdatedAt === null) run.sawUpdatedAt = !Number.isNaN(updated);
          else if (Number.isNaN(updated)) run.sawUpdatedAt = false;
          if (!Number.isNaN(updated) && (maxUpdated === null || updated > maxUpdated)) {
            maxUpdated = updated;
          }
        }
      } else {
        await nextTurn();
        counted(ctx, run, cache.applyPreparedPage(step.page, now, alerts?.detect));
      }
    }
    done += page.count;
    const fraction = page.total ? Math.min(1, done / page.total) : 0.5;
    ctx.setStatus({ progress: phase[0] + (phase[1] - phase[0]) * fraction });
  }
  if (!incremental) cache.deleteMissing(kind, seen);
  return { cursorKey, maxUpdated };
}

/** Counts a write's changes into the run, and notifies the alerts it stored. */
function counted(ctx: SyncContext, run: RunState, outcome: PageOutcome): void {
  run.changedShipments += outcome.shipmentsChanged;
  run.changedContainers += outcome.containersChanged;
  run.newAlerts += outcome.alerts.length;
  ctx.options.alerts?.deliver(outcome.alerts);
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
    counted(ctx, run, cache.applyPage(slice, now, alerts?.detect));
  }
}
