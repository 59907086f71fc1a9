/**
 * Builds `window.quayside` from a transport's two primitives: `invoke(method, argument)` and
 * `subscribe(event, listener)`. Used by the Electron preload and by browser mode, so both expose
 * exactly the same object. Import-free at run time (the preload bundles it).
 */
import type { BridgeEvent, BridgeEventPayload, BridgeMethod, QuaysideBridge } from './bridge';
import { BRIDGE_METHOD_LIST } from './bridge-names';

export type Invoke = (method: BridgeMethod, argument: unknown) => Promise<unknown>;
export type Subscribe = (event: BridgeEvent, listener: (payload: unknown) => void) => () => void;

export function createBridgeClient(invoke: Invoke, subscribe: Subscribe): QuaysideBridge {
  const methods: Record<string, (argument?: unknown) => Promise<unknown>> = {};
  for (const method of BRIDGE_METHOD_LIST) {
    methods[method] = (argument?: unknown) => invoke(method, argument ?? null);
  }
  return {
    ...(methods as unknown as Omit<QuaysideBridge, 'on'>),
    on<E extends BridgeEvent>(event: E, listener: (payload: BridgeEventPayload<E>) => void) {
      return subscribe(event, listener as (payload: unknown) => void);
    },
  };
}
