/**
 * Write side of the tracking data: what the tracking engine (and tests, and seed scripts) call
 * to record shipments, containers, transport and raw events, and tracking request outcomes.
 * Inputs use natural keys (UN/LOCODE, FIRMS code, IMO) and are resolved against the reference
 * data here, so callers never handle reference ids.
 */
import type { Kysely, Transaction } from 'kysely';
import { v4 as uuidv4 } from 'uuid';
import type { Clock } from '../../shared/clock';
import type {
  ContainerStatus,
  ImportDeadlines,
  LineTrackingStoppedReason,
  RawEventName,
  RequestType,
  TerminalFee,
  TerminalHold,
  TrackingRequestFailedReason,
  TrackingRequestStatus,
  TransportEventName,
} from '../../shared/api/resources';
import { storeKindOf } from './dialect';
import type { ReferenceData } from './reference';
import { referenceId } from './reference';
import type { StagedCustomFieldValue } from './custom-fields';
import type {
  ContainersTable,
  Database,
  RawEventsTable,
  ShipmentsTable,
  TrackingRequestsTable,
  TransportEventsTable,
} from './schema';

export interface NewTrackingRequest {
  requestType: RequestType;
  requestNumber: string;
  scac: string;
  refNumbers?: string[];
  shipmentTags?: string[];
  /** The party the request is tracked for. */
  customerId?: string | null;
  /** Custom field values to set on what the request creates, already checked. */
  initialCustomFields?: StagedCustomFieldValue[];
}

export interface ShipmentInput {
  billOfLadingNumber: string;
  normalizedNumber?: string;
  scac: string;
  refNumbers?: string[];
  tags?: string[];
  customerName?: string | null;
  portOfLadingLocode?: string | null;
  portOfDischargeLocode?: string | null;
  /** A port or metro area UN/LOCODE. */
  destinationLocode?: string | null;
  podTerminalFirmsCode?: string | null;
  /** A marine or rail terminal FIRMS code. */
  destinationTerminalFirmsCode?: string | null;
  podVesselImo?: string | null;
  podVesselName?: string | null;
  podVoyageNumber?: string | null;
  polEtdAt?: string | null;
  polAtdAt?: string | null;
  podEtaAt?: string | null;
  podOriginalEtaAt?: string | null;
  podAtaAt?: string | null;
  destinationEtaAt?: string | null;
  destinationAtaAt?: string | null;
  lineTrackingLastAttemptedAt?: string | null;
  lineTrackingLastSucceededAt?: string | null;
}

export interface ContainerInput {
  number: string;
  refNumbers?: string[];
  equipmentType?: ContainersTable['equipment_type'];
  equipmentLength?: number | null;
  equipmentHeight?: string | null;
  weightInLbs?: number | null;
  sealNumber?: string | null;
  currentStatus?: ContainerStatus;
  podTerminalFirmsCode?: string | null;
  pickupFacilityFirmsCode?: string | null;
  availabilityKnown?: boolean;
  availableForPickup?: boolean | null;
  holds?: TerminalHold[];
  fees?: TerminalFee[];
  importDeadlines?: Partial<ImportDeadlines>;
  podArrivedAt?: string | null;
  podDischargedAt?: string | null;
  podFullOutAt?: string | null;
  pickupAppointmentAt?: string | null;
  terminalCheckedAt?: string | null;
  podFullOutChassisNumber?: string | null;
  locationAtPodTerminal?: string | null;
  finalDestinationFullOutAt?: string | null;
  emptyTerminatedAt?: string | null;
  podTimezone?: string | null;
  finalDestinationTimezone?: string | null;
  emptyTerminatedTimezone?: string | null;
  podRailCarrierScac?: string | null;
  indRailCarrierScac?: string | null;
  podRailLoadedAt?: string | null;
  podRailDepartedAt?: string | null;
  indEtaAt?: string | null;
  indAtaAt?: string | null;
  indRailUnloadedAt?: string | null;
  podLastTrackingRequestAt?: string | null;
  shipmentLastTrackingRequestAt?: string | null;
}

export interface TransportEventInput {
  event: TransportEventName;
  dataSource: 'shipping_line' | 'terminal' | 'ais';
  timestamp?: string | null;
  voyageNumber?: string | null;
  /** Port or metro area UN/LOCODE; the event's time zone defaults to the location's. */
  locationLocode?: string | null;
  /** The source's own name of a place outside the reference data. */
  locationName?: string | null;
  timezone?: string | null;
  vesselImo?: string | null;
  /** Marine or rail terminal FIRMS code. */
  terminalFirmsCode?: string | null;
}

