/**
 * The outcomes every HTTP feed adapter reports, so the tracking lifecycle can branch the same way
 * for carriers, line deadlines and terminals:
 *
 * - `found`        the source answered with usable data
 * - `not_found`    the source does not know the reference (404, or an empty result)
 * - `unreachable`  network failure or timeout: retry later with backoff
 * - `server_error` 5xx: the source is up but broken; retry later
 * - `rejected`     other 4xx (bad credentials, bad request, rate limited): a configuration or
 *                  quota problem rather than a tracking answer
 * - `malformed`    the body is not JSON or fails validation as a whole
 */
import { excerpt, type HttpOutcome } from './http';

export type FeedFailure =
  | { outcome: 'unreachable'; reason: 'timeout' | 'network'; error: string }
  | { outcome: 'server_error'; status: number; error: string }
  | { outcome: 'rejected'; status: number; error: string; retryAfterMs: number | null }
  | { outcome: 'malformed'; status: number; error: string };

export type FeedOutcomeKind = 'found' | 'not_found' | FeedFailure['outcome'];

/**
 * Classifies the transport-level part of an HTTP outcome. Returns null for a parsed 2xx or 404
 * answer, which the adapter interprets itself.
 */
export function classifyFailure(result: HttpOutcome): FeedFailure | null {
  if (result.kind === 'unreachable') {
    return { outcome: 'unreachable', reason: result.reason, error: result.error };
  }
  if (result.status >= 500) {
    return {
      outcome: 'server_error',
      status: result.status,
      error: `HTTP ${result.status}: ${excerpt(result.rawText)}`,
    };
  }
  if (result.status !== 404 && result.status >= 400) {
    return {
      outcome: 'rejected',
      status: result.status,
      error: `HTTP ${result.status}: ${excerpt(result.rawText)}`,
      retryAfterMs: parseRetryAfter(result.headers.get('retry-after')),
    };
  }
  if (result.kind === 'unparseable' && result.status !== 404) {
    return {
      outcome: 'malformed',
      status: result.status,
      error: `body is not JSON (${result.error}): ${excerpt(result.rawText)}`,
    };
  }
  if (result.status < 200 || (result.status >= 300 && result.status !== 404)) {
    return {
      outcome: 'malformed',
      status: result.status,
      error: `unexpected HTTP ${result.status}`,
    };
  }
  return null;
}

function parseRetryAfter(value: string | null): number | null {
  if (value === null) return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  return null;
}

/** Running totals an adapter exposes for health pages and logs. */
export interface FeedCounters {
  requests: number;
  found: number;
  notFound: number;
  unreachable: number;
  serverErrors: number;
  rejected: number;
  malformed: number;
  /** Individual records (events, containers) dropped for failing validation. */
  droppedRecords: number;
}

export const emptyCounters = (): FeedCounters => ({
  requests: 0,
  found: 0,
  notFound: 0,
  unreachable: 0,
  serverErrors: 0,
  rejected: 0,
  malformed: 0,
  droppedRecords: 0,
});

export function countOutcome(counters: FeedCounters, outcome: FeedOutcomeKind): void {
  switch (outcome) {
    case 'found':
      counters.found++;
      break;
    case 'not_found':
      counters.notFound++;
      break;
    case 'unreachable':
      counters.unreachable++;
      break;
    case 'server_error':
      counters.serverErrors++;
      break;
    case 'rejected':
      counters.rejected++;
      break;
    case 'malformed':
      counters.malformed++;
      break;
  }
}

/** Summarises TypeBox errors into one short line. */
export function describeErrors(
  errors: Iterable<{ instancePath: string; message: string }>,
  max = 3,
): string {
  const parts: string[] = [];
  for (const e of errors) {
    parts.push(`${e.instancePath || '/'} ${e.message}`);
    if (parts.length >= max) break;
  }
  return parts.join('; ');
}
