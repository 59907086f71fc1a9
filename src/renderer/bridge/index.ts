import type { QuaysideBridge } from '../../shared/bridge';
import { createHttpBridge, takeLaunchToken } from './http-bridge';

/** The one way views reach main: the preload's bridge in Electron, HTTP in browser mode. */
export const quayside: QuaysideBridge = window.quayside ?? createHttpBridge(takeLaunchToken());
