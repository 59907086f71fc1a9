/** Valid /v2 resources for cache and alert tests, with just the fields a test cares about set. */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Value } from 'typebox/value';
import type {
  ContainerResource,
  ShipmentResource,
  TerminalResource,
  TransportEventResource,
} from '../../src/shared/api/resources';
import {
  ContainerResource as ContainerSchema,
  ShipmentResource as ShipmentSchema,
} from '../../src/shared/api/resources';

type DeepPartialAttrs<T extends { attributes: object }> = Partial<T['attributes']>;

export function shipment(
  attrs: DeepPartialAttrs<ShipmentResource> = {},
  id: string = randomUUID(),
): ShipmentResource {
  const s: ShipmentResource = {
    id,
    type: 'shipment',
    attributes: {
      bill_of_lading_number: 'MAEU123456789',
      normalized_number: 'MAEU123456789',
      ref_numbers: [],
      created_at: '2026-01-01T00:00:00.000Z',
      updated_at: '2026-01-01T00:00:00.000Z',
      tags: [],
      port_of_lading_locode: 'CNSHA',
      port_of_lading_name: 'Shanghai',
      port_of_discharge_locode: 'USLAX',
      port_of_discharge_name: 'Los Angeles',
      destination_locode: null,
      destination_name: null,
      shipping_line_scac: 'MAEU',
      shipping_line_name: 'Maersk',
      shipping_line_short_name: 'Maersk',
      customer_name: null,
      pod_vessel_name: null,
      pod_vessel_imo: null,
      pod_voyage_number: null,
      pol_etd_at: null,
      pol_atd_at: null,
      pod_eta_at: null,
      pod_original_eta_at: null,
      pol_original_etd_at: null,
      pod_ata_at: null,
      destination_eta_at: null,
      destination_ata_at: null,
      destination_original_eta_at: null,
      pol_timezone: 'Asia/Shanghai',
      pod_timezone: 'America/Los_Angeles',
      destination_timezone: null,
      line_tracking_last_attempted_at: null,
      line_tracking_last_succeeded_at: null,
      line_tracking_stopped_at: null,
      line_tracking_stopped_reason: null,
      ...attrs,
    },
    relationships: {
      destination: { data: null },
      port_of_lading: { data: null },
      port_of_discharge: { data: null },
      containers: { data: [] },
      pod_terminal: { data: null },
      destination_terminal: { data: null },
      line_tracking_stopped_by_user: { data: null },
    },
    links: { self: `/v2/shipments/${id}` },
  };
  if (!Value.Check(ShipmentSchema, s)) throw new Error('fixture shipment does not fit the schema');
  return s;
}

export function container(
  attrs: DeepPartialAttrs<ContainerResource> = {},
  rel: { shipmentId?: string; terminalId?: string; id?: string; eventIds?: string[] } = {},
): ContainerResource {
  const id = rel.id ?? randomUUID();
  const c: ContainerResource = {
    id,
    type: 'container',
    attributes: {
      number: 'MSCU1234565',
      ref_numbers: [],
      equipment_type: 'dry',
      equipment_length: 40,
      equipment_height: 'standard',
      weight_in_lbs: null,
      created_at: '2026-01-01T00:00:00.000Z',
      updated_at: '2026-01-01T00:00:00.000Z',
      seal_number: null,
      pickup_lfd: null,
      pickup_appointment_at: null,
      availability_known: false,
      available_for_pickup: null,
      pod_arrived_at: null,
      pod_discharged_at: null,
      pod_full_out_at: null,
      delivered_at: null,
      empty_out_at: null,
      pol_full_in_at: null,
      pol_vessel_loaded_at: null,
      pol_vessel_departed_at: null,
      rail_last_tracking_request_at: null,
      ind_facility_holds: null,
      ind_facility_fees: null,
      ssl_lfd: null,
      terminal_checked_at: null,
      pod_full_out_chassis_number: null,
      location_at_pod_terminal: null,
      pickup_number: null,
      final_destination_full_out_at: null,
      empty_terminated_at: null,
      holds_at_pod_terminal: [],
      fees_at_pod_terminal: [],
      pod_timezone: 'America/Los_Angeles',
      final_destination_timezone: null,
      empty_terminated_timezone: null,
      pod_rail_carrier_scac: null,
      ind_rail_carrier_scac: null,
      pod_last_tracking_request_at: null,
      shipment_last_tracking_request_at: null,
      pod_rail_loaded_at: null,
      pod_rail_departed_at: null,
      ind_eta_at: null,
      ind_ata_at: null,
      ind_rail_unloaded_at: null,
      ind_facility_lfd_on: null,
      import_deadlines: null,
      current_status: 'new',
      ...attrs,
    },
    relationships: {
      shipment: { data: rel.shipmentId ? { id: rel.shipmentId, type: 'shipment' } : null },
      pickup_facility: { data: null },
      pod_terminal: { data: rel.terminalId ? { id: rel.terminalId, type: 'terminal' } : null },
      transport_events: {
        data: (rel.eventIds ?? []).map((e) => ({ id: e, type: 'transport_event' as const })),
      },
      raw_events: { data: [] },
    },
  };
  if (!Value.Check(ContainerSchema, c))
    throw new Error('fixture container does not fit the schema');
  return c;
}

export function terminal(name: string, id: string = randomUUID()): TerminalResource {
  return {
    id,
    type: 'terminal',
    attributes: { name },
    relationships: { port: { data: null } },
  };
}

export function transportEvent(
  containerId: string,
  event: TransportEventResource['attributes']['event'],
  timestamp: string,
  id: string = randomUUID(),
): TransportEventResource {
  return {
    id,
    type: 'transport_event',
    attributes: {
      event,
      voyage_number: null,
      timestamp,
      timezone: 'America/Los_Angeles',
      location_locode: 'USLAX',
      created_at: timestamp,
      data_source: 'shipping_line',
    },
    relationships: {
      shipment: { data: null },
      container: { data: { id: containerId, type: 'container' } },
      location: { data: null },
      vessel: { data: null },
      terminal: { data: null },
    },
  };
}

/** A fresh temp directory, removed by the returned function. */
export function tempDir(prefix = 'quayside-cache-'): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
