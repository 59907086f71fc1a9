/**
 * Stores what the feeds say: the line's DCSA events (raw events, transport events, shipment and
 * container dates), the line's LFD and the terminal's availability record, and records the
 * matching events through the EventSink in the caller's transaction.
 *
 * Bad data never reaches a row: malformed UN/LOCODEs and unknown facilities are cleared (and
 * counted), implausible times are dropped (and counted). A well-formed UN/LOCODE outside the
 * reference data (an inland depot, a rail ramp) is kept with the source's own name for it. Everything here runs inside one transaction per
 * shipment, so a failure leaves the previous state whole.
 */
import type {
  ContainerStatus,
  RawEventName,
  TransportEventName as ApiTransportEventName,
} from '../../shared/api/resources';
import { RAW_EVENT_NAMES } from '../../shared/api/resources';
import type { LineImportDeadlines } from '../../shared/feeds/line-deadlines';
import type { TerminalContainerStatus } from '../../shared/feeds/terminal';
import type { EventSink, TrackingEvent } from '../events/event-sink';
import {
  deriveContainerMilestones,
  deriveRoute,
  deriveShipmentFacts,
  milestoneKey,
  normalizeEvents,
  rawEventsForContainer,
  toRawEvents,
  type DcsaEvent,
  type DerivedRoute,
  type FeedIssue,
  type RawEvent,
  type ShipmentFacts,
  type TransportEventDraft,
} from '../feeds';
import type { SkippedRecord } from '../feeds/skipped';
import { referenceId, type ReferenceData } from '../store/reference';
import type { ServiceStorage } from '../store';
import type { ContainersTable, ShipmentsTable } from '../store/schema';
import { containerLfd } from './binding-lfd';
import { deriveStatus } from './status';

/** Counters of bad feed data, exposed by the engine's stats. */
export interface DataIssueCounters {
  droppedEvents: number;
  unknownLocodes: number;
  unknownFacilities: number;
  impossibleTimestamps: number;
  /** Codes outside the DCSA lists, kept as sent. */
  unlistedCodes: number;
}

export const emptyIssueCounters = (): DataIssueCounters => ({
  droppedEvents: 0,
  unknownLocodes: 0,
  unknownFacilities: 0,
  impossibleTimestamps: 0,
  unlistedCodes: 0,
});

/** Lookups the apply step needs beyond the reference data. */
export interface ApplyEnv {
  ref: ReferenceData;
  events: EventSink;
  counters: DataIssueCounters;
  /** IMO numbers present in the vessels table (unknown vessels get no relationship). */
  knownVessel(imo: string): boolean;
  /** SMDG terminal code -> FIRMS code. */
  firmsForSmdg(smdg: string): string | null;
  warn(detail: Record<string, unknown>, message: string): void;
  /** Tells records skipped as unusable (each once; see feeds/skipped.ts). */
  skipped(records: readonly SkippedRecord[]): void;
}

/** One unit of work: the stores bound to its transaction, and the time it started. */
export interface ApplyScope {
  stores: ServiceStorage;
  now: number;
}

/** The line's answer, cleaned and interpreted once per shipment. */
export interface LineView {
  raw: RawEvent[];
  route: DerivedRoute;
  facts: ShipmentFacts;
  /** Equipment references seen in the events, in first-seen order. */
  containerNumbers: string[];
  /** When the line reported the booking cancelled (SHIPMENT VOID/REJE of the booking). */
  cancelledAt: string | null;
}

const EARLIEST = Date.UTC(1990, 0, 1);
const LATEST = Date.UTC(2100, 0, 1);
const FUTURE_TOLERANCE_MS = 6 * 3600_000;
const iso = (ms: number) => new Date(ms).toISOString();

function isKnownLocation(ref: ReferenceData, locode: string): boolean {
  return ref.portsByLocode.has(locode) || ref.metrosByLocode.has(locode);
}

