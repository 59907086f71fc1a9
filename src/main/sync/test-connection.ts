/** Checks a service address and key before they are saved, and says what is wrong in plain words. */
import { systemClock, type Clock } from '../../shared/clock';
import { V2Client, V2Error } from './client';
import type { ServiceBudgets } from '../connection/service-connection';
import { collectionEnvelope } from './validate';
import { HISTORY_CYCLE_HOURS } from '../../shared/sync-cadence';

export interface ConnectionCheck {
  ok: boolean;
  message: string;
  /** Whether the service offers `filter[updated_at][start]` (its records carry `updated_at`). */
  incrementalSync: boolean | null;
}

/** Which kind of service this is and what that means for how often records are synced. */
export function serviceKindText(incrementalSync: boolean | null): string {
  if (incrementalSync === null) {
    return 'The sync picks its cadence once the account has shipments.';
  }
  return incrementalSync
    ? 'This is a Quayside service with incremental sync: each sync asks only for what changed.'
    : 'This is a Terminal49-compatible service (no change stamps): each sync reads the shipments ' +
        'still tracked and their containers plus new tracking requests, and finished shipments ' +
        `are read in slices, all of them once every ${HISTORY_CYCLE_HOURS} hours.`;
}

export async function testConnection(
  baseUrl: string,
  apiKey: string,
  options: { clock?: Clock; timeoutMs?: number; budgets?: ServiceBudgets } = {},
): Promise<ConnectionCheck> {
  const fail = (message: string): ConnectionCheck => ({
    ok: false,
    message,
    incrementalSync: null,
  });
  let url: URL;
  try {
    url = new URL(baseUrl.trim());
  } catch {
    return fail('The address is not a valid URL (expected e.g. https://api.example.com/v2).');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return fail('The address must start with http:// or https://.');
  }
  if (url.username || url.password)
    return fail('The address must not contain a user name or password.');
  if (!apiKey.trim()) return fail('Enter an API key.');
  const client = new V2Client({
    baseUrl: url.toString(),
    apiKey: apiKey.trim(),
    clock: options.clock ?? systemClock,
    timeoutMs: options.timeoutMs ?? 10_000,
    maxAttempts: 1,
    budget: options.budgets?.for({ baseUrl: url.toString(), apiKey: apiKey.trim() }) ?? null,
  });
  const hint = url.pathname.replace(/\/$/, '').endsWith('/v2')
    ? ''
    : ' Does the address end in /v2?';
  try {
    const { body } = await client.get('shipments?page[size]=1');
    const page = collectionEnvelope(body);
    if (!page) return fail(`This address does not answer like a /v2 tracking service.${hint}`);
    const first = page.data[0] as { attributes?: { updated_at?: unknown } } | undefined;
    const total = page.total ?? page.data.length;
    const incrementalSync = first ? typeof first.attributes?.updated_at === 'string' : null;
    return {
      ok: true,
      message: `Connected. The account has ${total} shipment${total === 1 ? '' : 's'}. ${serviceKindText(incrementalSync)}`,
      incrementalSync,
    };
  } catch (error) {
    if (!(error instanceof V2Error)) throw error;
    switch (error.kind) {
      case 'key_refused':
      case 'forbidden':
        return fail('The service refused the API key. Check that it is complete and still active.');
      case 'not_found':
        return fail(`No /v2 tracking service at this address.${hint}`);
      case 'bad_response':
        return fail(`This address does not answer like a /v2 tracking service.${hint}`);
      case 'rate_limited':
        return fail('The service is limiting requests right now; try again in a minute.');
      case 'server_error':
        return fail(`The service is having trouble (${error.message}) Try again later.`);
      case 'timeout':
      case 'unreachable':
        return fail(`${error.message} Check the address and your network connection.`);
      default:
        return fail(error.message);
    }
  }
}
