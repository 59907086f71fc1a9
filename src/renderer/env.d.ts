import type { QuaysideBridge } from '../shared/bridge';

declare global {
  interface Window {
    /** Set by the Electron preload; absent in browser mode, where the HTTP bridge stands in. */
    quayside?: QuaysideBridge;
  }
}

export {};
