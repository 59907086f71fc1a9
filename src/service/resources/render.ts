/**
 * Rows -> JSON:API resource objects. Related reference data (ports, terminals, lines) comes from
 * the in-memory ReferenceData. No storage and no caching here: see batch-render.ts for batch
 * rendering with its cache, includes.ts for loading included resources.
 */
import type { Identifier, Resource } from '../jsonapi/include';
import type { ReferenceData } from '../store/reference';
import type {
  ContainersTable,
  MetroAreasTable,
  PartiesTable,
  PortsTable,
  RailTerminalsTable,
  RawEventsTable,
  ShipmentsTable,
  ShippingLinesTable,
  TerminalsTable,
  TrackingRequestsTable,
  TransportEventsTable,
  VesselsTable,
  WebhookNotificationsTable,
  WebhooksTable,
} from '../store/schema';
import { containerLfd } from '../tracking/binding-lfd';

export const API_PREFIX = '/v2';

const one = (type: string, id: string | null | undefined) => ({
  data: id ? ({ id, type } as Identifier) : null,
});
const many = (type: string, ids: string[]) => ({ data: ids.map((id) => ({ id, type })) });
const parseList = (text: string | null): string[] => (text ? (JSON.parse(text) as string[]) : []);
const bool = (v: number | null) => (v == null ? null : v === 1);

/** Adds attributes only when they have a value (reference schemas declare them non-nullable). */
function present(values: Record<string, string | null>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(values)) if (v != null) out[k] = v;
  return out;
}

/** A port with its terminals (the real service's `terminals` relationship). */
export function renderPort(p: PortsTable, terminalIds: readonly string[] = []): Resource {
  return {
    id: p.id,
    type: 'port',
    attributes: {
      name: p.name,
      code: p.locode,
      state_abbr: p.state_abbr,
      city: p.city,
      country_code: p.country_code,
      time_zone: p.time_zone,
      latitude: p.latitude,
      longitude: p.longitude,
    },
    relationships: { terminals: many('terminal', [...terminalIds]) },
  };
}

export function renderMetro(m: MetroAreasTable): Resource {
  return {
    id: m.id,
    type: 'metro_area',
    attributes: {
      name: m.name,
      code: m.locode,
      state_abbr: m.state_abbr,
      country_code: m.country_code,
      time_zone: m.time_zone,
      latitude: m.latitude,
      longitude: m.longitude,
    },
  };
}

export function renderTerminal(t: TerminalsTable): Resource {
  return {
    id: t.id,
    type: 'terminal',
    attributes: {
      name: t.name,
      ...present({
        nickname: t.nickname,
        firms_code: t.firms_code,
        smdg_code: t.smdg_code,
        bic_facility_code: t.bic_facility_code,
        street: t.street,
        city: t.city,
        state: t.state,
        state_abbr: t.state_abbr,
        zip: t.zip,
        country: t.country,
      }),
      // Every terminal Quayside lists is a port's container terminal.
      facility_type: 'ocean_terminal',
    },
    relationships: { port: one('port', t.port_id) },
  };
}

export function renderRailTerminal(t: RailTerminalsTable): Resource {
  return {
    id: t.id,
    type: 'rail_terminal',
    attributes: { name: t.name, ...present({ nickname: t.nickname, firms_code: t.firms_code }) },
    relationships: { port: one('port', t.port_id), metro_area: one('metro_area', t.metro_area_id) },
  };
}

export function renderVessel(v: VesselsTable): Resource {
  return {
    id: v.id,
    type: 'vessel',
    attributes: {
      name: v.name,
      imo: v.imo,
      mmsi: v.mmsi,
      latitude: v.latitude,
      longitude: v.longitude,
      nautical_speed_knots: v.nautical_speed_knots,
      navigational_heading_degrees: v.navigational_heading_degrees,
      position_timestamp: v.position_timestamp,
    },
  };
}

