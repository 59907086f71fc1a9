import { Fragment, useState } from 'react';
import { opensWorklist } from '../../shared/container';

export interface Toast {
  id: number;
  title: string;
  body: string;
  containerId: string | null;
  /** The container's find link, offered to copy and pass on (an email, a TMS note). */
  link?: string | null;
  /** The alert kind: the digest and a summary open the worklist instead of a container. */
  kind?: string;
}

/**
 * In-app notifications, collapsed so they never stack over the board: the newest in full (open
 * its container or dismiss it), the others as one summary line with "Dismiss all".
 */
export function Toasts({
  toasts,
  onDismiss,
  onOpen,
}: {
  toasts: Toast[];
  onDismiss(id: number): void;
  onOpen(toast: Toast): void;
}) {
  const [newest, ...older] = toasts;
  const [copied, setCopied] = useState<number | null>(null);
  const copy = (toast: Toast) => {
    if (!toast.link) return;
    void navigator.clipboard?.writeText(toast.link).then(
      () => setCopied(toast.id),
      () => setCopied(null),
    );
  };
  return (
    <div className="toasts" role="region" aria-label="Notifications" aria-live="polite">
      {newest ? (
        <div key={newest.id} className="toast" data-testid="toast">
          <div className="toast__text">
            <strong>{newest.title}</strong>
            <span>{newest.body}</span>
          </div>
          <div className="toast__actions">
            {newest.containerId || opensWorklist(newest.kind) ? (
              <button type="button" className="secondary" onClick={() => onOpen(newest)}>
                Open
              </button>
            ) : null}
            {newest.link ? (
              <button
                type="button"
                className="secondary"
                title={newest.link}
                data-link={newest.link}
                onClick={() => copy(newest)}
              >
                {copied === newest.id ? 'Copied' : 'Copy link'}
              </button>
            ) : null}
            <button
              type="button"
              className="secondary"
              aria-label="Dismiss notification"
              onClick={() => onDismiss(newest.id)}
            >
              ×
            </button>
          </div>
        </div>
      ) : null}
      {older.length > 0 ? (
        <div className="toast toast--summary" data-testid="toast-summary">
          <span className="toast__summary-text">
            {older.length} more:{' '}
            {older.map((toast, index) => (
              <Fragment key={toast.id}>
                {index > 0 ? ' · ' : ''}
                <span title={toast.body}>{toast.title}</span>
              </Fragment>
            ))}
          </span>
          <button
            type="button"
            className="secondary"
            onClick={() => toasts.forEach((toast) => onDismiss(toast.id))}
          >
            Dismiss all
          </button>
        </div>
      ) : null}
    </div>
  );
}
