import { useState } from 'react';
import { ALERT_KINDS, ALERT_KIND_LABELS, type AlertKind } from '../../shared/container';
import { quayside } from '../bridge';
import { useAsync } from '../hooks/use-async';
import { describeFailure } from '../hooks/use-bridge';
import { useDataVersion } from '../hooks/data-version';
import { useNow } from '../hooks/use-now';
import { formatRelative, formatShortDateTime } from '../lib/format';
import { navigate } from '../lib/navigation';
import { formatCount } from '../../shared/words';

const PAGE = 500;

export function AlertsView({
  containerId,
  onChanged,
}: {
  containerId: string | null;
  onChanged(): void;
}) {
  const dataVersion = useDataVersion();
  const now = useNow();
  const [unreadOnly, setUnreadOnly] = useState(false);
  const [kind, setKind] = useState<AlertKind | ''>('');
  const [revision, setRevision] = useState(0);
  const [actionError, setActionError] = useState<string | null>(null);
  const list = useAsync(
    () =>
      quayside.listAlerts({
        unreadOnly,
        containerId: containerId ?? undefined,
        kinds: kind ? [kind] : undefined,
        limit: PAGE,
      }),
    `${unreadOnly}|${containerId}|${kind}`,
    `${dataVersion}|${revision}`,
  );
  const alerts = list.value?.alerts ?? [];

  const markRead = async (ids?: number[]) => {
    setActionError(null);
    try {
      await quayside.markAlertsRead(ids ? { ids } : {});
      setRevision((value) => value + 1);
      onChanged();
    } catch (failure) {
      setActionError(describeFailure(failure));
    }
  };

  return (
    <section aria-label="Alerts centre">
      <div className="filters">
        <label className="inline">
          <input
            type="checkbox"
            checked={unreadOnly}
            onChange={(e) => setUnreadOnly(e.target.checked)}
          />
          Unread only
        </label>
        <select
          aria-label="Alert kind"
          value={kind}
          onChange={(e) => setKind(e.target.value as AlertKind | '')}
        >
          <option value="">All kinds</option>
          {ALERT_KINDS.map((value) => (
            <option key={value} value={value}>
              {ALERT_KIND_LABELS[value]}
            </option>
          ))}
        </select>
        {containerId ? (
          <button type="button" className="secondary" onClick={() => navigate('alerts')}>
            Show alerts for all containers
          </button>
        ) : null}
        <span className="spacer" />
        <span className="muted" role="status">
          {list.value
            ? `${formatCount(list.value.unread)} unread of ${formatCount(list.value.total)}`
            : ''}
        </span>
        <button type="button" onClick={() => markRead()} disabled={!list.value?.unread}>
          Mark all read
        </button>
      </div>
      {list.error || actionError ? (
        <p role="alert" className="error-banner">
          {actionError ?? `Could not load alerts: ${list.error}`}
        </p>
      ) : null}
      {list.value && alerts.length === 0 ? (
        <div className="empty-state">
          <h2>No alerts</h2>
          <p>Alerts appear when an LFD, hold, appointment or ETA changes.</p>
        </div>
      ) : list.value ? (
        <ul className="alerts" aria-label="Alerts">
          {alerts.map((alert) => (
            <li
              key={alert.id}
              className={`alert-item${alert.readAt ? '' : ' alert-item--unread'}`}
              data-testid="alert-item"
            >
              <span className={`chip alert-kind alert-kind--${alert.kind}`}>
                {ALERT_KIND_LABELS[alert.kind]}
              </span>
              <div className="alert-item__text">
                <strong>{alert.title}</strong>
                <span className="muted">{alert.body}</span>
              </div>
              <time
                dateTime={alert.createdAt}
                title={formatShortDateTime(alert.createdAt)}
                className="muted"
              >
                {formatRelative(alert.createdAt, now)}
              </time>
              <div className="alert-item__actions">
                {alert.containerId ? (
                  <button
                    type="button"
                    className="secondary"
                    onClick={() => alert.containerId && navigate('containers', alert.containerId)}
                  >
                    Open container
                  </button>
                ) : null}
                {alert.readAt ? null : (
                  <button type="button" className="secondary" onClick={() => markRead([alert.id])}>
                    Mark read
                  </button>
                )}
              </div>
            </li>
          ))}
        </ul>
      ) : list.loading ? (
        <p aria-busy="true">Loading alerts…</p>
      ) : null}
    </section>
  );
}