export function interpretLine(
  env: ApplyEnv,
  scac: string,
  events: readonly DcsaEvent[],
  now: number,
): LineView {
  const { events: raw, issues } = toRawEvents(events, {
    now,
    isKnownLocode: (l) => isKnownLocation(env.ref, l),
  });
  countIssues(env, scac, issues);
  // A known place is named by its record; the carrier's name is kept only for another one.
  for (const e of raw) {
    if (e.location_locode && isKnownLocation(env.ref, e.location_locode)) e.location_name = null;
  }
  const route = deriveRoute(raw);
  const facts = deriveShipmentFacts(raw, route);
  const containerNumbers: string[] = [];
  for (const e of raw) {
    const n = e.equipment_reference;
    if (n && /^[A-Z]{4}[0-9]{7}$/.test(n) && !containerNumbers.includes(n))
      containerNumbers.push(n);
  }
  const cancel = raw.find(
    (e) =>
      e.event_type === 'SHIPMENT' &&
      !e.estimated &&
      (e.event_code === 'VOID' || e.event_code === 'REJE') &&
      events.some(
        (d) =>
          d.eventType === 'SHIPMENT' &&
          d.documentTypeCode === 'BKG' &&
          d.shipmentEventTypeCode === e.event_code,
      ),
  );
  return { raw, route, facts, containerNumbers, cancelledAt: cancel?.timestamp ?? null };
}

function countIssues(env: ApplyEnv, scac: string, issues: FeedIssue[]): void {
  const skipped: SkippedRecord[] = [];
  for (const issue of issues) {
    if (issue.dropped) {
      env.counters.droppedEvents++;
      skipped.push({
        kind: 'carrier',
        source: scac,
        type: issue.original_event.split('/')[0] ?? null,
        id: issue.source_event_id,
        reason: issue.detail,
      });
    }
    if (issue.kind === 'impossible_timestamp' || issue.kind === 'actual_in_future')
      env.counters.impossibleTimestamps++;
    if (issue.kind === 'unknown_locode' || issue.kind === 'invalid_locode')
      env.counters.unknownLocodes++;
    if (issue.kind === 'unlisted_code') env.counters.unlistedCodes++;
  }
  env.skipped(skipped);
  const kept = issues.filter((i) => !i.dropped);
  if (kept.length > 0) {
    env.warn(
      { scac, issues: kept.slice(0, 5), total: kept.length },
      'carrier events kept with unlisted codes or cleaned values',
    );
  }
}

async function record(
  env: ApplyEnv,
  scope: ApplyScope,
  accountId: string,
  event: string,
  reference: TrackingEvent['reference'],
  changeset?: TrackingEvent['changeset'],
): Promise<void> {
  await env.events.record(scope.stores, {
    accountId,
    event,
    reference,
    ...(changeset ? { changeset } : {}),
    occurredAt: iso(scope.now),
  });
}

// --- shipments --------------------------------------------------------------------------------

const SHIPMENT_FACT_COLUMNS = [
  'pol_etd_at',
  'pol_atd_at',
  'pod_eta_at',
  'pod_ata_at',
  'destination_eta_at',
  'destination_ata_at',
  'pod_vessel_name',
  'pod_voyage_number',
] as const;

/**
 * Writes the shipment's route, dates, port calls and POD vessel. The first ETA the line ever gave is kept as
 * `pod_original_eta_at` (likewise the first ETD at the POL and ETA at the destination). Returns whether anything the line says changed.
 */
