import { useCallback, useEffect, useRef, useState } from 'react';
import type { AlertPush, AppInfo } from '../shared/bridge';
import { opensWorklist } from '../shared/container';
import { quayside } from './bridge';
import { ClockBadge } from './components/ClockBadge';
import { GlobalSearch } from './components/GlobalSearch';
import { KeyboardShortcuts } from './components/KeyboardShortcuts';
import { MorningSettings } from './components/MorningSettings';
import { SyncStatusIndicator } from './components/SyncStatusIndicator';
import { Toasts, type Toast } from './components/Toasts';
import { DocumentUploadsProvider } from './documents/uploads';
import { WindowDocumentDrop } from './documents/WindowDocumentDrop';
import { DataVersionContext } from './hooks/data-version';
import { describeFailure, useBridgeEvent, useBridgeValue } from './hooks/use-bridge';
import { useTheme } from './hooks/use-theme';
import { navigate, parseRoute, type Route } from './lib/navigation';
import { AlertsView } from './views/AlertsView';
import { ContainerDetailView } from './views/ContainerDetailView';
import { ContainersView } from './views/ContainersView';
import { DocumentsView } from './views/DocumentsView';
import { FindView } from './views/FindView';
import { RequestsView } from './views/RequestsView';
import { SettingsView } from './views/SettingsView';
import { ShipmentDetailView } from './views/ShipmentDetailView';
import { ShipmentsView } from './views/ShipmentsView';
import { TrackView } from './views/TrackView';
import { WorklistView } from './views/WorklistView';

const VIEWS = [
  { id: 'worklist', label: 'Worklist' },
  { id: 'containers', label: 'Containers' },
  { id: 'shipments', label: 'Shipments' },
  { id: 'track', label: 'Track' },
  { id: 'requests', label: 'Requests' },
  { id: 'documents', label: 'Documents' },
  { id: 'alerts', label: 'Alerts' },
  { id: 'settings', label: 'Settings' },
] as const;
type ViewId = (typeof VIEWS)[number]['id'];

const TOAST_MS = 10_000;

const currentRoute = (): Route & { view: ViewId | 'find' } => {
  const route = parseRoute(window.location.hash);
  if (route.view === 'find' && route.id) return { view: 'find', id: route.id };
  const known = VIEWS.find((view) => view.id === route.view)?.id;
  // The morning worklist is where the day starts.
  return known ? { view: known, id: route.id } : { view: 'worklist', id: null };
};

