import type { SyncStatus } from '../../shared/bridge';

/** Whether the shown source is still loading: its first sync has not brought its data yet. */
export const stillLoading = (status: SyncStatus | null): boolean => status?.firstSync === true;

/**
 * Said in place of an empty view while the source's first sync runs: an empty worklist or
 * board then means "not here yet", never "nothing to act on".
 */
export function FirstSyncNotice({ status }: { status: SyncStatus | null }) {
  if (!status) return null;
  const running = status.state === 'syncing' && status.progress !== null;
  return (
    <div className="empty-state" role="status" data-testid="first-sync">
      <h2>Loading your containers…</h2>
      <p>
        The first sync with this tracking service is under way
        {running ? ` (${Math.round(status.progress! * 100)}%)` : ''}. {status.message ?? ''}
      </p>
      {running ? (
        <progress value={status.progress!} max={1} aria-label="First sync progress" />
      ) : (
        <progress aria-label="First sync progress" />
      )}
    </div>
  );
}
