/**
 * Example notification payloads for `GET /webhook_notifications/examples` and
 * `POST /webhooks/trigger`: one made-up shipment (with a container, a tracking request and a
 * transport event) rendered exactly like real data, assembled by the same builder as real
 * notifications. Nothing here touches the account's data.
 */
import { v4 as uuidv4 } from 'uuid';
import {
  renderPort,
  renderTerminal,
  renderTrackingRequest,
  type ResourceRendering,
} from '../resources/render';
import type { EventReferenceType } from '../events/event-sink';
import type { Resource } from '../jsonapi/include';
import type { ReferenceData } from '../store/reference';
import type {
  ContainersTable,
  ShipmentsTable,
  TrackingRequestsTable,
  TransportEventsTable,
} from '../store/schema';
import type { WebhookEventName } from './catalog';
import { buildEventBody, notificationDocument, type NotificationDocument } from './payload';

/** Which kind of object an event of this name is about. */
export function referenceTypeFor(event: WebhookEventName): EventReferenceType {
  if (event.startsWith('tracking_request.')) return 'tracking_request';
  if (event === 'shipment.estimated.arrival') return 'shipment';
  if (event.startsWith('document.')) return 'document';
  if (
    event === 'container.created' ||
    event === 'container.updated' ||
    event === 'container.pod_terminal_changed'
  )
    return 'container';
  return 'transport_event';
}

const EXAMPLE_IDS = {
  trackingRequest: '5b1f3c8e-2a4d-4e6f-9a1b-3c5d7e9f1a2b',
  shipment: '7c2e4d6f-8a0b-4c1d-9e3f-5a7b9c1d3e5f',
  container: '9d3f5e7a-1b2c-4d3e-8f4a-6b8c0d2e4f6a',
  transportEvent: 'ae4a6f8b-2c3d-4e5f-9a6b-7c9d1e3f5a7b',
  document: 'b1c2d3e4-5f6a-4b7c-8d9e-0f1a2b3c4d5e',
};