export interface RawEventInput {
  event: RawEventName | null;
  originalEvent: string;
  timestamp: string;
  estimated: boolean;
  timezone?: string | null;
  locationName?: string | null;
  locationLocode?: string | null;
  vesselName?: string | null;
  vesselImo?: string | null;
  voyageNumber?: string | null;
}

/** Thrown when an input names an id or code that does not exist (a caller bug, not user input). */
export class StoreInputError extends Error {}

const json = (value: unknown) => JSON.stringify(value ?? []);

export class TrackingStore {
  constructor(
    private readonly db: Kysely<Database> | Transaction<Database>,
    private readonly ref: ReferenceData,
    private readonly clock: Clock,
  ) {}

  private nowIso(): string {
    return new Date(this.clock.now()).toISOString();
  }

  // --- tracking requests ----------------------------------------------------------------------

  async createTrackingRequest(
    accountId: string,
    input: NewTrackingRequest,
  ): Promise<TrackingRequestsTable> {
    const now = this.nowIso();
    const row: TrackingRequestsTable = {
      id: uuidv4(),
      account_id: accountId,
      request_number: input.requestNumber,
      request_type: input.requestType,
      scac: input.scac,
      status: 'pending',
      failed_reason: null,
      ref_numbers: json(input.refNumbers),
      tags: json([]),
      shipment_tags: json(input.shipmentTags),
      is_retrying: 0,
      retry_count: null,
      shipment_id: null,
      created_at: now,
      updated_at: now,
      ...(input.customerId ? { customer_id: input.customerId } : {}),
      ...(input.initialCustomFields?.length
        ? { initial_custom_fields: json(input.initialCustomFields) }
        : {}),
    };
    await this.db.insertInto('tracking_requests').values(row).execute();
    return row;
  }

  /** Tracking requests of every account by status (the operator's metrics). */
  async countTrackingRequestsByStatus(): Promise<Record<string, number>> {
    const rows = await this.db
      .selectFrom('tracking_requests')
      .select((eb) => ['status', eb.fn.countAll<number>().as('count')])
      .groupBy('status')
      .execute();
    return Object.fromEntries(rows.map((r) => [r.status, Number(r.count)]));
  }

  /** Whether the account ever asked to track anything (a demo account is seeded once). */
  async hasTrackingRequests(accountId: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('tracking_requests')
      .select('id')
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** A pending or created request of the account for the same number and line, if any. */
  async findActiveDuplicate(
    accountId: string,
    requestNumber: string,
    scac: string,
  ): Promise<TrackingRequestsTable | undefined> {
    return this.db
      .selectFrom('tracking_requests')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('request_number', '=', requestNumber)
      .where('scac', '=', scac)
      .where('status', 'in', ['pending', 'created', 'awaiting_manifest'])
      .executeTakeFirst();
  }

  async updateTrackingRequest(
    accountId: string,
    id: string,
    changes: { refNumbers?: string[]; tags?: string[] },
  ): Promise<boolean> {
    const set: Partial<TrackingRequestsTable> = { updated_at: this.nowIso() };
    if (changes.refNumbers) set.ref_numbers = json(changes.refNumbers);
    if (changes.tags) set.tags = json(changes.tags);
    const res = await this.db
      .updateTable('tracking_requests')
      .set(set)
      .where('id', '=', id)
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) > 0;
  }

  /** Moves a tracking request on (the tracking engine's call). */
  async setTrackingRequestStatus(
    id: string,
    status: TrackingRequestStatus,
    options: {
      failedReason?: TrackingRequestFailedReason | null;
      shipmentId?: string | null;
      isRetrying?: boolean;
      retryCount?: number | null;
    } = {},
  ): Promise<void> {
    const set: Partial<TrackingRequestsTable> = { status, updated_at: this.nowIso() };
    if (options.failedReason !== undefined) set.failed_reason = options.failedReason;
    else if (status !== 'failed') set.failed_reason = null;
    if (options.shipmentId !== undefined) set.shipment_id = options.shipmentId;
    if (options.isRetrying !== undefined) set.is_retrying = options.isRetrying ? 1 : 0;
    if (options.retryCount !== undefined) set.retry_count = options.retryCount;
    await this.db.updateTable('tracking_requests').set(set).where('id', '=', id).execute();
  }

  // --- shipments ------------------------------------------------------------------------------

  private portId(locode: string | null | undefined): string | null {
    if (!locode) return null;
    const port = this.ref.portsByLocode.get(locode);
    if (!port) throw new StoreInputError(`unknown port ${locode}`);
    return port.id;
  }

