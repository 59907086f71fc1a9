/**
 * Browser mode's transport of the bridge contract: requests as POST /bridge/<method> with the
 * launch token in a header, pushes as server-sent events (the launch page's cookie admits them). Rejections have the same shape as the
 * Electron transport's, so views cannot tell the two apart.
 */
import type {
  BridgeEvent,
  BridgeReply,
  BridgeRejection,
  QuaysideBridge,
} from '../../shared/bridge';
import { createBridgeClient } from '../../shared/bridge-client';

const TOKEN_STORAGE_KEY = 'quayside.launchToken';

/** Takes the token from the launch url once, then keeps it for reloads and out of the address bar. */
export function takeLaunchToken(): string {
  const url = new URL(window.location.href);
  const fromUrl = url.searchParams.get('token');
  if (fromUrl) {
    sessionStorage.setItem(TOKEN_STORAGE_KEY, fromUrl);
    url.searchParams.delete('token');
    window.history.replaceState(null, '', url.pathname + url.search + url.hash);
    return fromUrl;
  }
  return sessionStorage.getItem(TOKEN_STORAGE_KEY) ?? '';
}

export function createHttpBridge(token: string): QuaysideBridge {
  let source: EventSource | null = null;
  const listeners = new Map<BridgeEvent, Set<(payload: unknown) => void>>();

  return createBridgeClient(
    async (method, argument) => {
      let reply: BridgeReply;
      try {
        const response = await fetch(`/bridge/${method}`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'X-Quayside-Token': token },
          body: JSON.stringify({ argument }),
        });
        reply = (await response.json()) as BridgeReply;
      } catch {
        const rejection: BridgeRejection = {
          method,
          code: 'failed',
          message: 'Quayside is not reachable: is the app still running?',
        };
        throw rejection;
      }
      if (reply.ok) return reply.result;
      const rejection: BridgeRejection = { method, ...reply.error };
      throw rejection;
    },
    (event, listener) => {
      // Authorized by the cookie the launch page set (an EventSource cannot send a header).
      source ??= new EventSource('/bridge/events');
      let set = listeners.get(event);
      if (!set) {
        const created = new Set<(payload: unknown) => void>();
        listeners.set(event, created);
        source.addEventListener(event, (message) => {
          const payload: unknown = JSON.parse((message as MessageEvent<string>).data);
          for (const each of created) each(payload);
        });
        set = created;
      }
      set.add(listener);
      return () => {
        set.delete(listener);
      };
    },
  );
}
