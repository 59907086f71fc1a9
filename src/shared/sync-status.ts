/**
 * Comparing sync statuses (shared/bridge.ts SyncStatus): main reports a run's progress to the
 * whole percent (main/sync/engine.ts), and a window asks for the app clock again only when a
 * status says more than a new progress (renderer/hooks/use-now.ts).
 */
import type { SyncStatus } from './bridge';

/** Whether two statuses agree in every member but `progress`. */
export function sameBesideProgress(a: SyncStatus, b: SyncStatus): boolean {
  const members = new Set([...Object.keys(a), ...Object.keys(b)]) as Set<keyof SyncStatus>;
  for (const member of members) {
    if (member !== 'progress' && a[member] !== b[member]) return false;
  }
  return true;
}