export async function applyShipmentFacts(
  env: ApplyEnv,
  scope: ApplyScope,
  shipment: ShipmentsTable,
  view: LineView,
  options: { announce: boolean },
): Promise<boolean> {
  const { facts, route } = view;
  const portId = (l: string | null) => (l ? (env.ref.portsByLocode.get(l)?.id ?? null) : null);
  const next: Partial<ShipmentsTable> = {
    port_of_lading_id: portId(facts.port_of_lading_locode),
    port_of_discharge_id: portId(facts.port_of_discharge_locode),
  };
  const dest = route.destination;
  const destPort = dest ? env.ref.portsByLocode.get(dest) : undefined;
  const destMetro = dest ? env.ref.metrosByLocode.get(dest) : undefined;
  next.destination_id = destPort?.id ?? destMetro?.id ?? null;
  next.destination_type = destPort ? 'port' : destMetro ? 'metro_area' : null;
  for (const c of SHIPMENT_FACT_COLUMNS) next[c] = facts[c];
  const imo = facts.pod_vessel_imo;
  next.pod_vessel_imo = imo;
  next.pod_vessel_id = imo && env.knownVessel(imo) ? vesselId(env, imo) : null;
  next.pod_original_eta_at =
    shipment.pod_original_eta_at ?? facts.pod_original_eta_at ?? facts.pod_eta_at;
  next.pol_original_etd_at =
    shipment.pol_original_etd_at ?? facts.pol_original_etd_at ?? facts.pol_etd_at;
  next.destination_original_eta_at =
    shipment.destination_original_eta_at ??
    facts.destination_original_eta_at ??
    facts.destination_eta_at;
  // The POD terminal, from the facility of the discharge or arrival at the POD.
  const podFacility = view.raw
    .filter(
      (e) =>
        e.location_locode === route.pod &&
        route.pod !== null &&
        e.facility_smdg_code !== null &&
        (e.event_code === 'DISC' || e.event_code === 'ARRI'),
    )
    .map((e) => env.firmsForSmdg(e.facility_smdg_code!))
    .find((f) => f !== null);
  if (podFacility) next.pod_terminal_id = env.ref.terminalsByFirms.get(podFacility)?.id ?? null;
  if (view.cancelledAt) next.cancelled_at = view.cancelledAt;
  // The route map draws from the port calls; raw events alone lack what derives them.
  next.port_calls = JSON.stringify(facts.port_calls);

  const changed = (Object.keys(next) as (keyof ShipmentsTable)[]).filter(
    (k) => (shipment[k] ?? null) !== (next[k] ?? null),
  );
  const nowIso = iso(scope.now);
  await scope.stores.tracking.applyShipmentChanges(shipment.id, {
    ...next,
    line_tracking_last_attempted_at: nowIso,
    line_tracking_last_succeeded_at: nowIso,
    ...(changed.length > 0 ? { updated_at: nowIso, line_changed_at: nowIso } : {}),
  });
  if (
    options.announce &&
    next.pod_eta_at &&
    shipment.pod_eta_at !== next.pod_eta_at &&
    changed.includes('pod_eta_at')
  ) {
    await record(env, scope, shipment.account_id, 'shipment.estimated.arrival', {
      type: 'shipment',
      id: shipment.id,
    });
  }
  return changed.length > 0;
}

/** The reference vessel id is derived from the IMO (uuid v5), as the store does. */
function vesselId(env: ApplyEnv, imo: string): string | null {
  return env.knownVessel(imo) ? referenceId('vessel', imo) : null;
}

// --- containers -------------------------------------------------------------------------------

/** Container columns a `container.updated` changeset reports. */
const TRACKED_COLUMNS = [
  'current_status',
  'pod_arrived_at',
  'pod_discharged_at',
  'pod_full_out_at',
  'pod_rail_loaded_at',
  'pod_rail_departed_at',
  'ind_eta_at',
  'ind_ata_at',
  'ind_rail_unloaded_at',
  'final_destination_full_out_at',
  'empty_terminated_at',
  'availability_known',
  'available_for_pickup',
  'holds_at_pod_terminal',
  'fees_at_pod_terminal',
  'pickup_appointment_at',
  'pickup_lfd_line',
  'pickup_lfd_terminal',
  'pickup_lfd_rail',
  'location_at_pod_terminal',
  'pickup_number',
  'pod_full_out_chassis_number',
  'pod_terminal_id',
  'pickup_facility_id',
  'pod_timezone',
  'final_destination_timezone',
  'empty_terminated_timezone',
] as const satisfies readonly (keyof ContainersTable)[];

const LFD_EVENTS: [keyof ContainersTable, string][] = [
  ['pickup_lfd_line', 'container.pickup_lfd_line.changed'],
  ['pickup_lfd_terminal', 'container.pickup_lfd_terminal.changed'],
  ['pickup_lfd_rail', 'container.pickup_lfd_rail.changed'],
];

/** What the feeds say about one container in this pass; undefined = that source not asked. */
export interface ContainerInputs {
  line?: { raw: RawEvent[]; route: DerivedRoute; inlandMove: boolean } | undefined;
  /** null: the line publishes no LFD for this box. */
  deadlines?: LineImportDeadlines | null;
  terminal?: TerminalContainerStatus | null;
  /** Set on a newly created container: no `container.updated` for its first fill. */
  created?: boolean;
}

const RAW_NAMES = new Set<string>(RAW_EVENT_NAMES);

function rawName(event: string | null): RawEventName | null {
  if (!event) return null;
  let name = event.replace(/^container\.transport\./, '').replace(/^estimated\./, '');
  if (name === 'arrived_at_inland_destination') name = 'arrived_at_destination';
  return RAW_NAMES.has(name) ? (name as RawEventName) : null;
}