  /**
   * The reference record of a place; null for a UN/LOCODE outside the reference data (an
   * inland depot, a rail ramp), which is stored by its code and the source's name for it.
   */
  private location(locode: string | null | undefined): { id: string; type: string } | null {
    if (!locode) return null;
    const port = this.ref.portsByLocode.get(locode);
    if (port) return { id: port.id, type: 'port' };
    const metro = this.ref.metrosByLocode.get(locode);
    if (metro) return { id: metro.id, type: 'metro_area' };
    if (!/^[A-Z]{2}[A-Z2-9]{3}$/.test(locode))
      throw new StoreInputError(`not a UN/LOCODE: ${locode}`);
    return null;
  }

  private terminalId(firms: string | null | undefined): string | null {
    if (!firms) return null;
    const t = this.ref.terminalsByFirms.get(firms);
    if (!t) throw new StoreInputError(`unknown terminal ${firms}`);
    return t.id;
  }

  private anyTerminal(firms: string | null | undefined): { id: string; type: string } | null {
    if (!firms) return null;
    const t = this.ref.terminalsByFirms.get(firms);
    if (t) return { id: t.id, type: 'terminal' };
    const r = this.ref.railTerminalsByFirms.get(firms);
    if (r) return { id: r.id, type: 'rail_terminal' };
    throw new StoreInputError(`unknown terminal ${firms}`);
  }

  private shipmentColumns(input: Partial<ShipmentInput>): Partial<ShipmentsTable> {
    const out: Partial<ShipmentsTable> = {};
    const has = (k: keyof ShipmentInput) => input[k] !== undefined;
    if (has('billOfLadingNumber')) out.bill_of_lading_number = input.billOfLadingNumber!;
    if (has('normalizedNumber')) out.normalized_number = input.normalizedNumber!;
    if (has('scac')) out.scac = input.scac!;
    if (has('refNumbers')) out.ref_numbers = json(input.refNumbers);
    if (has('tags')) out.tags = json(input.tags);
    if (has('customerName')) out.customer_name = input.customerName ?? null;
    if (has('portOfLadingLocode')) out.port_of_lading_id = this.portId(input.portOfLadingLocode);
    if (has('portOfDischargeLocode'))
      out.port_of_discharge_id = this.portId(input.portOfDischargeLocode);
    if (has('destinationLocode')) {
      const loc = this.location(input.destinationLocode);
      out.destination_id = loc?.id ?? null;
      out.destination_type = loc?.type ?? null;
    }
    if (has('podTerminalFirmsCode'))
      out.pod_terminal_id = this.terminalId(input.podTerminalFirmsCode);
    if (has('destinationTerminalFirmsCode')) {
      const t = this.anyTerminal(input.destinationTerminalFirmsCode);
      out.destination_terminal_id = t?.id ?? null;
      out.destination_terminal_type = t?.type ?? null;
    }
    if (has('podVesselImo')) {
      out.pod_vessel_imo = input.podVesselImo ?? null;
      out.pod_vessel_id = input.podVesselImo ? referenceId('vessel', input.podVesselImo) : null;
    }
    const direct: [keyof ShipmentInput, keyof ShipmentsTable][] = [
      ['podVesselName', 'pod_vessel_name'],
      ['podVoyageNumber', 'pod_voyage_number'],
      ['polEtdAt', 'pol_etd_at'],
      ['polAtdAt', 'pol_atd_at'],
      ['podEtaAt', 'pod_eta_at'],
      ['podOriginalEtaAt', 'pod_original_eta_at'],
      ['podAtaAt', 'pod_ata_at'],
      ['destinationEtaAt', 'destination_eta_at'],
      ['destinationAtaAt', 'destination_ata_at'],
      ['lineTrackingLastAttemptedAt', 'line_tracking_last_attempted_at'],
      ['lineTrackingLastSucceededAt', 'line_tracking_last_succeeded_at'],
    ];
    for (const [from, to] of direct) {
      if (has(from)) (out as Record<string, unknown>)[to] = input[from] ?? null;
    }
    return out;
  }

  async createShipment(accountId: string, input: ShipmentInput): Promise<ShipmentsTable> {
    const now = this.nowIso();
    const row: ShipmentsTable = {
      id: uuidv4(),
      account_id: accountId,
      bill_of_lading_number: input.billOfLadingNumber,
      normalized_number: input.normalizedNumber ?? input.billOfLadingNumber,
      scac: input.scac,
      ref_numbers: '[]',
      tags: '[]',
      customer_name: null,
      port_of_lading_id: null,
      port_of_discharge_id: null,
      destination_id: null,
      destination_type: null,
      pod_terminal_id: null,
      destination_terminal_id: null,
      destination_terminal_type: null,
      pod_vessel_id: null,
      pod_vessel_name: null,
      pod_vessel_imo: null,
      pod_voyage_number: null,
      pol_etd_at: null,
      pol_atd_at: null,
      pod_eta_at: null,
      pod_original_eta_at: null,
      pol_original_etd_at: null,
      destination_original_eta_at: null,
      pod_ata_at: null,
      destination_eta_at: null,
      destination_ata_at: null,
      line_tracking_last_attempted_at: null,
      line_tracking_last_succeeded_at: null,
      line_tracking_stopped_at: null,
      line_tracking_stopped_reason: null,
      ...this.shipmentColumns(input),
      created_at: now,
      updated_at: now,
    };
    await this.db.insertInto('shipments').values(row).execute();
    return row;
  }

