import { useState } from 'react';
import type { SyncStatus } from '../../shared/bridge';
import { quayside } from '../bridge';
import { describeFailure } from '../hooks/use-bridge';
import { useNow } from '../hooks/use-now';
import { formatRelative, formatShortDateTime } from '../lib/format';

const LABELS: Record<SyncStatus['state'], string> = {
  idle: 'Up to date',
  syncing: 'Syncing',
  offline: 'Offline',
  error: 'Sync error',
};

export function SyncStatusIndicator({ status }: { status: SyncStatus | null }) {
  const now = useNow(15_000);
  const [requestError, setRequestError] = useState<string | null>(null);
  const [requesting, setRequesting] = useState(false);
  if (!status) return <div className="sync-status" aria-busy="true" />;
  const progress =
    status.state === 'syncing' && status.progress !== null
      ? ` ${Math.round(status.progress * 100)}%`
      : '';
  const neverSynced = status.state === 'idle' && status.lastSuccessAt === null;
  const label = neverSynced ? 'Not synced yet' : LABELS[status.state];
  const lastSynced = status.lastSuccessAt
    ? // Main may stamp times on a faster simulated clock: show those as a plain time.
      Date.parse(status.lastSuccessAt) > now + 60_000
      ? `Last synced ${formatShortDateTime(status.lastSuccessAt)}`
      : `Last synced ${formatRelative(status.lastSuccessAt, now)}`
    : '';
  const detail = [status.message, lastSynced].filter(Boolean).join(' · ');

  const syncNow = async () => {
    setRequesting(true);
    setRequestError(null);
    try {
      await quayside.syncNow();
    } catch (failure) {
      setRequestError(describeFailure(failure));
    } finally {
      setRequesting(false);
    }
  };

  return (
    <div className="sync-area">
      <div
        className={`sync-status sync-status--${status.state}`}
        role="status"
        aria-live="polite"
        title={status.lastSuccessAt ? formatShortDateTime(status.lastSuccessAt) : undefined}
      >
        <span className="sync-status__dot" aria-hidden="true" />
        <span className="sync-status__label">
          {label}
          {progress}
        </span>
        {detail ? <span className="sync-status__detail">{detail}</span> : null}
        {requestError ? <span className="save-state--error">{requestError}</span> : null}
      </div>
      {status.state === 'syncing' && status.progress !== null ? (
        <progress
          className="sync-progress"
          value={status.progress}
          max={1}
          aria-label="Sync progress"
        />
      ) : null}
      <button
        type="button"
        className="secondary"
        onClick={syncNow}
        disabled={requesting || status.state === 'syncing'}
      >
        Sync now
      </button>
    </div>
  );
}
