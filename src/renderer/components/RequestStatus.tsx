import type { TrackingRequestRow } from '../../shared/bridge';
import { humanize } from '../lib/format';

const STATUS_TEXT: Record<string, string> = {
  pending: 'Waiting for the shipping line',
  awaiting_manifest: 'Awaiting manifest',
  created: 'Tracking',
  failed: 'Failed',
  tracking_stopped: 'Tracking stopped',
};

export function RequestStatus({ row }: { row: TrackingRequestRow }) {
  const tone =
    row.status === 'created'
      ? 'ok'
      : row.status === 'failed'
        ? 'danger'
        : row.status === 'tracking_stopped'
          ? 'muted'
          : 'warn';
  return (
    <span className="request-status">
      <span className={`chip chip--${tone}`} data-status={row.status}>
        {STATUS_TEXT[row.status] ?? humanize(row.status)}
        {row.isRetrying ? ' (retrying)' : ''}
      </span>
      {row.status === 'failed' && (row.failedReasonText ?? row.failedReason) ? (
        <span className="muted"> {row.failedReasonText ?? humanize(row.failedReason ?? '')}</span>
      ) : null}
    </span>
  );
}
