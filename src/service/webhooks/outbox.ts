/**
 * The durable outbox: the EventSink the tracking engine calls inside its write transaction. For
 * each active webhook of the account subscribed to the event it inserts one pending
 * webhook_notification carrying the full payload, built now from the same unit of work, so a
 * notification exists exactly when the change does and later edits do not alter what was sent.
 */
import { v4 as uuidv4 } from 'uuid';
import { isoString, type Clock } from '../../shared/clock';
import { Renderer } from '../resources/batch-render';
import type { EventSink, TrackingEvent } from '../events/event-sink';
import type { ServiceStorage } from '../store';
import type { ReferenceData } from '../store/reference';
import { isWebhookEvent } from './catalog';
import { buildEventBody, notificationDocument } from './payload';

export class WebhookOutbox implements EventSink {
  constructor(
    private readonly ref: ReferenceData,
    private readonly clock: Clock,
    /**
     * Called after notifications were written, with the id of their transaction where commits
     * are asynchronous (the worker picks them up once it has committed).
     */
    private readonly onRecorded: (transactionId: string | null) => void = () => {},
  ) {}

  async record(stores: ServiceStorage, event: TrackingEvent): Promise<void> {
    if (!isWebhookEvent(event.event)) return;
    const store = stores.webhooks;
    const subscribed = await store.subscribers(event.accountId, event.event);
    if (subscribed.length === 0) return;

    const render = new Renderer(stores.resources, this.ref);
    const body = await buildEventBody(event, (type, ids) =>
      render.load(event.accountId, type, ids),
    );
    const createdAt = isoString(this.clock.now());
    const rows = subscribed.map((hook) => {
      const id = uuidv4();
      const document = notificationDocument(
        { id, event: event.event, webhookId: hook.id, createdAt },
        body,
      );
      return {
        id,
        accountId: event.accountId,
        webhookId: hook.id,
        event: event.event,
        referenceObject: body.referenceObject ?? null,
        payload: JSON.stringify(document),
        createdAt,
      };
    });
    await store.addNotifications(rows);
    this.onRecorded(await store.transactionId());
  }
}