  /** Stops (reason given) or resumes (reason null) line tracking; scoped to the account. */
  async setLineTracking(
    accountId: string,
    shipmentId: string,
    reason: LineTrackingStoppedReason | null,
  ): Promise<boolean> {
    const now = this.nowIso();
    const res = await this.db
      .updateTable('shipments')
      .set({
        line_tracking_stopped_at: reason ? now : null,
        line_tracking_stopped_reason: reason,
        updated_at: now,
      })
      .where('id', '=', shipmentId)
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) > 0;
  }

  // --- containers -----------------------------------------------------------------------------

  private containerColumns(input: Partial<ContainerInput>): Partial<ContainersTable> {
    const out: Record<string, unknown> = {};
    const has = (k: keyof ContainerInput) => input[k] !== undefined;
    if (has('number')) out.number = input.number;
    if (has('refNumbers')) out.ref_numbers = json(input.refNumbers);
    if (has('currentStatus')) out.current_status = input.currentStatus;
    if (has('podTerminalFirmsCode'))
      out.pod_terminal_id = this.terminalId(input.podTerminalFirmsCode);
    if (has('pickupFacilityFirmsCode'))
      out.pickup_facility_id = this.terminalId(input.pickupFacilityFirmsCode);
    if (has('availabilityKnown')) out.availability_known = input.availabilityKnown ? 1 : 0;
    if (has('availableForPickup'))
      out.available_for_pickup =
        input.availableForPickup == null ? null : input.availableForPickup ? 1 : 0;
    if (has('holds')) out.holds_at_pod_terminal = json(input.holds);
    if (has('fees')) out.fees_at_pod_terminal = json(input.fees);
    if (input.importDeadlines) {
      const d = input.importDeadlines;
      if (d.pickup_lfd_terminal !== undefined) out.pickup_lfd_terminal = d.pickup_lfd_terminal;
      if (d.pickup_lfd_rail !== undefined) out.pickup_lfd_rail = d.pickup_lfd_rail;
      if (d.pickup_lfd_line !== undefined) out.pickup_lfd_line = d.pickup_lfd_line;
    }
    const direct: [keyof ContainerInput, keyof ContainersTable][] = [
      ['equipmentType', 'equipment_type'],
      ['equipmentLength', 'equipment_length'],
      ['equipmentHeight', 'equipment_height'],
      ['weightInLbs', 'weight_in_lbs'],
      ['sealNumber', 'seal_number'],
      ['podArrivedAt', 'pod_arrived_at'],
      ['podDischargedAt', 'pod_discharged_at'],
      ['podFullOutAt', 'pod_full_out_at'],
      ['pickupAppointmentAt', 'pickup_appointment_at'],
      ['terminalCheckedAt', 'terminal_checked_at'],
      ['podFullOutChassisNumber', 'pod_full_out_chassis_number'],
      ['locationAtPodTerminal', 'location_at_pod_terminal'],
      ['finalDestinationFullOutAt', 'final_destination_full_out_at'],
      ['emptyTerminatedAt', 'empty_terminated_at'],
      ['podTimezone', 'pod_timezone'],
      ['finalDestinationTimezone', 'final_destination_timezone'],
      ['emptyTerminatedTimezone', 'empty_terminated_timezone'],
      ['podRailCarrierScac', 'pod_rail_carrier_scac'],
      ['indRailCarrierScac', 'ind_rail_carrier_scac'],
      ['podRailLoadedAt', 'pod_rail_loaded_at'],
      ['podRailDepartedAt', 'pod_rail_departed_at'],
      ['indEtaAt', 'ind_eta_at'],
      ['indAtaAt', 'ind_ata_at'],
      ['indRailUnloadedAt', 'ind_rail_unloaded_at'],
      ['podLastTrackingRequestAt', 'pod_last_tracking_request_at'],
      ['shipmentLastTrackingRequestAt', 'shipment_last_tracking_request_at'],
    ];
    for (const [from, to] of direct) if (has(from)) out[to] = input[from] ?? null;
    return out as Partial<ContainersTable>;
  }

  async createContainer(
    accountId: string,
    shipmentId: string,
    input: ContainerInput,
  ): Promise<ContainersTable> {
    const shipment = await this.db
      .selectFrom('shipments')
      .select('id')
      .where('id', '=', shipmentId)
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    if (!shipment) throw new StoreInputError(`no shipment ${shipmentId} in this account`);
    const now = this.nowIso();
    const base: ContainersTable = {
      id: uuidv4(),
      account_id: accountId,
      shipment_id: shipmentId,
      number: input.number,
      ref_numbers: '[]',
      equipment_type: null,
      equipment_length: null,
      equipment_height: null,
      weight_in_lbs: null,
      seal_number: null,
      pickup_appointment_at: null,
      availability_known: 0,
      available_for_pickup: null,
      pod_arrived_at: null,
      empty_out_at: null,
      pol_full_in_at: null,
      pol_vessel_loaded_at: null,
      pol_vessel_departed_at: null,
      pod_discharged_at: null,
      pod_full_out_at: null,
      terminal_checked_at: null,
      pod_full_out_chassis_number: null,
      location_at_pod_terminal: null,
      pickup_number: null,
      final_destination_full_out_at: null,
      empty_terminated_at: null,
      holds_at_pod_terminal: '[]',
      fees_at_pod_terminal: '[]',
      pod_timezone: null,
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
      pickup_lfd_terminal: null,
      pickup_lfd_rail: null,
      pickup_lfd_line: null,
      current_status: 'new',
      pod_terminal_id: null,
      pickup_facility_id: null,
      trucker_id: null,
      created_at: now,
      updated_at: now,
    };
    const row = { ...base, ...this.containerColumns(input), created_at: now, updated_at: now };
    await this.db.insertInto('containers').values(row).execute();
    // The shipment renders its container ids: rewriting its row unchanged gives it a new row
    // version (row-versions.ts), so no instance keeps serving the shipment without this box.
    await this.db
      .updateTable('shipments')
      .set((eb) => ({ updated_at: eb.ref('updated_at') }))
      .where('id', '=', shipmentId)
      .execute();
    return row;
  }

  // --- events ---------------------------------------------------------------------------------

  /** True when the container already has this event stamped at this instant. */
  async hasTransportEventAt(
    containerId: string,
    event: string,
    timestamp: string,
  ): Promise<boolean> {
    const row = await this.db
      .selectFrom('transport_events')
      .select('id')
      .where('container_id', '=', containerId)
      .where('event', '=', event as TransportEventName)
      .where('timestamp', '=', timestamp)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** When and where (UN/LOCODE) each of the container's events of these kinds happened. */
  async eventTimesAndPlaces(
    containerId: string,
    events: readonly string[],
  ): Promise<{ timestamp: string | null; location_locode: string | null }[]> {
    if (events.length === 0) return [];
    return this.db
      .selectFrom('transport_events')
      .select(['timestamp', 'location_locode'])
      .where('container_id', '=', containerId)
      .where('event', 'in', events as TransportEventName[])
      .execute();
  }

  async addTransportEvent(
    containerId: string,
    input: TransportEventInput,
  ): Promise<TransportEventsTable> {
    const container = await this.db
      .selectFrom('containers')
      .select(['account_id', 'shipment_id'])
      .where('id', '=', containerId)
      .executeTakeFirst();
    if (!container) throw new StoreInputError(`no container ${containerId}`);
    const loc = this.location(input.locationLocode);
    const zone =
      input.timezone !== undefined
        ? input.timezone
        : input.locationLocode
          ? (this.ref.portsByLocode.get(input.locationLocode)?.time_zone ??
            this.ref.metrosByLocode.get(input.locationLocode)?.time_zone ??
            null)
          : null;
    const terminal = this.anyTerminal(input.terminalFirmsCode);
    const row: TransportEventsTable = {
      id: uuidv4(),
      account_id: container.account_id,
      container_id: containerId,
      shipment_id: container.shipment_id,
      event: input.event,
      voyage_number: input.voyageNumber ?? null,
      timestamp: input.timestamp ?? null,
      timezone: zone,
      location_locode: input.locationLocode ?? null,
      // A known place is named by its record; the source's name is kept for any other.
      location_name: loc ? null : (input.locationName ?? null),
      location_id: loc?.id ?? null,
      location_type: loc?.type ?? null,
      vessel_id: input.vesselImo ? referenceId('vessel', input.vesselImo) : null,
      terminal_id: terminal?.id ?? null,
      terminal_type: terminal?.type ?? null,
      data_source: input.dataSource,
      created_at: this.nowIso(),
    };
    // A new event changes the container and its shipment: bump both, so incremental syncs
    // (filter[updated_at][start]) see it.
    const insert = async (db: Kysely<Database>) => {
      await db.insertInto('transport_events').values(row).execute();
      await db
        .updateTable('containers')
        .set({ updated_at: row.created_at })
        .where('id', '=', containerId)
        .execute();
      await db
        .updateTable('shipments')
        .set({ updated_at: row.created_at })
        .where('id', '=', container.shipment_id)
        .execute();
    };
    if (this.db.isTransaction) await insert(this.db);
    else await this.db.transaction().execute(insert);
    return row;
  }

  /** Replaces the container's raw (carrier) milestones with the latest full list from the line. */
  async replaceRawEvents(containerId: string, events: RawEventInput[]): Promise<RawEventsTable[]> {
    const container = await this.db
      .selectFrom('containers')
      .select(['account_id'])
      .where('id', '=', containerId)
      .executeTakeFirst();
    if (!container) throw new StoreInputError(`no container ${containerId}`);
    const now = this.nowIso();
    const rows: RawEventsTable[] = events.map((e, index) => {
      const loc = e.locationLocode ? this.location(e.locationLocode) : null;
      return {
        id: uuidv4(),
        account_id: container.account_id,
        container_id: containerId,
        event: e.event,
        original_event: e.originalEvent,
        timestamp: e.timestamp,
        estimated: e.estimated ? 1 : 0,
        timezone: e.timezone ?? null,
        location_name: e.locationName ?? null,
        location_locode: e.locationLocode ?? null,
        location_id: loc?.id ?? null,
        location_type: loc?.type ?? null,
        vessel_name: e.vesselName ?? null,
        vessel_imo: e.vesselImo ?? null,
        vessel_id: e.vesselImo ? referenceId('vessel', e.vesselImo) : null,
        event_index: index,
        voyage_number: e.voyageNumber ?? null,
        created_at: now,
      };
    });
    // The container shows its raw events (relationship ids): bump its updated_at with them, so
    // incremental syncs and renderings cached by updated_at see the change.
    const replace = async (db: Kysely<Database>) => {
      await db.deleteFrom('raw_events').where('container_id', '=', containerId).execute();
      if (rows.length) await db.insertInto('raw_events').values(rows).execute();
      await db
        .updateTable('containers')
        .set({ updated_at: now })
        .where('id', '=', containerId)
        .execute();
    };
    // Already inside the caller's transaction, or in one of its own.
    if (this.db.isTransaction) await replace(this.db);
    else await this.db.transaction().execute(replace);
    return rows;
  }

  // --- the tracking engine's work -------------------------------------------------------------

  /** Requests whose next lookup is due at `nowIso`, oldest first. */
  async dueTrackingRequests(nowIso: string, limit: number): Promise<TrackingRequestsTable[]> {
    return this.db
      .selectFrom('tracking_requests')
      .selectAll()
      .where('status', 'in', ['pending', 'awaiting_manifest'])
      .where((eb) =>
        eb.or([eb('next_attempt_at', 'is', null), eb('next_attempt_at', '<=', nowIso)]),
      )
      .orderBy('created_at')
      .limit(limit)
      .execute();
  }

  /** Tracked shipments (not of `excludeScac`) whose line check is due at `nowIso`. */
  async lineChecksDue(nowIso: string, limit: number, excludeScac: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('shipments')
      .select('id')
      .where('line_tracking_stopped_at', 'is', null)
      .where('scac', '!=', excludeScac)
      .where((eb) =>
        eb.or([eb('next_line_check_at', 'is', null), eb('next_line_check_at', '<=', nowIso)]),
      )
      // Never-checked shipments first (SQLite's default for NULL; PostgreSQL's is last).
      .orderBy('next_line_check_at', (ob) => ob.asc().nullsFirst())
      .limit(limit)
      .execute();
    return rows.map((r) => r.id);
  }

  /** Tracked shipments arrived or due by `soonIso` whose terminal check is due at `nowIso`. */
  async terminalChecksDue(
    nowIso: string,
    soonIso: string,
    limit: number,
    excludeScac: string,
  ): Promise<string[]> {
    const rows = await this.db
      .selectFrom('shipments')
      .select('id')
      .where('line_tracking_stopped_at', 'is', null)
      .where('scac', '!=', excludeScac)
      .where((eb) => eb.or([eb('pod_ata_at', 'is not', null), eb('pod_eta_at', '<=', soonIso)]))
      .where((eb) =>
        eb.or([
          eb('next_terminal_check_at', 'is', null),
          eb('next_terminal_check_at', '<=', nowIso),
        ]),
      )
      .limit(limit)
      .execute();
    return rows.map((r) => r.id);
  }

  async trackingRequest(id: string): Promise<TrackingRequestsTable | undefined> {
    return this.db
      .selectFrom('tracking_requests')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
  }

  /** The first request that created the shipment. */
  async trackingRequestOfShipment(shipmentId: string): Promise<TrackingRequestsTable | undefined> {
    return this.db
      .selectFrom('tracking_requests')
      .selectAll()
      .where('shipment_id', '=', shipmentId)
      .orderBy('created_at')
      .executeTakeFirst();
  }

  /**
   * Records a request's outcome (created, failed or awaiting the manifest), only if the request
   * is still as it was read (`readAt`, its updated_at then): false when another instance got
   * there first, and the caller's transaction should then be undone.
   */
  async finishTrackingRequest(
    id: string,
    outcome: {
      status: 'created' | 'failed' | 'awaiting_manifest';
      failedReason: TrackingRequestFailedReason | null;
      shipmentId: string | null;
      nextAttemptAt: string | null;
      retryCount?: number;
      updatedAt: string;
    },
    readAt?: string,
  ): Promise<boolean> {
    let update = this.db
      .updateTable('tracking_requests')
      .set({
        status: outcome.status,
        failed_reason: outcome.failedReason,
        is_retrying: 0,
        shipment_id: outcome.shipmentId,
        next_attempt_at: outcome.nextAttemptAt,
        updated_at: outcome.updatedAt,
        ...(outcome.retryCount !== undefined ? { retry_count: outcome.retryCount } : {}),
      })
      .where('id', '=', id);
    if (readAt !== undefined) update = update.where('updated_at', '=', readAt);
    const result = await update.executeTakeFirst();
    const finished = Number(result.numUpdatedRows) > 0;
    if (finished && outcome.shipmentId) await this.adoptRequestCustomer(id, outcome.shipmentId);
    return finished;
  }

  /** The shipment a request found is for the request's customer (its party), if it names one. */
  private async adoptRequestCustomer(requestId: string, shipmentId: string): Promise<void> {
    const party = await this.db
      .selectFrom('tracking_requests')
      .innerJoin('parties', 'parties.id', 'tracking_requests.customer_id')
      .select(['parties.id', 'parties.company_name'])
      .where('tracking_requests.id', '=', requestId)
      .executeTakeFirst();
    if (!party) return;
    await this.db
      .updateTable('shipments')
      .set({ customer_id: party.id, customer_name: party.company_name })
      .where('id', '=', shipmentId)
      .where('customer_id', 'is', null)
      .execute();
  }

  /** Schedules another lookup of a request after a transient failure. */
  async scheduleRetry(
    id: string,
    retry: { retryCount: number; reason: TrackingRequestFailedReason; nextAttemptAt: string },
  ): Promise<void> {
    await this.db
      .updateTable('tracking_requests')
      .set({
        is_retrying: 1,
        retry_count: retry.retryCount,
        failed_reason: retry.reason,
        next_attempt_at: retry.nextAttemptAt,
        updated_at: this.nowIso(),
      })
      .where('id', '=', id)
      .execute();
  }

  /** True when the account already tracks the request's number on a shipment not stopped. */
  async isTrackedElsewhere(request: TrackingRequestsTable): Promise<boolean> {
    if (request.request_type === 'container') {
      const row = await this.db
        .selectFrom('containers')
        .innerJoin('shipments', 'shipments.id', 'containers.shipment_id')
        .select('containers.id')
        .where('containers.account_id', '=', request.account_id)
        .where('containers.number', '=', request.request_number)
        .where('shipments.line_tracking_stopped_at', 'is', null)
        .executeTakeFirst();
      return row !== undefined;
    }
    const row = await this.db
      .selectFrom('shipments')
      .select('id')
      .where('account_id', '=', request.account_id)
      .where('scac', '=', request.scac)
      .where((eb) =>
        eb.or([
          eb('normalized_number', '=', request.request_number),
          eb('bill_of_lading_number', '=', request.request_number),
        ]),
      )
      .where('line_tracking_stopped_at', 'is', null)
      .executeTakeFirst();
    return row !== undefined;
  }

  async shipment(id: string): Promise<ShipmentsTable | undefined> {
    return this.db.selectFrom('shipments').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async containersOfShipment(shipmentId: string): Promise<ContainersTable[]> {
    return this.db
      .selectFrom('containers')
      .selectAll()
      .where('shipment_id', '=', shipmentId)
      .execute();
  }

  /** Engine bookkeeping columns of a shipment: check schedule and line fact timestamps. */
  async setShipmentSchedule(
    id: string,
    changes: Partial<
      Pick<
        ShipmentsTable,
        | 'next_line_check_at'
        | 'next_terminal_check_at'
        | 'line_changed_at'
        | 'line_tracking_last_attempted_at'
      >
    >,
  ): Promise<void> {
    await this.db.updateTable('shipments').set(changes).where('id', '=', id).execute();
  }

  /** Writes the shipment facts a line answer derived (see tracking/apply.ts). */
  async applyShipmentChanges(id: string, changes: Partial<ShipmentsTable>): Promise<void> {
    await this.db.updateTable('shipments').set(changes).where('id', '=', id).execute();
  }

  /**
   * Inside a transaction on PostgreSQL, holds the shipment's row until commit, so that changes
   * to one shipment and its containers (a line check, a terminal check, a push, on this instance
   * or another) run one after the other, each reading what the previous one wrote. Taken first,
   * before any read of the shipment or its containers. (SQLite runs one write transaction at a
   * time.)
   */
  async lockShipment(shipmentId: string): Promise<void> {
    if (!this.db.isTransaction || storeKindOf(this.db) !== 'postgres') return;
    await this.db
      .selectFrom('shipments')
      .select('id')
      .where('id', '=', shipmentId)
      .forUpdate()
      .execute();
  }

  /** Writes the container columns a feed answer derived (see tracking/apply.ts). */
  async applyContainerChanges(id: string, changes: Partial<ContainersTable>): Promise<void> {
    await this.db.updateTable('containers').set(changes).where('id', '=', id).execute();
  }

  /** Milestones already stored for a container (event name and location). */
  async storedMilestones(
    containerId: string,
  ): Promise<{ event: string; location_locode: string | null }[]> {
    // Inside an apply transaction on PostgreSQL, another instance may be applying to the same
    // container: hold its row until commit, so the second apply sees the first one's events
    // instead of adding them again. (SQLite runs one write transaction at a time.)
    if (this.db.isTransaction && storeKindOf(this.db) === 'postgres') {
      await this.db
        .selectFrom('containers')
        .select('id')
        .where('id', '=', containerId)
        .forUpdate()
        .execute();
    }
    return this.db
      .selectFrom('transport_events')
      .select(['event', 'location_locode'])
      .where('container_id', '=', containerId)
      .execute();
  }

  /** A container's stored raw events, in feed order. */
  async storedRawEvents(containerId: string) {
    return this.db
      .selectFrom('raw_events')
      .select([
        'event',
        'original_event',
        'timestamp',
        'estimated',
        'location_locode',
        'location_name',
        'vessel_name',
        'vessel_imo',
        'voyage_number',
      ])
      .where('container_id', '=', containerId)
      .orderBy('event_index')
      .execute();
  }

  /** Stops line tracking of a shipment and marks its created requests `tracking_stopped`. */
  async stopLineTracking(
    shipmentId: string,
    reason: LineTrackingStoppedReason,
    nowIso: string,
  ): Promise<void> {
    await this.db
      .updateTable('shipments')
      .set({
        line_tracking_stopped_at: nowIso,
        line_tracking_stopped_reason: reason,
        updated_at: nowIso,
      })
      .where('id', '=', shipmentId)
      .execute();
    await this.db
      .updateTable('tracking_requests')
      .set({ status: 'tracking_stopped', updated_at: nowIso })
      .where('shipment_id', '=', shipmentId)
      .where('status', '=', 'created')
      .execute();
  }

  /**
   * Keeps request status in step with stop/resume done through the API: a stopped shipment's
   * requests become `tracking_stopped`, a resumed one's `created` again, and a resumed shipment
   * starts a fresh no-updates window and is checked now.
   */
  async syncStoppedRequests(nowIso: string): Promise<void> {
    await this.db
      .updateTable('tracking_requests')
      .set({ status: 'tracking_stopped', updated_at: nowIso })
      .where('status', '=', 'created')
      .where('shipment_id', 'in', (eb) =>
        eb.selectFrom('shipments').select('id').where('line_tracking_stopped_at', 'is not', null),
      )
      .execute();
    const resumed = await this.db
      .selectFrom('tracking_requests')
      .innerJoin('shipments', 'shipments.id', 'tracking_requests.shipment_id')
      .select(['tracking_requests.id as requestId', 'shipments.id as shipmentId'])
      .where('tracking_requests.status', '=', 'tracking_stopped')
      .where('shipments.line_tracking_stopped_at', 'is', null)
      .execute();
    if (resumed.length === 0) return;
    await this.db
      .updateTable('tracking_requests')
      .set({ status: 'created', updated_at: nowIso })
      .where(
        'id',
        'in',
        resumed.map((r) => r.requestId),
      )
      .execute();
    await this.db
      .updateTable('shipments')
      .set({ next_line_check_at: nowIso, next_terminal_check_at: null, line_changed_at: nowIso })
      .where(
        'id',
        'in',
        resumed.map((r) => r.shipmentId),
      )
      .execute();
  }
}
