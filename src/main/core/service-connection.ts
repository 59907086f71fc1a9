/**
 * A configured /v2 service (address + key) and the one request budget each such service gets.
 * Sync runs, route maps, tracking-request calls and connection tests all draw from the same
 * budget, so "under 100 requests a minute" holds per service, not per run.
 */
import type { Clock } from '../../shared/clock';
import { RequestBudget } from '../sync/request-budget';

export interface ServiceConnection {
  baseUrl: string;
  apiKey: string;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

export const isLoopback = (url: URL): boolean => LOOPBACK.has(url.hostname);

/** One budget per service; loopback services (the embedded one, tests) are not limited. */
export class ServiceBudgets {
  private readonly budgets = new Map<string, RequestBudget>();

  constructor(private readonly clock: Clock) {}

  for(connection: ServiceConnection): RequestBudget | null {
    let url: URL;
    try {
      url = new URL(connection.baseUrl);
    } catch {
      return null; // never reaches the network: the request fails on the address first
    }
    if (isLoopback(url)) return null;
    const key = `${url.origin}${url.pathname.replace(/\/$/, '')}\n${connection.apiKey}`;
    let budget = this.budgets.get(key);
    if (!budget) {
      budget = new RequestBudget(this.clock);
      this.budgets.set(key, budget);
    }
    return budget;
  }
}
