/**
 * The active-first steps of a sync run, for services without `updated_at` (Terminal49-compatible
 * ones) after their first full walk: the shipments still tracked with their containers (content
 * hashes decide what changed), new tracking requests (`filter[updated_at]`, which that list does
 * offer), and a slice of the finished history, so the whole account is read once a day
 * (strategy/history.ts; cadences in src/shared/sync-cadence.ts).
 */
import { isoString } from '../../shared/clock';
import { V2Error } from './client';
import { checkRecords, collectionEnvelope } from './validate';
import { historyPagesThisRun } from './strategy/history';
import { PHASES, reportSkipped, STATE, type RunState, type SyncContext } from './run-state';
import { readPage, writeSlices } from './records';

/** Shipments still tracked, with their containers: every run (services without updated_at). */
export async function walkActive(ctx: SyncContext, run: RunState): Promise<void> {
  const path = `shipments?filter[tracking_stopped]=false&include=containers&page[size]=${ctx.pageSize}`;
  let done = 0;
  for await (const page of run.client.pages(path)) {
    await readAndWrite(ctx, run, page);
    done += page.data.length;
    const fraction = page.total ? Math.min(1, done / page.total) : 0.5;
    ctx.setStatus({ progress: PHASES.containers[1] * fraction });
  }
}

/** Checks one page of shipments (with included containers) and writes it. */
export async function readAndWrite(
  ctx: SyncContext,
  run: RunState,
  page: { data: unknown[]; included: unknown[] },
): Promise<void> {
  const { primary, slices } = await readPage(ctx, run, 'shipments', page);
  for (const s of primary.shipments) run.seenShipments.add(s.id);
  await writeSlices(ctx, run, slices, isoString(ctx.options.clock.now()));
}

/**
 * Tracking requests changed since the last run (the one list such services filter by
 * `updated_at`): a shipment not read this run is fetched with its containers.
 */
export async function readNewTrackingRequests(ctx: SyncContext, run: RunState): Promise<void> {
  const { cache } = ctx.options;
  const cursor =
    cache.getState<string>(STATE.trackingCursor) ?? cache.getState<string>(STATE.lastFullWalkAt);
  const filter = cursor ? `&filter[updated_at][start]=${encodeURIComponent(cursor)}` : '';
  let newest = cursor ? Date.parse(cursor) : NaN;
  const wanted = new Set<string>();
  for await (const page of run.client.pages(
    `tracking_requests?page[size]=${ctx.pageSize}${filter}`,
  )) {
    for (const request of checkRecords('tracking_request', page.data, run.pending)) {
      const updated = Date.parse(request.attributes.updated_at ?? '');
      if (!Number.isNaN(updated) && !(updated <= newest)) newest = updated;
      const shipmentId = request.relationships?.tracked_object?.data?.id;
      if (shipmentId && !run.seenShipments.has(shipmentId)) wanted.add(shipmentId);
    }
    reportSkipped(ctx, run);
  }
  for (const id of wanted) {
    const response = await run.client.get(
      `shipments/${encodeURIComponent(id)}?include=containers`,
      { accept: [404] },
    );
    if (response.status === 404) continue;
    const body = response.body as { data?: unknown; included?: unknown } | null;
    await readAndWrite(ctx, run, {
      data: body?.data ? [body.data] : [],
      included: Array.isArray(body?.included) ? body.included : [],
    });
  }
  // Just past the newest stamp: the filter is inclusive.
  run.trackingCursor = Number.isNaN(newest) ? cursor : isoString(newest + 1);
}

/** This run's share of the slow walk through finished shipments (a day per round). */
export async function walkHistorySlice(ctx: SyncContext, run: RunState): Promise<void> {
  const { cache } = ctx.options;
  let nextPage = cache.getState<number>(STATE.historyNextPage) ?? 1;
  let totalPages = cache.getState<number>(STATE.historyTotalPages);
  const lastRun = cache.getState<string>(STATE.lastRunAt);
  const due = historyPagesThisRun(totalPages, lastRun ? run.startedAt - Date.parse(lastRun) : null);
  for (let n = 0; n < due; n++) {
    const { body } = await run.client.get(
      `shipments?filter[tracking_stopped]=true&include=containers&page[size]=${ctx.pageSize}&page[number]=${nextPage}`,
    );
    const page = collectionEnvelope(body);
    if (!page) {
      throw new V2Error(
        'bad_response',
        'The service answered with something that is not a /v2 list.',
      );
    }
    await readAndWrite(ctx, run, page);
    if (page.total !== null) totalPages = Math.max(1, Math.ceil(page.total / ctx.pageSize));
    // Round again from the first page once the last one is read.
    nextPage = page.next ? nextPage + 1 : 1;
    if (nextPage === 1) break;
  }
  run.history = { nextPage, totalPages };
}
