import { useEffect, useState, type FormEvent } from 'react';
import type { AppInfo } from '../../shared/bridge';
import type { Settings, SettingsPatch, Theme } from '../../shared/settings';
import { quayside } from '../bridge';
import { describeFailure } from '../hooks/use-bridge';

interface Draft {
  theme: Theme;
  syncIntervalMinutes: string;
  lfdThresholdsHours: string;
  etaChangeThresholdHours: string;
  desktopNotifications: boolean;
  connectionMode: Settings['connection']['mode'];
  remoteBaseUrl: string;
}

const toDraft = (settings: Settings): Draft => ({
  theme: settings.theme,
  syncIntervalMinutes: String(settings.syncIntervalMinutes),
  lfdThresholdsHours: settings.alerts.lfdThresholdsHours.join(', '),
  etaChangeThresholdHours: String(settings.alerts.etaChangeThresholdHours),
  desktopNotifications: settings.alerts.desktopNotifications,
  connectionMode: settings.connection.mode,
  remoteBaseUrl: settings.connection.remoteBaseUrl ?? '',
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
  },
  connection: {
    mode: draft.connectionMode,
    remoteBaseUrl: draft.remoteBaseUrl.trim() === '' ? null : draft.remoteBaseUrl.trim(),
  },
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
      </fieldset>

      <div className="settings__actions">
        <button type="submit" disabled={save.kind === 'saving'}>
          Save settings
        </button>
        <span role="status" aria-live="polite" className={`save-state save-state--${save.kind}`}>
          {save.kind === 'saved' ? 'Saved' : save.kind === 'error' ? save.message : ''}
        </span>
      </div>

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
