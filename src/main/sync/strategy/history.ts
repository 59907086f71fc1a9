/**
 * The slow walk of finished shipments for services without `updated_at`: one full walk of the
 * account's history per HISTORY_CYCLE_HOURS, cut into slices so each sync spends only its share
 * of the request budget on it.
 */
import { HISTORY_CYCLE_HOURS } from '../../../shared/sync-cadence';

const CYCLE_MS = HISTORY_CYCLE_HOURS * 3_600_000;

/**
 * Pages of the history walk this run should read: the cycle's share of the time since the last
 * run (at least one page, so the walk always moves; never more than the whole history).
 */
export function historyPagesThisRun(
  totalPages: number | null,
  msSinceLastRun: number | null,
): number {
  if (!totalPages || totalPages < 1) return 1;
  const share = Math.ceil((totalPages * Math.max(0, msSinceLastRun ?? 0)) / CYCLE_MS);
  return Math.min(totalPages, Math.max(1, share));
}
