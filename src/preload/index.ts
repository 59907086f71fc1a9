/**
 * The preload only forwards: each bridge method becomes one `ipcRenderer.invoke` on a single
 * channel, and push events arrive on another. Main validates everything; nothing here trusts or
 * interprets the renderer's arguments.
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import type { BridgeReply, BridgeRejection, QuaysideBridge } from '../shared/bridge';
import { createBridgeClient } from '../shared/bridge-client';
import { IPC_EVENT_CHANNEL, IPC_INVOKE_CHANNEL } from '../shared/ipc-channels';

const quayside = createBridgeClient(
  async (method, argument) => {
    const reply = (await ipcRenderer.invoke(IPC_INVOKE_CHANNEL, method, argument)) as BridgeReply;
    if (reply.ok) return reply.result;
    const rejection: BridgeRejection = { method, ...reply.error };
    throw rejection;
  },
  (event, listener) => {
    const forward = (_event: IpcRendererEvent, name: unknown, payload: unknown) => {
      if (name === event) listener(payload);
    };
    ipcRenderer.on(IPC_EVENT_CHANNEL, forward);
    return () => {
      ipcRenderer.removeListener(IPC_EVENT_CHANNEL, forward);
    };
  },
) satisfies QuaysideBridge;

contextBridge.exposeInMainWorld('quayside', quayside);