/** Which request types a line is tracked by, as the reference data lists them. */
export function lineSupport(l: Pick<ShippingLinesTable, 'tracks_by'>) {
  const kinds = parseList(l.tracks_by);
  return {
    bill_of_lading: kinds.includes('bill_of_lading'),
    booking_number: kinds.includes('booking_number'),
    container: kinds.includes('container'),
  };
}

/** `trackable`: false when this service has no source for the line (all support flags off). */
export function renderShippingLine(l: ShippingLinesTable, trackable = true): Resource {
  const known = lineSupport(l);
  const support = trackable
    ? known
    : { bill_of_lading: false, booking_number: false, container: false };
  return {
    id: l.id,
    type: 'shipping_line',
    attributes: {
      scac: l.scac,
      name: l.name,
      alternative_scacs: parseList(l.alternative_scacs),
      short_name: l.short_name,
      bill_of_lading_tracking_support: support.bill_of_lading,
      booking_number_tracking_support: support.booking_number,
      container_number_tracking_support: support.container,
    },
  };
}

export function renderTrackingRequest(r: TrackingRequestsTable): Resource {
  return {
    id: r.id,
    type: 'tracking_request',
    attributes: {
      request_number: r.request_number,
      request_type: r.request_type,
      // Empty when auto-detection found no line (the request failed).
      scac: r.scac || null,
      ref_numbers: parseList(r.ref_numbers),
      tags: parseList(r.tags),
      status: r.status,
      failed_reason: r.failed_reason,
      is_retrying: r.is_retrying === 1,
      retry_count: r.retry_count,
      created_at: r.created_at,
      updated_at: r.updated_at,
    },
    relationships: {
      tracked_object: one('shipment', r.shipment_id),
      customer: one('party', r.customer_id),
    },
    links: { self: `${API_PREFIX}/tracking_requests/${r.id}` },
  };
}

export function renderParty(p: PartiesTable): Resource {
  return {
    id: p.id,
    type: 'party',
    attributes: {
      company_name: p.company_name,
      roles: JSON.parse(p.roles) as unknown,
      scac: p.scac,
      contacts: JSON.parse(p.contacts) as unknown,
      created_at: p.created_at,
      updated_at: p.updated_at,
    },
    links: { self: `${API_PREFIX}/parties/${p.id}` },
  };
}

export function renderWebhook(w: WebhooksTable): Resource {
  return {
    id: w.id,
    type: 'webhook',
    attributes: {
      url: w.url,
      active: w.active === 1,
      events: parseList(w.events),
      secret: w.secret,
      headers: w.headers ? (JSON.parse(w.headers) as unknown) : null,
    },
  };
}

export function renderWebhookNotification(n: WebhookNotificationsTable): Resource {
  return {
    id: n.id,
    type: 'webhook_notification',
    attributes: { event: n.event, delivery_status: n.delivery_status, created_at: n.created_at },
    relationships: {
      webhook: one('webhook', n.webhook_id),
      reference_object: one(n.reference_object_type ?? 'tracking_request', n.reference_object_id),
    },
  };
}

/** Renders the tracking resources, whose attributes and relationships draw on reference data. */
export class ResourceRendering {
  constructor(private readonly ref: ReferenceData) {}

