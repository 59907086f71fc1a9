import { useEffect, useState, type FormEvent } from 'react';
import { countOf } from '../../shared/words';
import type { AppInfo, CacheInfo, ConnectionCheck } from '../../shared/bridge';
import type { Settings, SettingsPatch, Theme } from '../../shared/settings';
import { ALERT_KINDS, ALERT_KIND_LABELS, type AlertKind } from '../../shared/container';
import { quayside } from '../bridge';
import { describeFailure } from '../hooks/use-bridge';
import { useDataVersion } from '../hooks/data-version';
import { formatBytes } from '../lib/format';
import { SyncCadenceNote } from '../components/SyncCadenceNote';

interface Draft {
  theme: Theme;
  syncIntervalMinutes: string;
  lfdThresholdsHours: string;
  etaChangeThresholdHours: string;
  desktopNotifications: boolean;
  alertKinds: Record<AlertKind, boolean>;
  connectionMode: Settings['connection']['mode'];
  remoteBaseUrl: string;
  startAtLogin: boolean;
  updateUrl: string;
}

const toDraft = (settings: Settings): Draft => ({
  theme: settings.theme,
  syncIntervalMinutes: String(settings.syncIntervalMinutes),
  lfdThresholdsHours: settings.alerts.lfdThresholdsHours.join(', '),
  etaChangeThresholdHours: String(settings.alerts.etaChangeThresholdHours),
  desktopNotifications: settings.alerts.desktopNotifications,
  alertKinds: Object.fromEntries(
    ALERT_KINDS.map((kind) => [kind, settings.alerts.kinds[kind] !== false]),
  ) as Record<AlertKind, boolean>,
  connectionMode: settings.connection.mode,
  remoteBaseUrl: settings.connection.remoteBaseUrl ?? '',
  startAtLogin: settings.desktop.startAtLogin,
  updateUrl: settings.desktop.updateUrl,
});

/** Turns the form into a patch; number fields are checked by main against the schema. */
const toPatch = (draft: Draft): SettingsPatch => ({
  theme: draft.theme,
  syncIntervalMinutes: Number(draft.syncIntervalMinutes),
  alerts: {
    lfdThresholdsHours: draft.lfdThresholdsHours
      .split(',')
      .map((part) => part.trim())
      .filter(Boolean)
      .map(Number),
    etaChangeThresholdHours: Number(draft.etaChangeThresholdHours),
    desktopNotifications: draft.desktopNotifications,
    kinds: draft.alertKinds,
  },
  connection: {
    mode: draft.connectionMode,
    remoteBaseUrl: draft.remoteBaseUrl.trim() === '' ? null : draft.remoteBaseUrl.trim(),
  },
  desktop: { startAtLogin: draft.startAtLogin, updateUrl: draft.updateUrl.trim() },
});

type SaveState =
  { kind: 'idle' } | { kind: 'saving' } | { kind: 'saved' } | { kind: 'error'; message: string };