function plausible(value: string | null, now: number, actual: boolean): string | null | 'bad' {
  if (value === null) return null;
  const t = Date.parse(value);
  if (!Number.isFinite(t) || t < EARLIEST || t >= LATEST) return 'bad';
  if (actual && t > now + FUTURE_TOLERANCE_MS) return 'bad';
  return iso(t);
}

/**
 * Applies one container's inputs: raw events (replaced when the line's list changed), new
 * transport events (deduplicated by milestone across sources), milestones, LFDs, terminal
 * availability and the derived status, then records the events. Returns whether it changed.
 */
export async function applyContainer(
  env: ApplyEnv,
  scope: ApplyScope,
  shipment: ShipmentsTable,
  container: ContainersTable,
  inputs: ContainerInputs,
): Promise<boolean> {
  // What the sources say, gathered into the columns to write and the milestones seen.
  const next: Partial<ContainersTable> = {};
  const drafts: TransportEventDraft[] = [];
  let rawChanged = false;
  let inlandMove: boolean;
  if (inputs.line) {
    rawChanged = await takeLineEvents(env, scope, container, inputs.line, next, drafts);
    inlandMove = inputs.line.inlandMove;
  } else {
    inlandMove =
      shipment.destination_id !== null && shipment.destination_id !== shipment.port_of_discharge_id;
  }
  if (inputs.deadlines !== undefined) {
    next.pickup_lfd_line = inputs.deadlines?.lastFreeDay ?? null;
  }
  if (inputs.terminal) takeTerminalRecord(env, scope, container, inputs.terminal, next, drafts);

  const merged = { ...container, ...next } as ContainersTable;
  next.current_status = derivedStatus(shipment, container, merged, drafts, inlandMove);

  const newEvents = await storeNewMilestones(env, scope, container, drafts);
  if (inputs.terminal) {
    const flip = await storeAvailabilityFlip(env, scope, container, next, inputs.terminal);
    if (flip) newEvents.push(flip);
  }

  const changeset = trackedChanges(container, next);
  const changedAttrs = Object.keys(changeset).length > 0;
  if (changedAttrs || next.terminal_checked_at || newEvents.length > 0) {
    await scope.stores.tracking.applyContainerChanges(container.id, {
      ...next,
      ...(changedAttrs || newEvents.length > 0 ? { updated_at: iso(scope.now) } : {}),
    });
  }

  const accountId = container.account_id;
  const about = { type: 'container' as const, id: container.id };
  for (const e of newEvents) {
    await record(env, scope, accountId, e.event, { type: 'transport_event', id: e.id });
  }
  if (changedAttrs && !inputs.created) {
    await record(env, scope, accountId, 'container.updated', about, changeset);
  }
  await recordDeadlineChanges(env, scope, container, merged, changeset);
  return rawChanged || changedAttrs || newEvents.length > 0;
}

const zoneOf = (ref: ReferenceData, locode: string | null) =>
  locode
    ? (ref.portsByLocode.get(locode)?.time_zone ??
      ref.metrosByLocode.get(locode)?.time_zone ??
      null)
    : null;

/**
 * The line's events for this box: its raw events (replaced when changed; returns whether they
 * were), the milestones they derive and the time zones of its places.
 */
async function takeLineEvents(
  env: ApplyEnv,
  scope: ApplyScope,
  container: ContainersTable,
  line: NonNullable<ContainerInputs['line']>,
  next: Partial<ContainersTable>,
  drafts: TransportEventDraft[],
): Promise<boolean> {
  const { raw, route } = line;
  const own = rawEventsForContainer(raw, container.number);
  const normalized = normalizeEvents(own, route);
  const changed = await replaceRawEventsIfChanged(scope, container.id, normalized.raw);
  drafts.push(...normalized.transport);
  const m = deriveContainerMilestones(own, route);
  // Milestones do not un-happen: a value another source (the terminal) supplied is kept
  // while the line has not reported it.
  for (const [k, v] of Object.entries(m) as [keyof typeof m, string | null][]) {
    next[k] = k === 'ind_eta_at' ? v : (v ?? container[k]);
  }
  next.pod_timezone = zoneOf(env.ref, route.pod);
  next.final_destination_timezone = zoneOf(env.ref, route.destination ?? route.pod);
  if (m.empty_terminated_at) {
    const ret = own.find((e) => e.timestamp === m.empty_terminated_at && !e.estimated);
    next.empty_terminated_timezone = zoneOf(env.ref, ret?.location_locode ?? null);
  }
  return changed;
}