  shipment(s: ShipmentsTable, containerIds: string[]): Resource {
    const ref = this.ref;
    const pol = s.port_of_lading_id ? ref.portsById.get(s.port_of_lading_id) : undefined;
    const pod = s.port_of_discharge_id ? ref.portsById.get(s.port_of_discharge_id) : undefined;
    const dest = s.destination_id
      ? s.destination_type === 'metro_area'
        ? ref.metrosById.get(s.destination_id)
        : ref.portsById.get(s.destination_id)
      : undefined;
    const line = ref.linesByAnyScac.get(s.scac);
    return {
      id: s.id,
      type: 'shipment',
      attributes: {
        bill_of_lading_number: s.bill_of_lading_number,
        normalized_number: s.normalized_number,
        ref_numbers: parseList(s.ref_numbers),
        created_at: s.created_at,
        updated_at: s.updated_at,
        tags: parseList(s.tags),
        port_of_lading_locode: pol?.locode ?? null,
        port_of_lading_name: pol?.name ?? null,
        port_of_discharge_locode: pod?.locode ?? null,
        port_of_discharge_name: pod?.name ?? null,
        destination_locode: dest?.locode ?? null,
        destination_name: dest?.name ?? null,
        shipping_line_scac: s.scac,
        shipping_line_name: line?.name ?? s.scac,
        shipping_line_short_name: line?.short_name ?? s.scac,
        customer_name: s.customer_name,
        pod_vessel_name: s.pod_vessel_name,
        pod_vessel_imo: s.pod_vessel_imo,
        pod_voyage_number: s.pod_voyage_number,
        pol_etd_at: s.pol_etd_at,
        pol_atd_at: s.pol_atd_at,
        pod_eta_at: s.pod_eta_at,
        pod_original_eta_at: s.pod_original_eta_at,
        pol_original_etd_at: s.pol_original_etd_at,
        destination_original_eta_at: s.destination_original_eta_at,
        pod_ata_at: s.pod_ata_at,
        destination_eta_at: s.destination_eta_at,
        destination_ata_at: s.destination_ata_at,
        pol_timezone: pol?.time_zone ?? null,
        pod_timezone: pod?.time_zone ?? null,
        destination_timezone: dest?.time_zone ?? null,
        line_tracking_last_attempted_at: s.line_tracking_last_attempted_at,
        line_tracking_last_succeeded_at: s.line_tracking_last_succeeded_at,
        line_tracking_stopped_at: s.line_tracking_stopped_at,
        line_tracking_stopped_reason: s.line_tracking_stopped_reason,
      },
      relationships: {
        destination: one(s.destination_type ?? 'port', s.destination_id),
        port_of_lading: one('port', s.port_of_lading_id),
        port_of_discharge: one('port', s.port_of_discharge_id),
        containers: many('container', containerIds),
        pod_terminal: one('terminal', s.pod_terminal_id),
        destination_terminal: one(
          s.destination_terminal_type ?? 'terminal',
          s.destination_terminal_id,
        ),
        line_tracking_stopped_by_user: { data: null },
      },
      links: { self: `${API_PREFIX}/shipments/${s.id}` },
    };
  }

