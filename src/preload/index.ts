/**
 * The preload only forwards: each bridge method becomes one `ipcRenderer.invoke` on a single
 * channel, and push events arrive on another. Main validates everything; nothing here trusts
 * or interprets the renderer's arguments. `satisfies QuaysideBridge` keeps it complete.
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import type {
  BridgeEvent,
  BridgeEventPayload,
  BridgeMethod,
  BridgeReply,
  BridgeRejection,
  QuaysideBridge,
} from '../shared/bridge';
import { IPC_EVENT_CHANNEL, IPC_INVOKE_CHANNEL } from '../shared/ipc-channels';

async function invoke(method: BridgeMethod, argument: unknown): Promise<never> {
  const reply = (await ipcRenderer.invoke(
    IPC_INVOKE_CHANNEL,
    method,
    argument ?? null,
  )) as BridgeReply;
  if (reply.ok) return reply.result as never;
  const rejection: BridgeRejection = { method, ...reply.error };
  throw rejection;
}

const quayside = {
  getAppInfo: () => invoke('getAppInfo', null),
  getSettings: () => invoke('getSettings', null),
  updateSettings: (patch) => invoke('updateSettings', patch),
  getSyncStatus: () => invoke('getSyncStatus', null),
  on<E extends BridgeEvent>(event: E, listener: (payload: BridgeEventPayload<E>) => void) {
    const forward = (_event: IpcRendererEvent, name: unknown, payload: unknown) => {
      if (name === event) listener(payload as BridgeEventPayload<E>);
    };
    ipcRenderer.on(IPC_EVENT_CHANNEL, forward);
    return () => {
      ipcRenderer.removeListener(IPC_EVENT_CHANNEL, forward);
    };
  },
} satisfies QuaysideBridge;

contextBridge.exposeInMainWorld('quayside', quayside);