/** The terminal's record for this box: availability, holds, fees, its LFD and milestones. */
function takeTerminalRecord(
  env: ApplyEnv,
  scope: ApplyScope,
  container: ContainersTable,
  t: TerminalContainerStatus,
  next: Partial<ContainersTable>,
  drafts: TransportEventDraft[],
): void {
  const ref = env.ref;
  const times: Record<string, string | null> = {};
  for (const k of [
    'discharged_at',
    'rail_unloaded_at',
    'full_out_at',
    'empty_returned_at',
    'last_free_day',
    'pickup_appointment_at',
  ] as const) {
    const actual = k !== 'last_free_day' && k !== 'pickup_appointment_at';
    const v = plausible(t[k], scope.now, actual);
    if (v === 'bad') {
      env.counters.impossibleTimestamps++;
      env.warn(
        { container: container.number, field: k, value: t[k] },
        'terminal sent an impossible time',
      );
      times[k] = null;
    } else times[k] = v;
  }
  const rail = t.facility.kind === 'rail_terminal';
  const firms = t.facility.firms_code;
  const known = firms
    ? rail
      ? ref.railTerminalsByFirms.get(firms)
      : ref.terminalsByFirms.get(firms)
    : undefined;
  if (firms && !known) env.counters.unknownFacilities++;
  // A place outside the reference data keeps its code with the facility's name for it.
  const wellFormed = /^[A-Z]{2}[A-Z2-9]{3}$/.test(t.facility.locode);
  const locode = wellFormed ? t.facility.locode : null;
  const placeName = locode && !isKnownLocation(ref, locode) ? t.facility.name : null;
  if (!locode || placeName) env.counters.unknownLocodes++;
  next.availability_known = 1;
  next.available_for_pickup = t.available_for_pickup ? 1 : 0;
  next.holds_at_pod_terminal = JSON.stringify(
    t.holds
      .filter((h) => h.status !== 'released')
      .map((h) => ({ name: h.name, status: h.status, description: h.description })),
  );
  next.fees_at_pod_terminal = JSON.stringify(
    t.fees.map((f) => ({ type: f.type, amount: f.amount, currency_code: f.currency_code })),
  );
  next.pickup_appointment_at = times.pickup_appointment_at ?? null;
  next.location_at_pod_terminal = t.yard_location;
  next.pickup_number = t.pickup_number ?? null;
  next.terminal_checked_at = iso(scope.now);
  if (rail) {
    next.pickup_lfd_rail = times.last_free_day ?? null;
    next.ind_rail_unloaded_at ??= container.ind_rail_unloaded_at ?? times.rail_unloaded_at ?? null;
    if (times.full_out_at)
      next.final_destination_full_out_at ??=
        container.final_destination_full_out_at ?? times.full_out_at;
  } else {
    next.pickup_lfd_terminal = times.last_free_day ?? null;
    if (known) {
      next.pod_terminal_id = known.id;
      next.pickup_facility_id = known.id;
    }
    // The line's report is preferred; the terminal's fills what the line has not said yet.
    next.pod_discharged_at ??= container.pod_discharged_at ?? times.discharged_at ?? null;
    next.pod_full_out_at ??= container.pod_full_out_at ?? times.full_out_at ?? null;
    if (times.full_out_at) next.pod_full_out_chassis_number = t.full_out_chassis_number;
    next.pod_timezone ??= container.pod_timezone ?? t.facility.time_zone;
  }
  next.empty_terminated_at ??= container.empty_terminated_at ?? times.empty_returned_at ?? null;
  const terminalFirms = known ? firms : null;
  const draft = (event: string, at: string | null) => {
    if (!at) return;
    drafts.push({
      event: event as TransportEventDraft['event'],
      timestamp: at,
      location_locode: locode,
      location_name: placeName,
      facility_smdg_code: null,
      vessel_imo: null,
      vessel_name: null,
      voyage_number: null,
      mode_of_transport: null,
      equipment_reference: container.number,
      data_source: 'terminal',
      original_events: [`TERMINAL/${event}`],
      reported_by: ['terminal'],
      ...(terminalFirms ? { terminal_firms: terminalFirms } : {}),
    } as TransportEventDraft);
  };
  if (rail) draft('container.transport.rail_unloaded', times.rail_unloaded_at ?? null);
  else draft('container.transport.vessel_discharged', times.discharged_at ?? null);
  draft('container.transport.full_out', times.full_out_at ?? null);
  draft('container.transport.empty_in', times.empty_returned_at ?? null);
}

