/**
 * Where the tracking engine reports what happened. Every change the engine writes (a container
 * discharged, an LFD moved, a request succeeded) is recorded through an EventSink inside the same
 * unit of work as the change itself (it is handed that unit's stores), so a webhook notification exists exactly when the
 * change does: the webhook outbox implements this interface.
 */
import type { Resource } from '../jsonapi/include';
import type { ServiceStorage } from '../store';

export type EventReferenceType =
  'container' | 'shipment' | 'tracking_request' | 'transport_event' | 'document';

export interface TrackingEvent {
  accountId: string;
  /** A name from the webhook event catalog, e.g. `container.transport.vessel_discharged`. */
  event: string;
  /** The object the event is about (the webhook payload's `reference_object`). */
  reference: { type: EventReferenceType; id: string };
  /** For `container.updated`: attribute name -> [old, new]. */
  changeset?: Record<string, [unknown, unknown]>;
  /** Resources the payload includes as given (for types the shared renderer does not load). */
  included?: Resource[];
  /** UTC ISO 8601 time the change was recorded. */
  occurredAt: string;
}

export interface EventSink {
  record(stores: ServiceStorage, event: TrackingEvent): Promise<void>;
}

/** For a service without webhooks (and for tests that do not look at events). */
export const discardEvents: EventSink = { record: async () => {} };
