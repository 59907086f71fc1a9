/** IPC channel names of the Electron transport. Kept free of imports: the sandboxed preload bundles it. */
export const IPC_INVOKE_CHANNEL = 'quayside:invoke';
export const IPC_EVENT_CHANNEL = 'quayside:event';