  container(c: ContainersTable, eventIds: string[], rawIds: string[]): Resource {
    const deadlines = {
      pickup_lfd_terminal: c.pickup_lfd_terminal,
      pickup_lfd_rail: c.pickup_lfd_rail,
      pickup_lfd_line: c.pickup_lfd_line,
    };
    return {
      id: c.id,
      type: 'container',
      attributes: {
        number: c.number,
        ref_numbers: parseList(c.ref_numbers),
        equipment_type: c.equipment_type,
        equipment_length: c.equipment_length,
        equipment_height: c.equipment_height,
        weight_in_lbs: c.weight_in_lbs,
        created_at: c.created_at,
        updated_at: c.updated_at,
        seal_number: c.seal_number,
        pickup_lfd: containerLfd(c).date,
        pickup_appointment_at: c.pickup_appointment_at,
        availability_known: c.availability_known === 1,
        available_for_pickup: bool(c.available_for_pickup),
        pod_arrived_at: c.pod_arrived_at,
        pod_discharged_at: c.pod_discharged_at,
        empty_out_at: c.empty_out_at,
        pol_full_in_at: c.pol_full_in_at,
        pol_vessel_loaded_at: c.pol_vessel_loaded_at,
        pol_vessel_departed_at: c.pol_vessel_departed_at,
        // Handed to the consignee: no feed Quayside reads reports a delivery.
        delivered_at: null,
        pod_full_out_at: c.pod_full_out_at,
        terminal_checked_at: c.terminal_checked_at,
        pod_full_out_chassis_number: c.pod_full_out_chassis_number,
        location_at_pod_terminal: c.location_at_pod_terminal,
        pickup_number: c.pickup_number,
        final_destination_full_out_at: c.final_destination_full_out_at,
        empty_terminated_at: c.empty_terminated_at,
        holds_at_pod_terminal: JSON.parse(c.holds_at_pod_terminal) as unknown,
        fees_at_pod_terminal: JSON.parse(c.fees_at_pod_terminal) as unknown,
        pod_timezone: c.pod_timezone,
        final_destination_timezone: c.final_destination_timezone,
        empty_terminated_timezone: c.empty_terminated_timezone,
        pod_rail_carrier_scac: c.pod_rail_carrier_scac,
        ind_rail_carrier_scac: c.ind_rail_carrier_scac,
        pod_last_tracking_request_at: c.pod_last_tracking_request_at,
        shipment_last_tracking_request_at: c.shipment_last_tracking_request_at,
        pod_rail_loaded_at: c.pod_rail_loaded_at,
        pod_rail_departed_at: c.pod_rail_departed_at,
        ind_eta_at: c.ind_eta_at,
        ind_ata_at: c.ind_ata_at,
        ind_rail_unloaded_at: c.ind_rail_unloaded_at,
        ind_facility_lfd_on: c.pickup_lfd_rail,
        // The inland facility's holds and fees, and when the rail carrier was last asked: no
        // feed Quayside reads reports them.
        ind_facility_holds: null,
        ind_facility_fees: null,
        rail_last_tracking_request_at: null,
        // The steamship line's last free day (its own deadline, whichever one binds).
        ssl_lfd: c.pickup_lfd_line,
        import_deadlines: deadlines,
        current_status: c.current_status,
      },
      relationships: {
        shipment: one('shipment', c.shipment_id),
        pickup_facility: one('terminal', c.pickup_facility_id),
        pod_terminal: one('terminal', c.pod_terminal_id),
        transport_events: many('transport_event', eventIds),
        raw_events: many('raw_event', rawIds),
        // The dray carrier the box is assigned to (a Quayside extension).
        trucker: one('party', c.trucker_id),
      },
      links: { self: `${API_PREFIX}/containers/${c.id}` },
    };
  }

  transportEvent(e: TransportEventsTable): Resource {
    return {
      id: e.id,
      type: 'transport_event',
      attributes: {
        event: e.event,
        voyage_number: e.voyage_number,
        timestamp: e.timestamp,
        timezone: e.timezone,
        location_locode: e.location_locode,
        // A Quayside extension: the source's name of a place outside the reference data.
        location_name: e.location_name,
        created_at: e.created_at,
        data_source: e.data_source,
        // When a later report withdrew the event; Quayside keeps a milestone once seen.
        invalidated_at: null,
      },
      relationships: {
        shipment: one('shipment', e.shipment_id),
        container: one('container', e.container_id),
        location: one(e.location_type ?? 'port', e.location_id),
        vessel: one('vessel', e.vessel_id),
        terminal: one(e.terminal_type ?? 'terminal', e.terminal_id),
      },
    };
  }

  rawEvent(e: RawEventsTable): Resource {
    const day = e.timestamp.slice(0, 10);
    const estimated = e.estimated === 1;
    return {
      id: e.id,
      type: 'raw_event',
      attributes: {
        event: e.event,
        original_event: e.original_event,
        timestamp: e.timestamp,
        estimated,
        actual_on: estimated ? null : day,
        estimated_on: estimated ? day : null,
        actual_at: estimated ? null : e.timestamp,
        estimated_at: estimated ? e.timestamp : null,
        timezone: e.timezone,
        created_at: e.created_at,
        ...(e.location_name != null ? { location_name: e.location_name } : {}),
        location_locode: e.location_locode,
        vessel_name: e.vessel_name,
        vessel_imo: e.vessel_imo,
        index: e.event_index,
        voyage_number: e.voyage_number,
        // Raw events are the line's own milestones.
        data_source: 'shipping_line',
      },
      relationships: {
        location: one(e.location_type ?? 'port', e.location_id),
        vessel: one('vessel', e.vessel_id),
      },
    };
  }
}