/** The example document for `event`, stamped at `nowIso`. */
export async function exampleNotification(
  event: WebhookEventName,
  render: ResourceRendering,
  ref: ReferenceData,
  nowIso: string,
  options: { id?: string; webhookId?: string | null } = {},
): Promise<NotificationDocument> {
  const pol = ref.portsByLocode.get('CNSHA') ?? [...ref.portsById.values()][0];
  const pod = ref.portsByLocode.get('USLAX') ?? [...ref.portsById.values()].at(-1);
  const terminal = [...ref.terminalsById.values()].find((t) => t.port_id === pod?.id);
  const day = (offset: number) => new Date(Date.parse(nowIso) + offset * 86_400_000).toISOString();

  const status =
    event === 'tracking_request.failed'
      ? 'failed'
      : event === 'tracking_request.awaiting_manifest'
        ? 'awaiting_manifest'
        : event === 'tracking_request.tracking_stopped'
          ? 'tracking_stopped'
          : 'created';
  const hasShipment = status === 'created' || status === 'tracking_stopped';
  const request: TrackingRequestsTable = {
    id: EXAMPLE_IDS.trackingRequest,
    account_id: '',
    request_number: 'MEDUEX0000001',
    request_type: 'bill_of_lading',
    scac: 'MSCU',
    status,
    failed_reason: status === 'failed' ? 'not_found' : null,
    ref_numbers: '["PO-1001"]',
    tags: '[]',
    shipment_tags: '[]',
    is_retrying: 0,
    retry_count: null,
    shipment_id: hasShipment ? EXAMPLE_IDS.shipment : null,
    created_at: day(-20),
    updated_at: day(-20),
  };
  const shipment: ShipmentsTable = {
    id: EXAMPLE_IDS.shipment,
    account_id: '',
    bill_of_lading_number: 'MEDUEX0000001',
    normalized_number: 'EX0000001',
    scac: 'MSCU',
    ref_numbers: '["PO-1001"]',
    tags: '[]',
    customer_name: null,
    port_of_lading_id: pol?.id ?? null,
    port_of_discharge_id: pod?.id ?? null,
    destination_id: null,
    destination_type: null,
    pod_terminal_id: terminal?.id ?? null,
    destination_terminal_id: null,
    destination_terminal_type: null,
    pod_vessel_id: null,
    pod_vessel_name: 'MSC EXAMPLE',
    pod_vessel_imo: '9839430',
    pod_voyage_number: '123E',
    pol_etd_at: null,
    pol_atd_at: day(-18),
    pod_eta_at: day(2),
    pod_original_eta_at: day(1),
    pol_original_etd_at: day(-19),
    destination_original_eta_at: null,
    pod_ata_at: null,
    destination_eta_at: null,
    destination_ata_at: null,
    line_tracking_last_attempted_at: day(0),
    line_tracking_last_succeeded_at: day(0),
    line_tracking_stopped_at: status === 'tracking_stopped' ? day(0) : null,
    line_tracking_stopped_reason:
      status === 'tracking_stopped' ? 'all_containers_terminated' : null,
    created_at: day(-20),
    updated_at: day(0),
  };
  const container: ContainersTable = {
    id: EXAMPLE_IDS.container,
    account_id: '',
    shipment_id: EXAMPLE_IDS.shipment,
    number: 'MSCU1234565',
    ref_numbers: '[]',
    equipment_type: 'dry',
    equipment_length: 40,
    equipment_height: 'high_cube',
    weight_in_lbs: 42000,
    seal_number: 'SEAL123',
    pickup_appointment_at: null,
    availability_known: 1,
    available_for_pickup: 1,
    pod_arrived_at: day(-1),
    empty_out_at: day(-25),
    pol_full_in_at: day(-22),
    pol_vessel_loaded_at: day(-19),
    pol_vessel_departed_at: day(-18),
    pod_discharged_at: day(0),
    pod_full_out_at: null,
    terminal_checked_at: day(0),
    pod_full_out_chassis_number: null,
    location_at_pod_terminal: 'Yard',
    pickup_number: null,
    final_destination_full_out_at: null,
    empty_terminated_at: null,
    holds_at_pod_terminal: '[]',
    fees_at_pod_terminal: '[]',
    pod_timezone: pod?.time_zone ?? null,
    final_destination_timezone: null,
    empty_terminated_timezone: null,
    pod_rail_carrier_scac: null,
    ind_rail_carrier_scac: null,
    pod_last_tracking_request_at: day(0),
    shipment_last_tracking_request_at: day(0),
    pod_rail_loaded_at: null,
    pod_rail_departed_at: null,
    ind_eta_at: null,
    ind_ata_at: null,
    ind_rail_unloaded_at: null,
    pickup_lfd_terminal: day(4),
    pickup_lfd_rail: null,
    pickup_lfd_line: null,
    current_status: 'available',
    pod_terminal_id: terminal?.id ?? null,
    pickup_facility_id: terminal?.id ?? null,
    trucker_id: null,
    created_at: day(-20),
    updated_at: day(0),
  };
  const transportEvent: TransportEventsTable = {
    id: EXAMPLE_IDS.transportEvent,
    account_id: '',
    container_id: EXAMPLE_IDS.container,
    shipment_id: EXAMPLE_IDS.shipment,
    event,
    voyage_number: '123E',
    timestamp: day(0),
    timezone: pod?.time_zone ?? null,
    location_locode: pod?.locode ?? null,
    location_name: null,
    location_id: pod?.id ?? null,
    location_type: pod ? 'port' : null,
    vessel_id: null,
    terminal_id: terminal?.id ?? null,
    terminal_type: terminal ? 'terminal' : null,
    data_source: 'shipping_line',
    created_at: nowIso,
  };

  const resources: Resource[] = [
    renderTrackingRequest(request),
    render.shipment(shipment, [container.id]),
    render.container(container, [transportEvent.id], []),
    render.transportEvent(transportEvent),
    ...[pol, pod].flatMap((p) => (p ? [renderPort(p)] : [])),
    ...(terminal ? [renderTerminal(terminal)] : []),
  ];
  const byKey = new Map(resources.map((r) => [`${r.type}:${r.id}`, r]));
  const load = async (type: string, ids: string[]) =>
    ids.flatMap((id) => {
      const r = byKey.get(`${type}:${id}`);
      return r ? [r] : [];
    });

  const referenceType = referenceTypeFor(event);
  const referenceId = {
    tracking_request: EXAMPLE_IDS.trackingRequest,
    shipment: EXAMPLE_IDS.shipment,
    container: EXAMPLE_IDS.container,
    transport_event: EXAMPLE_IDS.transportEvent,
    document: EXAMPLE_IDS.document,
  }[referenceType];
  const body = await buildEventBody(
    {
      event,
      reference: { type: referenceType, id: referenceId },
      changeset:
        event === 'container.updated'
          ? { available_for_pickup: [false, true], pickup_lfd: [null, day(4)] }
          : undefined,
      included:
        referenceType === 'document'
          ? [
              {
                id: EXAMPLE_IDS.document,
                type: 'document',
                attributes: {
                  name: 'Arrival notice.pdf',
                  document_type: 'arrival_notice',
                  source: 'email',
                  file_content_type: 'application/pdf',
                  extraction_status: event === 'document.extracted' ? 'extracted' : 'failed',
                  created_at: nowIso,
                  updated_at: nowIso,
                },
                relationships: {
                  shipments: { data: [{ type: 'shipment', id: EXAMPLE_IDS.shipment }] },
                },
              },
            ]
          : undefined,
      occurredAt: nowIso,
    },
    load,
  );
  return notificationDocument(
    { id: options.id ?? uuidv4(), event, webhookId: options.webhookId ?? null, createdAt: nowIso },
    body,
  );
}
