export interface Toast {
  id: number;
  title: string;
  body: string;
  containerId: string | null;
}

/** In-app notifications, newest on top; each can open its container or be dismissed. */
export function Toasts({
  toasts,
  onDismiss,
  onOpen,
}: {
  toasts: Toast[];
  onDismiss(id: number): void;
  onOpen(toast: Toast): void;
}) {
  return (
    <div className="toasts" role="region" aria-label="Notifications" aria-live="polite">
      {toasts.map((toast) => (
        <div key={toast.id} className="toast" data-testid="toast">
          <div className="toast__text">
            <strong>{toast.title}</strong>
            <span>{toast.body}</span>
          </div>
          <div className="toast__actions">
            {toast.containerId ? (
              <button type="button" className="secondary" onClick={() => onOpen(toast)}>
                Open
              </button>
            ) : null}
            <button
              type="button"
              className="secondary"
              aria-label="Dismiss notification"
              onClick={() => onDismiss(toast.id)}
            >
              ×
            </button>
          </div>
        </div>
      ))}
    </div>
  );
}
