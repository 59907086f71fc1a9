/**
 * The events step of a sync run: transport events only for containers that changed and whose
 * pages did not carry their whole history (a flag set in the same transaction as the container,
 * so a crash never loses the need to fetch them).
 */
import type { CachedEvent } from '../../shared/cached-resources';
import { V2Error } from './client';
import { checkRecords } from './validate';
import { idsOf, PHASES, reportSkipped, type RunState, type SyncContext } from './run-state';

/** Events of changed containers that the container pages did not carry in full. */
export async function refreshStaleEvents(ctx: SyncContext, run: RunState): Promise<void> {
  const { cache } = ctx.options;
  const stale = cache.staleEventContainers();
  for (const [i, id] of stale.entries()) {
    const events: CachedEvent[] = [];
    const skippedBefore = run.pending.length;
    try {
      for await (const page of run.client.pages(
        `containers/${encodeURIComponent(id)}/transport_events?page[size]=${ctx.pageSize}`,
      )) {
        events.push(...checkRecords('transport_event', page.data, run.pending));
      }
    } catch (error) {
      if (error instanceof V2Error && error.kind === 'not_found') {
        // Gone from the service since the walk.
        cache.deleteContainer(id);
        continue;
      }
      throw error;
    }
    // Each event stands alone: the usable ones are stored, an unusable one keeps its cached
    // copy (if any), and the container stays marked so the next run asks again.
    const skippedIds = idsOf(run.pending.slice(skippedBefore), 'transport_event');
    const kept = skippedIds.size
      ? cache.board
          .eventsOf(id)
          .filter((e) => skippedIds.has(e.id) && !events.some((n) => n.id === e.id))
      : [];
    const complete = run.pending.length === skippedBefore;
    reportSkipped(ctx, run);
    cache.replaceEvents(id, [...events, ...kept], { complete });
    ctx.setStatus({
      progress: PHASES.events[0] + ((PHASES.events[1] - PHASES.events[0]) * (i + 1)) / stale.length,
    });
  }
}
