/**
 * The desktop app's settings: one schema for both stores (electron-store in Electron, a JSON file
 * in browser mode). Secrets such as the remote API key are NOT settings: they live in the OS
 * keychain (Electron safeStorage) or a 0600 file, never in this document.
 */
import { Type, type Static, type TBoolean } from 'typebox';
import {
  ALERT_KINDS,
  ALERT_THRESHOLD_LIMITS,
  DEFAULT_ALERT_THRESHOLDS,
  type AlertKind,
} from './container';
import { CostTables, DEFAULT_COST_TABLES } from './cost-clock';
import { SavedViews } from './saved-views';

export const Theme = Type.Union([
  Type.Literal('system'),
  Type.Literal('light'),
  Type.Literal('dark'),
]);

export const ConnectionSettings = Type.Object({
  /** `embedded`: the bundled service with the simulated world; `remote`: a /v2 service. */
  mode: Type.Union([Type.Literal('embedded'), Type.Literal('remote')]),
  /** Base url of a remote service, ending in /v2. */
  remoteBaseUrl: Type.Union([Type.String({ format: 'uri', maxLength: 2048 }), Type.Null()]),
});

const ThresholdHours = Type.Integer({
  minimum: ALERT_THRESHOLD_LIMITS.minHours,
  maximum: ALERT_THRESHOLD_LIMITS.maxHours,
});

/** Per-kind notification switches; a kind not listed is on. Alerts are stored either way. */
export const AlertKindSwitches = Type.Partial(
  Type.Object(
    Object.fromEntries(ALERT_KINDS.map((kind) => [kind, Type.Boolean()])) as Record<
      AlertKind,
      TBoolean
    >,
  ),
  { additionalProperties: false },
);

export const AlertSettings = Type.Object({
  /** Hours before the LFD at which "LFD approaching" alerts fire. */
  lfdThresholdsHours: Type.Array(ThresholdHours, {
    maxItems: ALERT_THRESHOLD_LIMITS.maxLfdThresholds,
  }),
  /** An ETA moving by more than this many hours raises an alert. */
  etaChangeThresholdHours: ThresholdHours,
  /** Master switch for notifications; alerts are stored either way. */
  desktopNotifications: Type.Boolean(),
  kinds: AlertKindSwitches,
});

export const DesktopSettings = Type.Object({
  /** Start Quayside when the user logs in to the workstation (off until they opt in). */
  startAtLogin: Type.Boolean(),
  /** Base url of the update server (electron-updater generic provider); empty: no update checks. */
  updateUrl: Type.Union([
    Type.Literal(''),
    Type.String({ format: 'uri', pattern: '^https?://', maxLength: 2048 }),
  ]),
});

/** The daily digest: one notification at a local time of day on the app's clock. */
export const DigestSettings = Type.Object({
  enabled: Type.Boolean(),
  /** `HH:mm`, 24-hour, in the computer's time zone. */
  time: Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$' }),
});

export const Settings = Type.Object({
  theme: Theme,
  syncIntervalMinutes: Type.Integer({ minimum: 1, maximum: 1440 }),
  connection: ConnectionSettings,
  alerts: AlertSettings,
  desktop: DesktopSettings,
  /** Terminal storage tariffs and line per diem, for the cost clock. */
  costs: CostTables,
  /** Named board views (filter, sort, columns). */
  savedViews: SavedViews,
  digest: DigestSettings,
});

/** What `updateSettings` accepts: any subset, nested objects merged member by member. */
export const SettingsPatch = Type.Object(
  {
    theme: Type.Optional(Theme),
    syncIntervalMinutes: Type.Optional(Type.Integer({ minimum: 1, maximum: 1440 })),
    connection: Type.Optional(Type.Partial(ConnectionSettings, { additionalProperties: false })),
    alerts: Type.Optional(Type.Partial(AlertSettings, { additionalProperties: false })),
    desktop: Type.Optional(Type.Partial(DesktopSettings, { additionalProperties: false })),
    /** Tables and views are replaced whole. */
    costs: Type.Optional(CostTables),
    savedViews: Type.Optional(SavedViews),
    digest: Type.Optional(Type.Partial(DigestSettings, { additionalProperties: false })),
  },
  { additionalProperties: false },
);

export type Theme = Static<typeof Theme>;
export type AlertSettings = Static<typeof AlertSettings>;
export type Settings = Static<typeof Settings>;
export type SettingsPatch = Static<typeof SettingsPatch>;

export const DEFAULT_SETTINGS: Settings = {
  theme: 'system',
  syncIntervalMinutes: 5,
  connection: { mode: 'embedded', remoteBaseUrl: null },
  alerts: {
    lfdThresholdsHours: [...DEFAULT_ALERT_THRESHOLDS.lfdThresholdsHours],
    etaChangeThresholdHours: DEFAULT_ALERT_THRESHOLDS.etaChangeThresholdHours,
    desktopNotifications: true,
    kinds: {},
  },
  desktop: { startAtLogin: false, updateUrl: '' },
  costs: DEFAULT_COST_TABLES,
  savedViews: [],
  digest: { enabled: true, time: '07:00' },
};

export function applySettingsPatch(current: Settings, patch: SettingsPatch): Settings {
  return {
    ...current,
    ...(patch.theme !== undefined ? { theme: patch.theme } : {}),
    ...(patch.syncIntervalMinutes !== undefined
      ? { syncIntervalMinutes: patch.syncIntervalMinutes }
      : {}),
    connection: { ...current.connection, ...patch.connection },
    alerts: {
      ...current.alerts,
      ...patch.alerts,
      // Switches merge kind by kind, so turning one off leaves the others as they were.
      kinds: { ...current.alerts.kinds, ...patch.alerts?.kinds },
    },
    desktop: { ...current.desktop, ...patch.desktop },
    costs: patch.costs ?? current.costs,
    savedViews: patch.savedViews ?? current.savedViews,
    digest: { ...current.digest, ...patch.digest },
  };
}
