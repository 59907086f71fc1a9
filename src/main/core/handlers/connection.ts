/** The remote service connection: checking an address and key, and keeping the key. */
import type { ConnectionCheck } from '../../../shared/bridge';
import { testConnection } from '../../sync/test-connection';
import { maskSecret } from '../secret-store';
import type { DomainHandlers, HandlerContext } from './context';

export const connectionHandlers = (
  ctx: HandlerContext,
): DomainHandlers<'testConnection' | 'setRemoteApiKey' | 'getRemoteApiKeyStatus'> => ({
  testConnection: async ({ baseUrl, apiKey }): Promise<ConnectionCheck> => {
    const key = apiKey ?? ctx.secretStore.get();
    if (!key) {
      return { ok: false, message: 'Enter the API key for this service.', incrementalSync: null };
    }
    return testConnection(baseUrl, key, { clock: ctx.clock, budgets: ctx.budgets });
  },
  setRemoteApiKey: ({ apiKey }) => {
    ctx.secretStore.set(apiKey);
    ctx.connectionChanged();
    // A new key may carry other entitlements: ask for map data again.
    ctx.sync.resetRoutingEntitlement();
    return {
      stored: apiKey !== null,
      masked: maskSecret(apiKey),
      storedIn: ctx.secretStore.description,
    };
  },
  getRemoteApiKeyStatus: () => ({
    masked: maskSecret(ctx.secretStore.get()),
    storedIn: ctx.secretStore.description,
  }),
});
