import { useEffect, useState } from 'react';
import type { SyncStatus } from '../../shared/bridge';
import { quayside } from '../bridge';
import { describeFailure } from '../hooks/use-bridge';
import { formatRelative, formatShortDateTime } from '../lib/format';

const LABELS: Record<SyncStatus['state'], string> = {
  idle: 'Up to date',
  syncing: 'Syncing',
  offline: 'Offline',
  reconnecting: 'Reconnecting…',
  error: 'Sync error',
};

/** Real time, ticking every `intervalMs`: "Last synced" is about the wall clock, not the demo's. */
function useWallClock(intervalMs: number): number {
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), intervalMs);
    return () => window.clearInterval(timer);
  }, [intervalMs]);
  return now;
}

/** The header's connection state: what the app knows about the service, in plain words. */
export function SyncStatusIndicator({ status }: { status: SyncStatus | null }) {
  const now = useWallClock(15_000);
  const [requestError, setRequestError] = useState<string | null>(null);
  const [requesting, setRequesting] = useState(false);
  if (!status) return <div className="sync-status" aria-busy="true" />;
  const progress =
    status.state === 'syncing' && status.progress !== null
      ? ` ${Math.round(status.progress * 100)}%`
      : '';
  const neverSynced = status.state === 'idle' && status.lastSuccessAt === null;
  // Until the source's first sync has brought its data, it is loading, never "Up to date".
  const firstSync =
    status.firstSync === true && (status.state === 'idle' || status.state === 'syncing');
  const label = firstSync ? 'Loading' : neverSynced ? 'Not synced yet' : LABELS[status.state];
  const since = status.offlineSince ? formatShortDateTime(status.offlineSince) : null;
  // "Offline — the tracking service is not answering (since 23 Nov 10:42 PST)"; while trying
  // again: "Reconnecting… Offline since 23 Nov 10:42 PST — the tracking service is not answering".
  const outage = !since
    ? ''
    : status.state === 'offline'
      ? `— the tracking service is not answering (since ${since})`
      : status.state === 'reconnecting'
        ? `Offline since ${since} — the tracking service is not answering`
        : '';
  const lastSynced = firstSync
    ? 'First sync with this service'
    : status.lastSuccessAt
      ? `Last synced ${formatRelative(status.lastSuccessAt, now)}`
      : '';
  const detail = [outage, status.message, lastSynced].filter(Boolean).join(' · ');

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
        title={detail || undefined}
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
      {/* Always a way to try again: during a run it queues one more, while offline it retries. */}
      <button type="button" className="secondary" onClick={syncNow} aria-busy={requesting}>
        Sync now
      </button>
    </div>
  );
}