/** The status the merged facts give (see status.ts). */
function derivedStatus(
  shipment: ShipmentsTable,
  container: ContainersTable,
  merged: ContainersTable,
  drafts: TransportEventDraft[],
  inlandMove: boolean,
): ContainerStatus {
  return deriveStatus({
    previous: container.current_status as ContainerStatus,
    emptyTerminatedAt: merged.empty_terminated_at,
    finalDestinationFullOutAt: merged.final_destination_full_out_at,
    indAtaAt: merged.ind_ata_at,
    indRailUnloadedAt: merged.ind_rail_unloaded_at,
    podRailLoadedAt: merged.pod_rail_loaded_at,
    podRailDepartedAt: merged.pod_rail_departed_at,
    podFullOutAt: merged.pod_full_out_at,
    podDischargedAt: merged.pod_discharged_at,
    podArrivedAt: merged.pod_arrived_at,
    departedOrigin:
      shipment.pol_atd_at !== null ||
      drafts.some((d) => d.event === 'container.transport.vessel_loaded'),
    inlandMove,
    availabilityKnown: merged.availability_known === 1,
    availableForPickup:
      merged.available_for_pickup === null ? null : merged.available_for_pickup === 1,
  });
}

/** Stores the milestones not stored yet, from any source; returns the new transport events. */
async function storeNewMilestones(
  env: ApplyEnv,
  scope: ApplyScope,
  container: ContainersTable,
  drafts: TransportEventDraft[],
): Promise<{ id: string; event: string }[]> {
  const existing = await scope.stores.tracking.storedMilestones(container.id);
  const seen = new Set(existing.map((e) => `${e.event}|${e.location_locode ?? ''}`));
  const newEvents: { id: string; event: string }[] = [];
  for (const d of drafts) {
    const key = milestoneKey(d);
    if (seen.has(key)) continue;
    seen.add(key);
    const firms =
      (d as { terminal_firms?: string }).terminal_firms ??
      (d.facility_smdg_code ? env.firmsForSmdg(d.facility_smdg_code) : null);
    const row = await scope.stores.tracking.addTransportEvent(container.id, {
      event: d.event as ApiTransportEventName,
      dataSource: d.data_source,
      timestamp: d.timestamp,
      voyageNumber: d.voyage_number,
      locationLocode: d.location_locode,
      locationName: d.location_name,
      vesselImo: d.vessel_imo && env.knownVessel(d.vessel_imo) ? d.vessel_imo : null,
      terminalFirmsCode: firms,
    });
    newEvents.push({ id: row.id, event: d.event });
  }
  return newEvents;
}

/** Availability is announced as a terminal transport event each time it flips. */
async function storeAvailabilityFlip(
  env: ApplyEnv,
  scope: ApplyScope,
  container: ContainersTable,
  next: Partial<ContainersTable>,
  terminal: TerminalContainerStatus,
): Promise<{ id: string; event: string } | null> {
  const availabilityNow = next.available_for_pickup;
  if (
    availabilityNow === undefined ||
    availabilityNow === null ||
    (container.availability_known === 1 && container.available_for_pickup === availabilityNow)
  )
    return null;
  const event =
    availabilityNow === 1 ? 'container.transport.available' : 'container.transport.not_available';
  const locode = terminal.facility.locode;
  const wellFormed = /^[A-Z]{2}[A-Z2-9]{3}$/.test(locode);
  const row = await scope.stores.tracking.addTransportEvent(container.id, {
    event,
    dataSource: 'terminal',
    timestamp: iso(scope.now),
    locationLocode: wellFormed ? locode : null,
    locationName: wellFormed && !isKnownLocation(env.ref, locode) ? terminal.facility.name : null,
  });
  return { id: row.id, event };
}

