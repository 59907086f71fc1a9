/**
 * The webhook event catalog served by `GET /webhooks/events`: every subscribable event name,
 * grouped in categories, with what it means. It covers exactly WEBHOOK_EVENT_NAMES.
 */
import { WEBHOOK_EVENT_NAMES } from '../../shared/api/resources';

export type WebhookEventName = (typeof WEBHOOK_EVENT_NAMES)[number];

export interface WebhookEventCategory {
  id: string;
  name: string;
  events: { name: WebhookEventName; description: string }[];
}

const moved = (what: string) => `The container ${what}.`;

export const WEBHOOK_EVENT_CATEGORIES: WebhookEventCategory[] = [
  {
    id: 'tracking-request-events',
    name: 'Tracking Request Events',
    events: [
      {
        name: 'tracking_request.succeeded',
        description: 'Shipment created and linked to the tracking request.',
      },
      {
        name: 'tracking_request.failed',
        description: 'The tracking request failed; see its failed_reason.',
      },
      {
        name: 'tracking_request.awaiting_manifest',
        description: 'The shipping line knows the number but has not published the manifest yet.',
      },
      {
        name: 'tracking_request.tracking_stopped',
        description: 'Tracking of the shipment stopped.',
      },
    ],
  },
  {
    id: 'shipment-events',
    name: 'Shipment Events',
    events: [
      {
        name: 'shipment.estimated.arrival',
        description: 'The estimated arrival at the port of discharge changed.',
      },
    ],
  },
  {
    id: 'container-events',
    name: 'Container Events',
    events: [
      { name: 'container.created', description: 'A container was added to a shipment.' },
      {
        name: 'container.updated',
        description:
          'Availability, holds, fees, last free day, appointment or terminal of the container changed.',
      },
      {
        name: 'container.pod_terminal_changed',
        description: 'The terminal at the port of discharge changed.',
      },
      { name: 'container.pickup_lfd.changed', description: 'The pickup last free day changed.' },
      {
        name: 'container.pickup_lfd_line.changed',
        description: "The shipping line's last free day changed.",
      },
      {
        name: 'container.pickup_lfd_terminal.changed',
        description: "The terminal's last free day changed.",
      },
      {
        name: 'container.pickup_lfd_rail.changed',
        description: "The rail carrier's last free day (import_deadlines.pickup_lfd_rail) changed.",
      },
      {
        name: 'container.pickup_appointment.changed',
        description: 'The pickup appointment changed.',
      },
      {
        name: 'container.transport.available',
        description: moved('became available for pickup'),
      },
      {
        name: 'container.transport.not_available',
        description: moved('is no longer available for pickup'),
      },
    ],
  },
  {
    id: 'vessel-events',
    name: 'Vessel Events',
    events: [
      {
        name: 'container.transport.vessel_arrived',
        description: moved('arrived at the port of discharge'),
      },
      {
        name: 'container.transport.estimated.vessel_arrived',
        description: 'The estimated arrival of the vessel changed.',
      },
      {
        name: 'container.transport.vessel_discharged',
        description: moved('was discharged from the vessel'),
      },
      {
        name: 'container.transport.vessel_loaded',
        description: moved('was loaded on the vessel'),
      },
      {
        name: 'container.transport.vessel_departed',
        description: moved('departed on the vessel'),
      },
      {
        name: 'container.transport.estimated.vessel_departed',
        description: 'The estimated departure of the vessel changed.',
      },
      {
        name: 'container.transport.vessel_berthed',
        description: 'The vessel carrying the container berthed.',
      },
    ],
  },
  {
    id: 'transshipment-events',
    name: 'Transshipment Events',
    events: [
      {
        name: 'container.transport.transshipment_arrived',
        description: moved('arrived at a transshipment port'),
      },
      {
        name: 'container.transport.transshipment_discharged',
        description: moved('was discharged at a transshipment port'),
      },
      {
        name: 'container.transport.transshipment_loaded',
        description: moved('was loaded at a transshipment port'),
      },
      {
        name: 'container.transport.transshipment_departed',
        description: moved('departed a transshipment port'),
      },
    ],
  },
  {
    id: 'feeder-events',
    name: 'Feeder Events',
    events: [
      {
        name: 'container.transport.feeder_arrived',
        description: moved('arrived on a feeder vessel'),
      },
      {
        name: 'container.transport.feeder_discharged',
        description: moved('was discharged from a feeder vessel'),
      },
      {
        name: 'container.transport.feeder_loaded',
        description: moved('was loaded on a feeder vessel'),
      },
      {
        name: 'container.transport.feeder_departed',
        description: moved('departed on a feeder vessel'),
      },
    ],
  },
  {
    id: 'rail-events',
    name: 'Rail Events',
    events: [
      { name: 'container.transport.rail_loaded', description: moved('was loaded on rail') },
      { name: 'container.transport.rail_departed', description: moved('departed by rail') },
      { name: 'container.transport.rail_arrived', description: moved('arrived by rail') },
      {
        name: 'container.transport.rail_unloaded',
        description: moved('was unloaded from rail'),
      },
    ],
  },
  {
    id: 'terminal-events',
    name: 'Terminal and Gate Events',
    events: [
      {
        name: 'container.transport.empty_out',
        description: moved('left the terminal empty for stuffing'),
      },
      {
        name: 'container.transport.full_in',
        description: moved('entered the terminal of lading full'),
      },
      { name: 'container.transport.full_out', description: moved('was picked up full') },
      { name: 'container.transport.empty_in', description: moved('was returned empty') },
    ],
  },
  {
    id: 'inland-events',
    name: 'Inland and Delivery Events',
    events: [
      {
        name: 'container.transport.arrived_at_inland_destination',
        description: moved('arrived at its inland destination'),
      },
      {
        name: 'container.transport.estimated.arrived_at_inland_destination',
        description: 'The estimated arrival at the inland destination changed.',
      },
      { name: 'container.transport.delivered', description: moved('was delivered') },
    ],
  },
  {
    id: 'document-events',
    name: 'Document Events',
    events: [
      { name: 'document.extracted', description: 'Data was extracted from a document.' },
      {
        name: 'document.extraction_failed',
        description: 'Data could not be extracted from a document.',
      },
    ],
  },
];

const NAMES: ReadonlySet<string> = new Set(WEBHOOK_EVENT_NAMES);

export const isWebhookEvent = (name: string): name is WebhookEventName => NAMES.has(name);
