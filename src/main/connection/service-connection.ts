/**
 * A configured /v2 service (address + key) and the one request budget each such service gets.
 * Sync runs, route maps, tracking-request calls and connection tests all draw from the same
 * budget, so "under 100 requests a minute" holds per service, not per run.
 */
import type { Clock } from '../../shared/clock';
import { RequestBudget } from './request-budget';

export interface ServiceConnection {
  baseUrl: string;
  apiKey: string;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

export const isLoopback = (url: URL): boolean => LOOPBACK.has(url.hostname);

/**
 * Who a connection reaches: the service's address (origin and path, no trailing slash) and the
 * account its key opens; null for an address that is not a URL. Budgets and sources key on it.
 */
export function serviceIdentity(connection: ServiceConnection): string | null {
  let url: URL;
  try {
    url = new URL(connection.baseUrl);
  } catch {
    return null;
  }
  return `${url.origin}${url.pathname.replace(/\/$/, '')}\n${connection.apiKey}`;
}

/** One budget per service; loopback services (the embedded one, tests) are not limited. */
export class ServiceBudgets {
  private readonly budgets = new Map<string, RequestBudget>();

  constructor(private readonly clock: Clock) {}

  for(connection: ServiceConnection): RequestBudget | null {
    const key = serviceIdentity(connection);
    // An address that is not a URL never reaches the network: the request fails on it first.
    if (key === null || isLoopback(new URL(connection.baseUrl))) return null;
    let budget = this.budgets.get(key);
    if (!budget) {
      budget = new RequestBudget(this.clock);
      this.budgets.set(key, budget);
    }
    return budget;
  }
}