export function SettingsView({
  settings,
  appInfo,
}: {
  settings: Settings | null;
  appInfo: AppInfo | null;
}) {
  const [draft, setDraft] = useState<Draft | null>(settings ? toDraft(settings) : null);
  const [save, setSave] = useState<SaveState>({ kind: 'idle' });

  useEffect(() => {
    if (settings) setDraft(toDraft(settings));
  }, [settings]);

  if (!draft) return <p aria-busy="true">Loading settings…</p>;

  const update = (change: Partial<Draft>) => {
    setDraft({ ...draft, ...change });
    setSave({ kind: 'idle' });
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setSave({ kind: 'saving' });
    try {
      await quayside.updateSettings(toPatch(draft));
      setSave({ kind: 'saved' });
    } catch (failure) {
      setSave({ kind: 'error', message: describeFailure(failure) });
    }
  };

  return (
    <form className="settings" onSubmit={onSubmit} aria-label="Settings">
      <fieldset>
        <legend>Appearance</legend>
        <label>
          Theme
          <select value={draft.theme} onChange={(e) => update({ theme: e.target.value as Theme })}>
            <option value="system">System</option>
            <option value="light">Light</option>
            <option value="dark">Dark</option>
          </select>
        </label>
      </fieldset>

      <fieldset>
        <legend>Connection</legend>
        <label className="inline">
          <input
            type="radio"
            name="connection-mode"
            checked={draft.connectionMode === 'embedded'}
            onChange={() => update({ connectionMode: 'embedded' })}
          />
          Built-in service with the simulated world (no account needed)
        </label>
        <label className="inline">
          <input
            type="radio"
            name="connection-mode"
            checked={draft.connectionMode === 'remote'}
            onChange={() => update({ connectionMode: 'remote' })}
          />
          Remote tracking service
        </label>
        <label>
          Service URL (ends in /v2)
          <input
            type="url"
            value={draft.remoteBaseUrl}
            placeholder="https://tracking.example.com/v2"
            disabled={draft.connectionMode !== 'remote'}
            onChange={(e) => update({ remoteBaseUrl: e.target.value })}
          />
        </label>
        <RemoteKey disabled={draft.connectionMode !== 'remote'} />
        <ConnectionTest
          baseUrl={draft.remoteBaseUrl.trim()}
          disabled={draft.connectionMode !== 'remote'}
        />
      </fieldset>

      <fieldset>
        <legend>Sync and alerts</legend>
        <label>
          Sync every (minutes)
          <input
            type="number"
            min={1}
            max={1440}
            value={draft.syncIntervalMinutes}
            onChange={(e) => update({ syncIntervalMinutes: e.target.value })}
          />
        </label>
        <SyncCadenceNote />
        <label>
          Warn before the last free day (hours, comma separated)
          <input
            value={draft.lfdThresholdsHours}
            onChange={(e) => update({ lfdThresholdsHours: e.target.value })}
          />
        </label>
        <label>
          Alert when an ETA moves by more than (hours)
          <input
            type="number"
            min={1}
            max={720}
            value={draft.etaChangeThresholdHours}
            onChange={(e) => update({ etaChangeThresholdHours: e.target.value })}
          />
        </label>
        <label className="inline">
          <input
            type="checkbox"
            checked={draft.desktopNotifications}
            onChange={(e) => update({ desktopNotifications: e.target.checked })}
          />
          Desktop notifications
        </label>
        <fieldset className="alert-kinds" disabled={!draft.desktopNotifications}>
          <legend>Notify me about</legend>
          {ALERT_KINDS.map((kind) => (
            <label className="inline" key={kind}>
              <input
                type="checkbox"
                checked={draft.alertKinds[kind]}
                onChange={(e) =>
                  update({ alertKinds: { ...draft.alertKinds, [kind]: e.target.checked } })
                }
              />
              {ALERT_KIND_LABELS[kind]}
            </label>
          ))}
        </fieldset>
        {appInfo?.shell === 'browser' ? <NotificationPermission /> : null}
      </fieldset>

      {appInfo?.shell === 'electron' ? (
        <fieldset>
          <legend>Desktop</legend>
          <label className="inline">
            <input
              type="checkbox"
              checked={draft.startAtLogin}
              onChange={(e) => update({ startAtLogin: e.target.checked })}
            />
            Start Quayside when I log in
          </label>
          <label>
            Update server URL (empty: no update checks)
            <input
              type="url"
              value={draft.updateUrl}
              placeholder="https://updates.example.com/quayside/"
              onChange={(e) => update({ updateUrl: e.target.value })}
            />
          </label>
        </fieldset>
      ) : null}

      <div className="settings__actions">
        <button type="submit" disabled={save.kind === 'saving'}>
          Save settings
        </button>
        <span role="status" aria-live="polite" className={`save-state save-state--${save.kind}`}>
          {save.kind === 'saved' ? 'Saved' : save.kind === 'error' ? save.message : ''}
        </span>
      </div>

      <CachePanel />

      {appInfo ? (
        <dl className="about" aria-label="About">
          <dt>Version</dt>
          <dd>{appInfo.version}</dd>
          <dt>Running as</dt>
          <dd>{appInfo.shell === 'electron' ? 'Desktop app' : 'Browser mode'}</dd>
          <dt>Data folder</dt>
          <dd>
            <code>{appInfo.dataDir}</code>
          </dd>
        </dl>
      ) : null}
    </form>
  );
}

