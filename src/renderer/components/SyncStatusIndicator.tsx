import type { SyncStatus } from '../../shared/bridge';

const LABELS: Record<SyncStatus['state'], string> = {
  idle: 'Up to date',
  syncing: 'Syncing',
  offline: 'Offline',
  error: 'Sync error',
};

export function SyncStatusIndicator({ status }: { status: SyncStatus | null }) {
  if (!status) return <div className="sync-status" aria-busy="true" />;
  const progress =
    status.state === 'syncing' && status.progress !== null
      ? ` ${Math.round(status.progress * 100)}%`
      : '';
  const neverSynced = status.state === 'idle' && status.lastSuccessAt === null;
  const label = neverSynced ? 'Not synced yet' : LABELS[status.state];
  const detail =
    status.message ??
    (status.lastSuccessAt ? `Last synced ${new Date(status.lastSuccessAt).toLocaleString()}` : '');
  return (
    <div className={`sync-status sync-status--${status.state}`} role="status" aria-live="polite">
      <span className="sync-status__dot" aria-hidden="true" />
      <span className="sync-status__label">
        {label}
        {progress}
      </span>
      {detail ? <span className="sync-status__detail">{detail}</span> : null}
    </div>
  );
}