/** The tracked attributes that change, as [before, after] the way webhooks show them. */
function trackedChanges(
  container: ContainersTable,
  next: Partial<ContainersTable>,
): Record<string, [unknown, unknown]> {
  const changeset: Record<string, [unknown, unknown]> = {};
  for (const k of TRACKED_COLUMNS) {
    if (!(k in next)) continue;
    const before = container[k] ?? null;
    const after = next[k] ?? null;
    if (before !== after) changeset[k] = [shown(k, before), shown(k, after)];
  }
  return changeset;
}

/**
 * Deadline and appointment changes are webhook events about the container and, as the spec
 * lists them among transport event names, also transport_event records (stamped when seen).
 */
async function recordDeadlineChanges(
  env: ApplyEnv,
  scope: ApplyScope,
  container: ContainersTable,
  merged: ContainersTable,
  changeset: Record<string, [unknown, unknown]>,
): Promise<void> {
  const deadlineEvents: { event: ApiTransportEventName; source: 'shipping_line' | 'terminal' }[] =
    [];
  for (const [column, event] of LFD_EVENTS) {
    if (changeset[column]) {
      deadlineEvents.push({
        event: event as ApiTransportEventName,
        source: column === 'pickup_lfd_line' ? 'shipping_line' : 'terminal',
      });
    }
  }
  const binding = containerLfd(merged);
  if (containerLfd(container).date !== binding.date) {
    deadlineEvents.push({
      event: 'container.pickup_lfd.changed',
      source: binding.source === 'line' ? 'shipping_line' : 'terminal',
    });
  }
  if (changeset.pickup_appointment_at) {
    deadlineEvents.push({ event: 'container.pickup_appointment.changed', source: 'terminal' });
  }
  const about = { type: 'container' as const, id: container.id };
  const stamp = iso(scope.now);
  for (const { event, source } of deadlineEvents) {
    // A line check and a terminal check of one shipment can start in the same millisecond and
    // apply one after the other: the second change is still notified, but the container's
    // history keeps one record of that event at that instant (records are told apart by time).
    if (!(await scope.stores.tracking.hasTransportEventAt(container.id, event, stamp))) {
      await scope.stores.tracking.addTransportEvent(container.id, {
        event,
        dataSource: source,
        timestamp: stamp,
      });
    }
    await record(env, scope, container.account_id, event, about);
  }
}

function shown(column: string, value: unknown): unknown {
  if (value === null) return null;
  if (column === 'holds_at_pod_terminal' || column === 'fees_at_pod_terminal')
    return JSON.parse(value as string) as unknown;
  if (column === 'availability_known' || column === 'available_for_pickup') return value === 1;
  return value;
}

/** Replaces the stored raw events only when the line's list differs. */
async function replaceRawEventsIfChanged(
  scope: ApplyScope,
  containerId: string,
  raw: ReturnType<typeof normalizeEvents>['raw'],
): Promise<boolean> {
  const inputs = raw.map((e) => ({
    event: rawName(e.event),
    originalEvent: e.original_event,
    timestamp: e.timestamp,
    estimated: e.estimated,
    locationLocode: e.location_locode,
    locationName: e.location_name,
    vesselName: e.vessel_name,
    vesselImo: e.vessel_imo,
    voyageNumber: e.voyage_number,
  }));
  const stored = await scope.stores.tracking.storedRawEvents(containerId);
  const sig = (r: {
    event: string | null;
    original: string;
    timestamp: string;
    estimated: boolean;
    locode: string | null;
    place: string | null;
    vessel: string | null;
    imo: string | null;
    voyage: string | null;
  }) => JSON.stringify(r);
  const before = stored.map((r) =>
    sig({
      event: r.event,
      original: r.original_event,
      timestamp: r.timestamp,
      estimated: r.estimated === 1,
      locode: r.location_locode,
      place: r.location_name,
      vessel: r.vessel_name,
      imo: r.vessel_imo,
      voyage: r.voyage_number,
    }),
  );
  const after = inputs.map((r) =>
    sig({
      event: r.event,
      original: r.originalEvent,
      timestamp: r.timestamp,
      estimated: r.estimated,
      locode: r.locationLocode,
      place: r.locationName,
      vessel: r.vesselName,
      imo: r.vesselImo,
      voyage: r.voyageNumber,
    }),
  );
  if (before.length === after.length && before.every((s, i) => s === after[i])) return false;
  await scope.stores.tracking.replaceRawEvents(containerId, inputs);
  return true;
}