/** The remote service's API key: stored in the OS keychain by main, shown here only masked. */
function RemoteKey({ disabled }: { disabled: boolean }) {
  const [masked, setMasked] = useState<string | null>(null);
  const [storedIn, setStoredIn] = useState<string | null>(null);
  const [key, setKey] = useState('');
  const [message, setMessage] = useState<string | null>(null);
  useEffect(() => {
    quayside.getRemoteApiKeyStatus().then(
      (status) => {
        setMasked(status.masked);
        setStoredIn(status.storedIn);
      },
      (failure: unknown) => setMessage(describeFailure(failure)),
    );
  }, []);
  const store = async (apiKey: string | null) => {
    setMessage(null);
    try {
      const result = await quayside.setRemoteApiKey({ apiKey });
      setMasked(result.masked);
      setStoredIn(result.storedIn);
      setKey('');
      setMessage(apiKey ? `Key stored in ${result.storedIn}.` : 'Key removed.');
    } catch (failure) {
      setMessage(describeFailure(failure));
    }
  };
  return (
    <div className="key-row">
      <label>
        API key {masked ? <span className="muted">(current: {masked})</span> : null}
        {storedIn ? <span className="muted"> — kept in {storedIn}, never in settings</span> : null}
        <input
          type="password"
          autoComplete="off"
          value={key}
          disabled={disabled}
          placeholder={masked ? 'Enter a new key to replace it' : 'Paste the API key'}
          onChange={(e) => setKey(e.target.value)}
        />
      </label>
      <div className="settings__actions">
        <button
          type="button"
          className="secondary"
          disabled={disabled || key.trim() === ''}
          onClick={() => store(key.trim())}
        >
          Store key
        </button>
        {masked ? (
          <button
            type="button"
            className="secondary"
            disabled={disabled}
            onClick={() => store(null)}
          >
            Forget key
          </button>
        ) : null}
        {message ? <span role="status">{message}</span> : null}
      </div>
    </div>
  );
}

function ConnectionTest({ baseUrl, disabled }: { baseUrl: string; disabled: boolean }) {
  const [result, setResult] = useState<ConnectionCheck | { ok: false; message: string } | null>(
    null,
  );
  const [testing, setTesting] = useState(false);
  const run = async () => {
    setTesting(true);
    setResult(null);
    try {
      setResult(await quayside.testConnection({ baseUrl }));
    } catch (failure) {
      setResult({ ok: false, message: describeFailure(failure) });
    } finally {
      setTesting(false);
    }
  };
  return (
    <div className="settings__actions">
      <button
        type="button"
        className="secondary"
        disabled={disabled || testing || baseUrl === ''}
        onClick={run}
      >
        {testing ? 'Testing…' : 'Test connection'}
      </button>
      {result ? (
        <span role="status" className={result.ok ? 'save-state--ok' : 'save-state--error'}>
          {result.message}
        </span>
      ) : null}
    </div>
  );
}

/** Browsers only allow asking for notification permission from a click. */
function NotificationPermission() {
  const supported = 'Notification' in window;
  const [permission, setPermission] = useState(supported ? Notification.permission : 'denied');
  if (!supported) return <p className="muted">This browser cannot show desktop notifications.</p>;
  return (
    <div className="settings__actions">
      <span className="muted">
        Browser permission:{' '}
        {permission === 'granted'
          ? 'allowed'
          : permission === 'denied'
            ? 'blocked'
            : 'not asked yet'}
      </span>
      {permission === 'default' ? (
        <button
          type="button"
          className="secondary"
          onClick={() => void Notification.requestPermission().then(setPermission)}
        >
          Allow notifications
        </button>
      ) : null}
    </div>
  );
}

function CachePanel() {
  const [info, setInfo] = useState<CacheInfo | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const dataVersion = useDataVersion();
  useEffect(() => {
    quayside.getCacheInfo().then(setInfo, (failure: unknown) => setError(describeFailure(failure)));
  }, [dataVersion]);
  const clear = async () => {
    setConfirming(false);
    try {
      setInfo(await quayside.clearCache());
      setError(null);
    } catch (failure) {
      setError(describeFailure(failure));
    }
  };
  return (
    <fieldset>
      <legend>Local cache</legend>
      {info ? (
        <dl className="about" aria-label="Cache">
          <dt>Size</dt>
          <dd>{formatBytes(info.sizeBytes)}</dd>
          <dt>Contents</dt>
          <dd>
            {countOf(info.shipments, 'shipment')}, {countOf(info.containers, 'container')},{' '}
            {countOf(info.events, 'event')}
          </dd>
          <dt>File</dt>
          <dd>
            <code>{info.path}</code>
          </dd>
        </dl>
      ) : error ? null : (
        <p aria-busy="true">Reading cache…</p>
      )}
      {error ? <p className="save-state--error">Cache: {error}</p> : null}
      <div className="settings__actions">
        {confirming ? (
          <>
            <span>Remove every cached container? The next sync fetches them again.</span>
            <button type="button" className="danger" onClick={clear}>
              Clear now
            </button>
            <button type="button" className="secondary" onClick={() => setConfirming(false)}>
              Keep
            </button>
          </>
        ) : (
          <button
            type="button"
            className="secondary"
            disabled={!info}
            onClick={() => setConfirming(true)}
          >
            Clear cache
          </button>
        )}
      </div>
    </fieldset>
  );
}
