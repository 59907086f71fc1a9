import { useCallback, useEffect, useState } from 'react';
import type { AppInfo } from '../shared/bridge';
import { quayside } from './bridge';
import { EmptyState } from './components/EmptyState';
import { SyncStatusIndicator } from './components/SyncStatusIndicator';
import { describeFailure, useBridgeValue } from './hooks/use-bridge';
import { useTheme } from './hooks/use-theme';
import { SettingsView } from './views/SettingsView';

const VIEWS = [
  { id: 'containers', label: 'Containers' },
  { id: 'shipments', label: 'Shipments' },
  { id: 'track', label: 'Track' },
  { id: 'requests', label: 'Requests' },
  { id: 'alerts', label: 'Alerts' },
  { id: 'settings', label: 'Settings' },
] as const;
type ViewId = (typeof VIEWS)[number]['id'];

const viewFromHash = (): ViewId => {
  const id = window.location.hash.replace(/^#\/?/, '');
  return VIEWS.find((view) => view.id === id)?.id ?? 'containers';
};

export function App() {
  const [view, setView] = useState<ViewId>(viewFromHash);
  const [appInfo, setAppInfo] = useState<AppInfo | null>(null);
  const [startupError, setStartupError] = useState<string | null>(null);
  const loadSettings = useCallback(() => quayside.getSettings(), []);
  const loadSyncStatus = useCallback(() => quayside.getSyncStatus(), []);
  const settings = useBridgeValue(loadSettings, 'settingsChanged');
  const syncStatus = useBridgeValue(loadSyncStatus, 'syncStatus');
  useTheme(settings.value?.theme);

  useEffect(() => {
    quayside
      .getAppInfo()
      .then(setAppInfo, (failure: unknown) => setStartupError(describeFailure(failure)));
    const onHashChange = () => setView(viewFromHash());
    window.addEventListener('hashchange', onHashChange);
    return () => window.removeEventListener('hashchange', onHashChange);
  }, []);

  const current = VIEWS.find((entry) => entry.id === view) ?? VIEWS[0];
  const error = startupError ?? settings.error ?? syncStatus.error;

  return (
    <div className="shell">
      <header className="shell__header">
        <span className="brand">Quayside</span>
        <SyncStatusIndicator status={syncStatus.value} />
      </header>
      <nav className="shell__nav" aria-label="Main">
        <ul>
          {VIEWS.map((entry) => (
            <li key={entry.id}>
              <a href={`#/${entry.id}`} aria-current={entry.id === view ? 'page' : undefined}>
                {entry.label}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <main className="shell__main">
        <h1>{current.label}</h1>
        {error ? (
          <p role="alert" className="error-banner">
            {error}
          </p>
        ) : null}
        {view === 'settings' ? (
          <SettingsView settings={settings.value} appInfo={appInfo} />
        ) : (
          <EmptyState title={`No ${current.label.toLowerCase()} yet`}>
            Tracked data appears here once the first sync has run.
          </EmptyState>
        )}
      </main>
    </div>
  );
}
