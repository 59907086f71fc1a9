/**
 * The body of a webhook notification: a JSON:API document whose `data` is the
 * `webhook_notification` (event, delivery_status, created_at, relationships webhook and
 * reference_object) and whose `included` carries what the event is about, per event family as
 * the reference API shows:
 * - tracking_request.*: the tracking request, its shipment and the shipment's containers;
 * - transport events (container.transport.*, LFD and appointment changes): the transport event,
 *   its container, shipment and location;
 * - container.updated: a `container_updated_event` (changeset), the container and its terminal;
 * - container.pod_terminal_changed: a `container_pod_terminal_changed_event`, container, terminal;
 * - shipment.estimated.arrival: an `estimated_event`, the port of discharge and the shipment;
 * - container.created: the container and its shipment;
 * - document.*: the document as the event recorded it.
 */
import { v4 as uuidv4 } from 'uuid';
import type { EventReferenceType } from '../events/event-sink';
import type { Identifier, Resource } from '../jsonapi/include';

export type ResourceLoader = (type: string, ids: string[]) => Promise<Resource[]>;

export interface NotificationDocument {
  data: Resource;
  included: Resource[];
}

export interface EventSubject {
  event: string;
  reference: { type: EventReferenceType; id: string };
  changeset?: Record<string, [unknown, unknown]>;
  included?: Resource[];
  occurredAt: string;
}

/** What the event is about: the reference object identifier and the included resources. */
export interface EventBody {
  referenceObject: Identifier | null;
  included: Resource[];
}

const idOf = (r: Resource | undefined, relationship: string): Identifier | undefined => {
  const data = r?.relationships?.[relationship]?.data;
  return data && !Array.isArray(data) ? data : undefined;
};
const idsOf = (r: Resource | undefined, relationship: string): Identifier[] => {
  const data = r?.relationships?.[relationship]?.data;
  return Array.isArray(data) ? data : data ? [data] : [];
};
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

class Collector {
  readonly included = new Map<string, Resource>();
  constructor(private readonly load: ResourceLoader) {}

  add(r: Resource | undefined): Resource | undefined {
    if (r) this.included.set(`${r.type}:${r.id}`, r);
    return r;
  }

  async one(ident: Identifier | undefined): Promise<Resource | undefined> {
    if (!ident) return undefined;
    const [r] = await this.load(ident.type, [ident.id]);
    return this.add(r);
  }

  async many(idents: Identifier[]): Promise<void> {
    const byType = new Map<string, string[]>();
    for (const i of idents) byType.set(i.type, [...(byType.get(i.type) ?? []), i.id]);
    for (const [type, ids] of byType) for (const r of await this.load(type, ids)) this.add(r);
  }
}

/** Builds the reference object and `included` of one event with the given loader. */
export async function buildEventBody(
  subject: EventSubject,
  load: ResourceLoader,
): Promise<EventBody> {
  const c = new Collector(load);
  const { reference } = subject;
  const done = (referenceObject: Identifier | null): EventBody => ({
    referenceObject,
    included: [...c.included.values()],
  });

  switch (reference.type) {
    case 'tracking_request': {
      const request = await c.one({ type: 'tracking_request', id: reference.id });
      const shipment = await c.one(idOf(request, 'tracked_object'));
      await c.many(idsOf(shipment, 'containers'));
      return done({ type: 'tracking_request', id: reference.id });
    }
    case 'transport_event': {
      const event = await c.one({ type: 'transport_event', id: reference.id });
      await c.one(idOf(event, 'container'));
      await c.one(idOf(event, 'shipment'));
      await c.one(idOf(event, 'location'));
      return done({ type: 'transport_event', id: reference.id });
    }
    case 'container': {
      const [container] = await load('container', [reference.id]);
      if (
        subject.event === 'container.updated' ||
        subject.event === 'container.pod_terminal_changed'
      ) {
        const terminal = idOf(container, 'pod_terminal') ?? null;
        const containerId = { type: 'container', id: reference.id };
        const updated = subject.event === 'container.updated';
        const synthetic: Resource = updated
          ? {
              id: uuidv4(),
              type: 'container_updated_event',
              attributes: {
                changeset: subject.changeset ?? {},
                timestamp: subject.occurredAt,
                timezone: str(container?.attributes.pod_timezone),
                data_source: 'terminal',
              },
              relationships: { container: { data: containerId }, terminal: { data: terminal } },
            }
          : {
              id: uuidv4(),
              type: 'container_pod_terminal_changed_event',
              attributes: { timestamp: subject.occurredAt, data_source: 'shipping_line' },
              relationships: {
                container: { data: containerId },
                shipment: { data: idOf(container, 'shipment') ?? null },
                terminal: { data: terminal },
              },
            };
        c.add(synthetic);
        c.add(container);
        await c.one(terminal ?? undefined);
        if (!updated) await c.one(idOf(container, 'shipment'));
        return done({ type: synthetic.type, id: synthetic.id });
      }
      c.add(container);
      await c.one(idOf(container, 'shipment'));
      return done({ type: 'container', id: reference.id });
    }
    case 'document': {
      for (const r of subject.included ?? []) c.add(r);
      return done({ type: 'document', id: reference.id });
    }
    case 'shipment': {
      const [shipment] = await load('shipment', [reference.id]);
      if (subject.event === 'shipment.estimated.arrival') {
        const port = idOf(shipment, 'port_of_discharge') ?? null;
        const estimated: Resource = {
          id: uuidv4(),
          type: 'estimated_event',
          attributes: {
            created_at: subject.occurredAt,
            estimated_timestamp: str(shipment?.attributes.pod_eta_at),
            voyage_number: str(shipment?.attributes.pod_voyage_number),
            event: subject.event,
            location_locode: str(shipment?.attributes.port_of_discharge_locode),
            timezone: str(shipment?.attributes.pod_timezone),
            data_source: 'shipping_line',
          },
          relationships: {
            shipment: { data: { type: 'shipment', id: reference.id } },
            port: { data: port },
            vessel: { data: null },
          },
        };
        c.add(estimated);
        await c.one(port ?? undefined);
        c.add(shipment);
        return done({ type: 'estimated_event', id: estimated.id });
      }
      c.add(shipment);
      return done({ type: 'shipment', id: reference.id });
    }
  }
}

/** The full document for one notification. */
export function notificationDocument(
  notification: {
    id: string;
    event: string;
    webhookId: string | null;
    createdAt: string;
    deliveryStatus?: string;
  },
  body: EventBody,
): NotificationDocument {
  return {
    data: {
      id: notification.id,
      type: 'webhook_notification',
      attributes: {
        id: notification.id,
        event: notification.event,
        delivery_status: notification.deliveryStatus ?? 'pending',
        created_at: notification.createdAt,
      },
      relationships: {
        webhook: {
          data: notification.webhookId ? { type: 'webhook', id: notification.webhookId } : null,
        },
        reference_object: { data: body.referenceObject },
      },
    },
    included: body.included,
  };
}