export function App() {
  const [route, setRoute] = useState(currentRoute);
  const [appInfo, setAppInfo] = useState<AppInfo | null>(null);
  const [startupError, setStartupError] = useState<string | null>(null);
  const [dataVersion, setDataVersion] = useState(0);
  const [unread, setUnread] = useState<number | null>(null);
  const [toasts, setToasts] = useState<Toast[]>([]);
  const loadSettings = useCallback(() => quayside.getSettings(), []);
  const loadSyncStatus = useCallback(() => quayside.getSyncStatus(), []);
  const settings = useBridgeValue(loadSettings, 'settingsChanged');
  const syncStatus = useBridgeValue(loadSyncStatus, 'syncStatus');
  useTheme(settings.value?.theme);
  const main = useRef<HTMLElement>(null);

  useEffect(() => {
    quayside
      .getAppInfo()
      .then(setAppInfo, (failure: unknown) => setStartupError(describeFailure(failure)));
    const onHashChange = () => {
      setRoute(currentRoute());
      main.current?.scrollTo(0, 0);
    };
    window.addEventListener('hashchange', onHashChange);
    return () => window.removeEventListener('hashchange', onHashChange);
  }, []);

  const refreshUnread = useCallback(() => {
    quayside.listAlerts({ unreadOnly: true, limit: 1 }).then(
      (list) => setUnread(list.unread),
      () => setUnread(null),
    );
  }, []);
  useEffect(refreshUnread, [refreshUnread, dataVersion]);

  const onDataChanged = useCallback(() => setDataVersion((value) => value + 1), []);
  useBridgeEvent('dataChanged', onDataChanged);

  const onAlert = useCallback(
    (alert: AlertPush) => {
      refreshUnread();
      setToasts((previous) => [
        {
          id: alert.id,
          kind: alert.kind,
          title: alert.title,
          body: alert.body,
          containerId: alert.containerId,
          link: alert.link,
        },
        ...previous.filter((toast) => toast.id !== alert.id).slice(0, 3),
      ]);
      window.setTimeout(
        () => setToasts((previous) => previous.filter((toast) => toast.id !== alert.id)),
        TOAST_MS,
      );
      // Main decides whether the tab is the OS surface (browser mode) or the shell is.
      if (
        alert.osNotification &&
        'Notification' in window &&
        Notification.permission === 'granted'
      ) {
        const notification = new Notification(alert.title, {
          body: alert.body,
          tag: `alert-${alert.id}`,
        });
        notification.onclick = () => {
          window.focus();
          if (opensWorklist(alert.kind)) navigate('worklist');
          else if (alert.containerId) navigate('containers', alert.containerId);
        };
      }
    },
    [refreshUnread],
  );
  useBridgeEvent('alertRaised', onAlert);

  const current = VIEWS.find((entry) => entry.id === route.view) ?? VIEWS[0];
  const error = startupError ?? settings.error ?? syncStatus.error;

  let content;
  switch (route.view) {
    case 'worklist':
      content = <WorklistView />;
      break;
    case 'find':
      content = <FindView query={route.id ?? ''} />;
      break;
    case 'containers':
      content = route.id ? <ContainerDetailView id={route.id} /> : <ContainersView />;
      break;
    case 'shipments':
      content = route.id ? <ShipmentDetailView id={route.id} /> : <ShipmentsView />;
      break;
    case 'track':
      content = <TrackView />;
      break;
    case 'requests':
      content = <RequestsView />;
      break;
    case 'documents':
      content = <DocumentsView />;
      break;
    case 'alerts':
      content = <AlertsView containerId={route.id} onChanged={refreshUnread} />;
      break;
    case 'settings':
      content = (
        <>
          <SettingsView settings={settings.value} appInfo={appInfo} />
          <MorningSettings settings={settings.value} />
        </>
      );
      break;
  }

  return (
    <DataVersionContext.Provider value={dataVersion}>
      <DocumentUploadsProvider>
        <WindowDocumentDrop />
        <KeyboardShortcuts />
        <div className="shell">
          <header className="shell__header">
            <span className="brand">Quayside</span>
            <GlobalSearch />
            <ClockBadge />
            <SyncStatusIndicator status={syncStatus.value} />
          </header>
          <nav className="shell__nav" aria-label="Main">
            <ul>
              {VIEWS.map((entry) => (
                <li key={entry.id}>
                  <a
                    href={`#/${entry.id}`}
                    aria-current={entry.id === route.view ? 'page' : undefined}
                  >
                    {entry.label}
                    {entry.id === 'alerts' && unread ? (
                      <span className="badge badge--alert" data-testid="unread-badge">
                        {unread > 99 ? '99+' : unread}
                        <span className="visually-hidden"> unread</span>
                      </span>
                    ) : null}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
          <main className="shell__main" ref={main} tabIndex={0}>
            <h1>{current.label}</h1>
            {error ? (
              <p role="alert" className="error-banner">
                {error}
              </p>
            ) : null}
            {content}
          </main>
          <Toasts
            toasts={toasts}
            onDismiss={(id) => setToasts((previous) => previous.filter((toast) => toast.id !== id))}
            onOpen={(toast) => {
              if (opensWorklist(toast.kind)) navigate('worklist');
              else if (toast.containerId) navigate('containers', toast.containerId);
              setToasts((previous) => previous.filter((each) => each.id !== toast.id));
            }}
          />
        </div>
      </DocumentUploadsProvider>
    </DataVersionContext.Provider>
  );
}
