/**
 * The bridge contract between the renderer and the main process: request methods
 * (name -> argument schema -> result schema) and push events (name -> payload schema).
 *
 * Main registers one handler per method through a wrapper that validates every argument against
 * these schemas. Electron IPC (preload) and browser mode (HTTP + server-sent events) are two
 * transports of this same contract; the renderer cannot tell them apart. Methods are intent-level
 * (never SQL); later features add methods here and nowhere else.
 */
import { Type, type Static, type TSchema } from 'typebox';
import { Settings, SettingsPatch } from './settings';

const NoArgument = Type.Null();

export const AppInfo = Type.Object({
  name: Type.String(),
  version: Type.String(),
  /** How the UI is hosted: an Electron window, or a browser tab served on 127.0.0.1. */
  shell: Type.Union([Type.Literal('electron'), Type.Literal('browser')]),
  platform: Type.String(),
  dataDir: Type.String(),
});

export const SyncStatus = Type.Object({
  state: Type.Union([
    Type.Literal('idle'),
    Type.Literal('syncing'),
    Type.Literal('offline'),
    Type.Literal('error'),
  ]),
  /** 0..1 while syncing, else null. */
  progress: Type.Union([Type.Number({ minimum: 0, maximum: 1 }), Type.Null()]),
  /** Plain-words reason for `offline` and `error`. */
  message: Type.Union([Type.String(), Type.Null()]),
  lastSuccessAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});

export const bridgeMethods = {
  getAppInfo: { argument: NoArgument, result: AppInfo },
  getSettings: { argument: NoArgument, result: Settings },
  updateSettings: { argument: SettingsPatch, result: Settings },
  getSyncStatus: { argument: NoArgument, result: SyncStatus },
} as const satisfies Record<string, { argument: TSchema; result: TSchema }>;

export const bridgeEvents = {
  syncStatus: SyncStatus,
  settingsChanged: Settings,
} as const satisfies Record<string, TSchema>;

export type AppInfo = Static<typeof AppInfo>;
export type SyncStatus = Static<typeof SyncStatus>;

export type BridgeMethod = keyof typeof bridgeMethods;
export type BridgeEvent = keyof typeof bridgeEvents;
export type BridgeArgument<M extends BridgeMethod> = Static<(typeof bridgeMethods)[M]['argument']>;
export type BridgeResult<M extends BridgeMethod> = Static<(typeof bridgeMethods)[M]['result']>;
export type BridgeEventPayload<E extends BridgeEvent> = Static<(typeof bridgeEvents)[E]>;

/** A method with no argument is called with none; transports send `null` on the wire. */
export type BridgeCall<M extends BridgeMethod> =
  BridgeArgument<M> extends null
    ? () => Promise<BridgeResult<M>>
    : (argument: BridgeArgument<M>) => Promise<BridgeResult<M>>;

/** `window.quayside`: every method, plus a subscription to push events. */
export type QuaysideBridge = { [M in BridgeMethod]: BridgeCall<M> } & {
  on<E extends BridgeEvent>(
    event: E,
    listener: (payload: BridgeEventPayload<E>) => void,
  ): () => void;
};

export const BRIDGE_METHOD_NAMES = Object.keys(bridgeMethods) as BridgeMethod[];
export const BRIDGE_EVENT_NAMES = Object.keys(bridgeEvents) as BridgeEvent[];

export type { BridgeErrorCode, BridgeFailure, BridgeReply, BridgeRejection } from './bridge-errors';
export { isBridgeRejection } from './bridge-errors';
