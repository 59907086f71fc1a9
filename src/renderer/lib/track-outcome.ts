import type { TrackingRequestRow } from '../../shared/bridge';
import { countOf } from '../../shared/words';

/** What became of one number sent: its request, or why it was not sent. */
export interface SubmittedRequest {
  number: string;
  request: TrackingRequestRow | null;
  error: string | null;
  duplicate?: boolean;
}

/**
 * "2 numbers sent", or what happened to each kind: a number already tracked is not a failure
 * (its row links to the container), so it is counted apart from those not sent.
 */
export function describeOutcome(results: readonly SubmittedRequest[]): string {
  const sent = results.filter((result) => result.request).length;
  const tracked = results.filter((result) => !result.request && result.duplicate).length;
  const failed = results.length - sent - tracked;
  if (sent === results.length) return `${countOf(sent, 'number')} sent: see Submitted.`;
  const parts = [
    sent ? `${countOf(sent, 'number')} sent` : '',
    tracked ? `${countOf(tracked, 'number')} already tracked` : '',
    failed ? `${countOf(failed, 'number')} not sent` : '',
  ].filter(Boolean);
  return `${parts.join(', ')}: see Submitted.`;
}
