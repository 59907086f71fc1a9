/**
 * Builds the shipments of a world from its seed. Each shipment follows a scenario whose key
 * instants are placed relative to the world's origin, so that at the origin the world holds boxes
 * at every stage (at sea, arriving, on hold, available, on rail, picked up, returned), and moving
 * the clock forward plays every plan out.
 */
import type { MetroAreaRecord, RailTerminalRecord } from '../../shared/reference-data';
import { makeChassisNumber, makeContainerNumber } from '../codes';
import { Rng } from '../prng';
import { line, METROS, port, rampsIn, TERMINALS, terminalsAt } from '../reference';
import { haversineKm } from '../geo/searoutes';
import { DAY, HOUR, localMidnight, MINUTE } from '../time';
import {
  describeEquipment,
  type ContainerPlan,
  type Facility,
  type HoldPlan,
  type LfdPlan,
  type RailPlan,
  type ScenarioKind,
  type ShipmentPlan,
  type VesselLeg,
} from './plan';
import type { CallTime, Service } from './services';

/** How many shipments of each scenario a world holds. */
const SCENARIO_MIX: [ScenarioKind, number][] = [
  ['lifecycle', 3],
  ['at_sea', 6],
  ['arriving', 3],
  ['transshipment', 3],
  ['eta_slip', 2],
  ['terminal_change', 2],
  ['bl_unknown', 2],
  ['discharged_holds', 3],
  ['available_lfd_tomorrow', 3],
  ['lfd_moved', 2],
  ['demurrage', 2],
  ['on_rail', 3],
  ['at_ramp', 2],
  ['picked_up', 3],
  ['returned', 3],
  ['booking_cancelled', 2],
];

/** Target arrival at the port of discharge, in days from the origin. */
const ARRIVAL_WINDOW: Record<ScenarioKind, [number, number]> = {
  lifecycle: [1.5, 4],
  at_sea: [3, 14],
  arriving: [0.1, 2],
  transshipment: [8, 24],
  eta_slip: [1, 14],
  terminal_change: [1.5, 7],
  bl_unknown: [4, 14],
  discharged_holds: [-3.5, -1.6],
  available_lfd_tomorrow: [-6, -2.5],
  lfd_moved: [-6, -2.5],
  demurrage: [-16, -9],
  on_rail: [-8, -4],
  at_ramp: [-14, -8],
  picked_up: [-12, -5],
  returned: [-30, -15],
  booking_cancelled: [8, 20],
};
/** Scenarios whose boxes must already be at sea at the origin. */
const AT_SEA_KINDS = new Set<ScenarioKind>([
  'lifecycle',
  'at_sea',
  'arriving',
  'transshipment',
  'eta_slip',
  'terminal_change',
  'bl_unknown',
]);

const RAIL_KINDS = new Set<ScenarioKind>(['on_rail', 'at_ramp']);
const MAYBE_RAIL = new Set<ScenarioKind>(['at_sea', 'picked_up', 'returned', 'eta_slip']);
const WEST_COAST = ['USLAX', 'USLGB', 'USOAK', 'USSEA', 'USTIW'];
const EAST_COAST = ['USNYC', 'USSAV', 'USCHS', 'USORF', 'USBAL'];
/** Ports a box can leave by rail from. */
const RAIL_PORTS = new Set([...WEST_COAST, ...EAST_COAST]);
const WEST_RAIL = new Set(['BNSF', 'UPRR']);
const EAST_RAIL = new Set(['CSXT', 'NS', 'CN']);
/** Feeder services and the hubs where they hand boxes to mainline services. */
const FEEDERS: { service: string; origins: string[] }[] = [
  { service: 'SGF', origins: ['THLCH', 'VNCMT'] },
  { service: 'JTV', origins: ['VNHPH', 'THLCH'] },
  { service: 'AGI', origins: ['MYPKG', 'INNSA'] },
];
const EUROPE = new Set([
  'NL',
  'BE',
  'DE',
  'GB',
  'FR',
  'ES',
  'IT',
  'PT',
  'PL',
  'DK',
  'SE',
  'GR',
  'MT',
]);
const region = (locode: string): string => {
  const cc = locode.slice(0, 2);
  return cc === 'US' || cc === 'CA' ? 'NA' : EUROPE.has(cc) ? 'EU' : 'OTHER';
};
const LINES_PUBLISHING_LFD = new Set([
  'MSCU',
  'MAEU',
  'CMDU',
  'HLCU',
  'ONEY',
  'EGLV',
  'ZIMU',
  'COSU',
]);

export interface BuildContext {
  seed: number;
  origin: number;
  services: Service[];
}

const facilityOfTerminal = (firms: string): Facility => {
  const t = TERMINALS.find((x) => x.firms_code === firms)!;
  const p = port(t.port_locode);
  return {
    kind: 'terminal',
    firms_code: t.port_locode.startsWith('US') ? t.firms_code : null,
    smdg_code: t.smdg_code,
    name: t.name,
    locode: t.port_locode,
    time_zone: p.time_zone,
  };
};

const facilityOfRamp = (ramp: RailTerminalRecord, metro: MetroAreaRecord): Facility => ({
  kind: 'rail_terminal',
  firms_code: ramp.firms_code,
  smdg_code: null,
  name: ramp.name,
  locode: metro.locode,
  time_zone: metro.time_zone,
});

const lfdOnce = (setAt: number, lfd: number): LfdPlan => ({ setAt, lfd, moves: [] });

export function buildShipments(ctx: BuildContext): ShipmentPlan[] {
  const root = new Rng(`${ctx.seed}:shipments`);
  const used = new Set<string>();
  const unique = (make: () => string): string => {
    for (;;) {
      const v = make();
      if (!used.has(v)) {
        used.add(v);
        return v;
      }
    }
  };
  const shipments: ShipmentPlan[] = [];
  let index = 0;
  for (const [kind, count] of SCENARIO_MIX) {
    for (let n = 0; n < count; n++) {
      const rng = root.fork(`${kind}:${n}`);
      const plan = buildShipment(ctx, rng, kind, index, unique);
      if (plan) {
        shipments.push(plan);
        index++;
      }
    }
  }
  return shipments;
}

interface MainlineChoice {
  service: Service;
  leg: VesselLeg;
  pod: string;
}

/** Picks a mainline voyage into a US or European port arriving near `target`. */
function chooseMainline(
  ctx: BuildContext,
  rng: Rng,
  window: [number, number],
  opts: {
    rail: boolean;
    hub?: string;
    needSlip?: boolean;
    departBefore?: number;
    podFilter?: (locode: string) => boolean;
  },
): MainlineChoice | null {
  const candidates = ctx.services.filter((s) => {
    if (['SGF', 'JTV', 'AGI'].includes(s.code)) return false;
    if (opts.hub && s.indexOf(opts.hub) < 0) return false;
    return s.spec.rotation.some((p) => (opts.rail ? RAIL_PORTS.has(p) : terminalsAt(p).length > 0));
  });
  // Every (service, port of discharge, vessel, cycle) whose arrival falls in the window.
  const options: { service: Service; pod: string; load: CallTime }[] = [];
  const mid = (window[0] + window[1]) / 2;
  for (const service of candidates) {
    service.spec.rotation.forEach((pod, podIndex) => {
      const podOk =
        (opts.rail ? RAIL_PORTS.has(pod) : terminalsAt(pod).length > 0) &&
        (opts.podFilter?.(pod) ?? true);
      // The port of discharge is not the first call: the box must sail from somewhere before it.
      if (!podOk || podIndex === 0 || pod === opts.hub) return;
      // Load port: a call before the port of discharge, in another region (not a coastal hop).
      const loadOptions = opts.hub
        ? [opts.hub]
        : service.spec.rotation.filter((p, i) => i < podIndex && region(p) !== region(pod));
      const loadIndexes = loadOptions
        .map((p) => service.indexOf(p))
        .filter((i) => i >= 0 && i < podIndex);
      if (loadIndexes.length === 0) return;
      for (let v = 0; v < service.vessels.length; v++) {
        const near = service.cycleNear(v, podIndex, mid);
        for (const cycle of [near - 1, near, near + 1]) {
          const arrival = service.call(v, cycle, podIndex);
          if (arrival.arrive < window[0] || arrival.arrive > window[1]) continue;
          if (opts.needSlip && arrival.slipKnownAt === null) continue;
          for (const li of loadIndexes) {
            const load = service.call(v, cycle, li);
            if (opts.departBefore === undefined || load.depart < opts.departBefore)
              options.push({ service, pod, load });
          }
        }
      }
    });
  }
  if (options.length === 0) return null;
  const { service, pod, load } = rng.pick(options);
  const calls = service.callsUntil(load, pod);
  return {
    service,
    pod,
    leg: {
      serviceCode: service.code,
      vessel: service.vessels[load.vesselIndex]!,
      operatorScac: service.spec.scac,
      load,
      discharge: calls[calls.length - 1]!,
      calls,
    },
  };
}

/** A feeder voyage that lands at `hub` between 1 and 8 days before the mainline sails from it. */
function chooseFeeder(
  ctx: BuildContext,
  rng: Rng,
  hub: string,
  mainlineDepart: number,
): { leg: VesselLeg; origin: string } | null {
  const options = FEEDERS.flatMap((f) => {
    const service = ctx.services.find((s) => s.code === f.service)!;
    if (service.indexOf(hub) < 0) return [];
    return f.origins
      .filter((origin) => sailsDirectly(service, origin, hub))
      .map((origin) => ({ service, origin }));
  });
  if (options.length === 0) return null;
  const { service, origin } = rng.pick(options);
  const hubIndex = service.indexOf(hub);
  const originIndex = service.indexOf(origin);
  let best: { load: CallTime; arrive: CallTime } | null = null;
  for (let v = 0; v < service.vessels.length; v++) {
    const base = service.cycleNear(v, hubIndex, mainlineDepart - 3 * DAY);
    for (let cycle = base - 2; cycle <= base + 1; cycle++) {
      const arrive = service.call(v, cycle, hubIndex);
      const slack = mainlineDepart - arrive.depart;
      if (slack < DAY || slack > 8 * DAY) continue;
      const loadCycle = originIndex < hubIndex ? cycle : cycle - 1;
      const load = service.call(v, loadCycle, originIndex);
      if (!best || arrive.arrive > best.arrive.arrive) best = { load, arrive };
    }
  }
  if (!best) return null;
  const calls = service.callsUntil(best.load, hub);
  return {
    origin,
    leg: {
      serviceCode: service.code,
      vessel: service.vessels[best.load.vesselIndex]!,
      operatorScac: service.spec.scac,
      load: best.load,
      discharge: calls[calls.length - 1]!,
      calls,
    },
  };
}

/**
 * Whether a box loaded at `from` would reach `to` on this rotation without a detour: a feeder
 * from Haiphong to Hong Kong must not sail round the whole loop via Singapore and Kaohsiung.
 */
function sailsDirectly(service: Service, from: string, to: string): boolean {
  const rotation = service.spec.rotation;
  let i = service.indexOf(from);
  let km = 0;
  while (rotation[i] !== to) {
    km += service.legs[i]!.lengthKm;
    i = (i + 1) % rotation.length;
  }
  const a = port(from);
  const b = port(to);
  return km <= 1.6 * haversineKm([a.longitude, a.latitude], [b.longitude, b.latitude]) + 500;
}

function chooseRamp(
  rng: Rng,
  pod: string,
): { ramp: RailTerminalRecord; metro: MetroAreaRecord } | null {
  const railroads = WEST_COAST.includes(pod)
    ? WEST_RAIL
    : EAST_COAST.includes(pod)
      ? EAST_RAIL
      : null;
  if (!railroads) return null;
  const options = METROS.flatMap((m) =>
    rampsIn(m.locode)
      .filter((r) => railroads.has(r.rail_carrier_scac) && m.country_code === 'US')
      .map((ramp) => ({ ramp, metro: m })),
  );
  return options.length ? rng.pick(options) : null;
}

/**
 * The line's freight hold is placed on the bill of lading, not on a box: every box of the B/L
 * carries it, pending from the same time and released together once the freight is paid.
 */
export interface BlFreightHold {
  pendingFrom: number;
  releasedAt: number;
}

function blFreightHold(rng: Rng, arrive: number): BlFreightHold | null {
  if (!rng.chance(0.5)) return null;
  return {
    pendingFrom: arrive - rng.range(1, 3) * DAY,
    releasedAt: arrive + rng.range(-40, 60) * HOUR,
  };
}

const FREIGHT_HOLD_TEXT = 'Freight charges not yet paid to the line';

function holdsFor(
  rng: Rng,
  pod: string,
  arrive: number,
  discharged: number,
  kind: ScenarioKind,
  origin: number,
  freight: BlFreightHold | null,
): HoldPlan[] {
  const holds: HoldPlan[] = [];
  const release = (minH: number, maxH: number): number => discharged + rng.range(minH, maxH) * HOUR;
  const add = (name: HoldPlan['name'], description: string | null, releasedAt: number): void => {
    holds.push({
      name,
      description,
      pendingFrom: arrive - rng.range(1, 3) * DAY,
      holdFrom: discharged,
      releasedAt,
    });
  };
  if (rng.chance(0.5)) add('customs', 'CBP hold pending entry release', release(-30, 36));
  // The box's own draws for a freight hold are kept (unused) so its later draws stay as they were.
  if (rng.chance(0.5)) add('freight', FREIGHT_HOLD_TEXT, release(-48, 30));
  const own = holds.findIndex((h) => h.name === 'freight');
  if (own >= 0) holds.splice(own, 1);
  if (freight) {
    holds.push({
      name: 'freight',
      description: FREIGHT_HOLD_TEXT,
      pendingFrom: freight.pendingFrom,
      holdFrom: discharged,
      releasedAt: freight.releasedAt,
    });
  }
  if ((pod === 'USLAX' || pod === 'USLGB') && rng.chance(0.5))
    add('tmf', 'Traffic Mitigation Fee unpaid', release(-12, 24));
  if (rng.chance(0.08)) add('usda', 'USDA inspection required', release(24, 72));
  if (rng.chance(0.1)) add('vacis', 'Selected for VACIS exam', release(24, 60));
  if (rng.chance(0.04)) add('other', 'Terminal hold: documentation', release(6, 30));
  if (kind === 'discharged_holds') {
    // At the origin at least one hold is still on.
    const releasedAt = origin + rng.range(1, 3) * DAY;
    // A box's own hold, not the B/L's freight hold (released for all its boxes at once).
    let first = holds.find((h) => h.name !== 'freight');
    if (!first) {
      add('customs', 'CBP hold pending entry release', releasedAt);
      first = holds[holds.length - 1]!;
    }
    first.releasedAt = releasedAt;
    if (rng.chance(0.5))
      add('vacis', 'Selected for VACIS exam', releasedAt + rng.range(2, 20) * HOUR);
  }
  return holds;
}

const KIND_TEXT: Record<ScenarioKind, string> = {
  lifecycle: 'Full import cycle in the next days',
  at_sea: 'At sea',
  arriving: 'Arriving within a day',
  transshipment: 'Feeder to a hub, then mainline',
  eta_slip: 'Vessel ETA slips',
  terminal_change: 'Discharge terminal changes before arrival',
  bl_unknown: 'BL unknown to the line for the first days',
  discharged_holds: 'Discharged, holds still on',
  available_lfd_tomorrow: 'Available, last free day tomorrow',
  lfd_moved: 'Available, last free day moved',
  demurrage: 'Past last free day, demurrage growing',
  on_rail: 'On rail to an inland ramp',
  at_ramp: 'At the inland ramp',
  picked_up: 'Picked up, empty not yet returned',
  returned: 'Empty returned',
  booking_cancelled: 'Booking cancelled',
};

export interface ShipmentOptions {
  /** Only ports of discharge this accepts. */
  podFilter?: (locode: string) => boolean;
  /** Replaces the scenario's text at the start of the story. */
  storyPrefix?: string;
}

/**
 * One shipment playing scenario `kind` around `ctx.origin`; `unique` hands out numbers no other
 * shipment of the world uses.
 */
export function buildShipment(
  ctx: BuildContext,
  rng: Rng,
  kind: ScenarioKind,
  index: number,
  unique: (make: () => string) => string,
  options: ShipmentOptions = {},
): ShipmentPlan | null {
  const { origin } = ctx;
  const [lo, hi] = ARRIVAL_WINDOW[kind];
  // Widen the window a little at a time if no voyage of the small fleet lands inside it.
  // Windows only grow away from the origin, so the scenario keeps its stage at the origin.
  const windows: [number, number][] = [0, 0.5, 1.5].map((f) => {
    const extra = (hi - lo) * f;
    return lo >= 0
      ? [origin + lo * DAY, origin + (hi + extra) * DAY]
      : [origin + (lo - extra) * DAY, origin + hi * DAY];
  });
  const departBefore = AT_SEA_KINDS.has(kind) ? origin - 12 * HOUR : undefined;
  let rail = RAIL_KINDS.has(kind) || (MAYBE_RAIL.has(kind) && rng.chance(0.4));

  let feeder: { leg: VesselLeg; origin: string } | null = null;
  let main: MainlineChoice | null = null;
  if (kind === 'transshipment') {
    for (let attempt = 0; attempt < 12 && !feeder; attempt++) {
      const hub = rng.pick(['SGSIN', 'HKHKG', 'TWKHH']);
      main = chooseMainline(ctx, rng, windows[Math.floor(attempt / 4)]!, { rail: false, hub });
      if (main) feeder = chooseFeeder(ctx, rng, hub, main.leg.load.depart);
      if (feeder && departBefore !== undefined && feeder.leg.load.depart >= departBefore)
        feeder = null;
    }
    if (!feeder || !main) return null;
    rail = false;
  } else {
    for (const window of windows) {
      main = chooseMainline(ctx, rng, window, {
        rail,
        needSlip: kind === 'eta_slip',
        departBefore,
        podFilter: options.podFilter,
      });
      if (main) break;
    }
    if (!main) return null;
  }
  const scac = main.service.spec.scac;
  const carrier = line(scac);
  const legs = feeder ? [feeder.leg, main.leg] : [main.leg];
  const pol = feeder ? feeder.origin : main.leg.load.locode;
  const pod = main.pod;
  const firstLoad = legs[0]!.load;
  const lastDischarge = main.leg.discharge;
  const podPort = port(pod);
  const zone = podPort.time_zone;

  const railChoice = rail ? chooseRamp(rng, pod) : null;
  if (rail && !railChoice) rail = false;

  const podTerminals = terminalsAt(pod);
  const firstTerminal = rng.pick(podTerminals);
  const podFacility = facilityOfTerminal(firstTerminal.firms_code);
  let podFacilityChange: ShipmentPlan['podFacilityChange'] = null;
  if (kind === 'terminal_change' && podTerminals.length > 1) {
    const other = rng.pick(podTerminals.filter((t) => t !== firstTerminal));
    podFacilityChange = {
      at: origin + rng.range(-1, 1) * DAY,
      to: facilityOfTerminal(other.firms_code),
    };
  }

  const bookingReceivedAt = firstLoad.depart - rng.range(14, 24) * DAY;
  const bookingConfirmedAt = bookingReceivedAt + rng.range(2, 20) * HOUR;
  const blIssuedAt = firstLoad.depart + rng.range(12, 48) * HOUR;
  const blKnownFrom = kind === 'bl_unknown' ? origin + rng.range(1, 3) * DAY : blIssuedAt;
  const cancelledAt = kind === 'booking_cancelled' ? origin - rng.range(1, 3) * DAY : null;

  const blPrefix = carrier.bill_of_lading_prefixes[0] ?? carrier.scac;
  const billOfLading = unique(() => `${blPrefix}${rng.chars(scac === 'MAEU' ? 9 : 10)}`);
  const booking = unique(() =>
    scac === 'MSCU' ? `EBKG${rng.chars(8)}` : rng.chars(scac === 'MAEU' ? 9 : 10),
  );

  const containerCount = kind === 'booking_cancelled' ? 1 : rng.pick([1, 1, 1, 2, 2, 3]);
  const freight = blFreightHold(rng.fork('freight'), lastDischarge.arrive);
  const containers: ContainerPlan[] = [];
  for (let c = 0; c < containerCount; c++) {
    const crng = rng.fork(`container:${c}`);
    const number = unique(() => makeContainerNumber(crng.pick(carrier.container_prefixes), crng));
    const isoCode = crng.pick(['45G1', '45G1', '42G1', '22G1', '45R1']);
    const sealNumber = `${scac.slice(0, 2)}${crng.fork('seal').chars(7)}`;
    const emptyOutAt = firstLoad.depart - crng.range(5, 9) * DAY;
    if (cancelledAt !== null) {
      // The empty went out for stuffing and came back when the booking was cancelled.
      const returned = cancelledAt + crng.range(6, 40) * HOUR;
      containers.push(
        cancelledContainer(
          number,
          isoCode,
          Math.min(emptyOutAt, cancelledAt - DAY),
          returned,
          pol,
          crng,
        ),
      );
      continue;
    }
    const fullInAt = firstLoad.depart - crng.range(1.5, 4) * DAY;
    const loadedAt = firstLoad.depart - crng.range(3, 12) * HOUR;
    const transshipments = feeder
      ? [
          {
            locode: feeder.leg.discharge.locode,
            dischargedAt: feeder.leg.discharge.arrive + crng.range(4, 14) * HOUR,
            loadedAt: main.leg.load.depart - crng.range(3, 10) * HOUR,
          },
        ]
      : [];
    const berthedAt = lastDischarge.arrive + crng.range(3, 8) * HOUR;
    const dischargedAt = berthedAt + crng.range(5, 28) * HOUR;
    const holds = holdsFor(crng, pod, lastDischarge.arrive, dischargedAt, kind, origin, freight);
    const holdsClearAt = Math.max(dischargedAt, ...holds.map((h) => h.releasedAt));
    let availableAt = Math.max(dischargedAt + crng.range(2, 6) * HOUR, holdsClearAt);
    if (kind === 'available_lfd_tomorrow')
      // Available before the local day whose next day is the last free day begins.
      availableAt = Math.max(
        dischargedAt + HOUR,
        Math.min(availableAt, localMidnight(zone, origin) - crng.range(1, 6) * HOUR),
      );
    if (kind === 'lfd_moved')
      availableAt = Math.min(availableAt, origin - crng.range(4, 20) * HOUR);
    if (kind === 'available_lfd_tomorrow' || kind === 'lfd_moved') {
      for (const h of holds) h.releasedAt = Math.min(h.releasedAt, availableAt);
    }

    // Terminal last free day: four free days from discharge, unless the scenario says otherwise.
    let terminalLfd = lfdOnce(
      dischargedAt + crng.range(1, 6) * HOUR,
      localMidnight(zone, dischargedAt, 4),
    );
    if (kind === 'available_lfd_tomorrow')
      terminalLfd = lfdOnce(availableAt, localMidnight(zone, origin, 1));
    if (kind === 'lfd_moved') {
      const first = localMidnight(zone, origin, 1);
      terminalLfd = {
        setAt: availableAt,
        lfd: first,
        moves: [{ at: origin - crng.range(2, 12) * HOUR, lfd: localMidnight(zone, origin, 3) }],
      };
    } else if (kind !== 'available_lfd_tomorrow' && crng.chance(0.15)) {
      terminalLfd.moves.push({
        at: dischargedAt + crng.range(1, 3) * DAY,
        lfd: localMidnight(zone, terminalLfd.lfd + HOUR * 12, crng.pick([1, 2])),
      });
    }
    const finalTerminalLfd = terminalLfd.moves.length
      ? terminalLfd.moves[terminalLfd.moves.length - 1]!.lfd
      : terminalLfd.lfd;

    let railPlan: RailPlan | null = null;
    let fullOutAt: number;
    if (rail && railChoice) {
      const railKm =
        haversineKm(
          [podPort.longitude, podPort.latitude],
          [railChoice.metro.longitude, railChoice.metro.latitude],
        ) * 1.25;
      let loaded = Math.max(dischargedAt + crng.range(20, 40) * HOUR, holdsClearAt);
      if (kind === 'on_rail') loaded = Math.min(loaded, origin - crng.range(1.5, 2.5) * DAY);
      const departedAt = loaded + crng.range(4, 10) * HOUR;
      let arrivedAt = departedAt + (railKm / 42) * HOUR;
      if (kind === 'on_rail') arrivedAt = Math.max(arrivedAt, origin + crng.range(0.5, 1.5) * DAY);
      const unloadedAt = arrivedAt + crng.range(3, 10) * HOUR;
      const rampAvailable = unloadedAt + crng.range(2, 6) * HOUR;
      const rampZone = railChoice.metro.time_zone;
      const lfd = lfdOnce(unloadedAt + HOUR, localMidnight(rampZone, unloadedAt, 2));
      if (crng.chance(0.2))
        lfd.moves.push({
          at: unloadedAt + crng.range(10, 30) * HOUR,
          lfd: localMidnight(rampZone, lfd.lfd + 12 * HOUR, 1),
        });
      railPlan = {
        ramp: railChoice.ramp,
        metro: railChoice.metro,
        facility: facilityOfRamp(railChoice.ramp, railChoice.metro),
        loadedAt: loaded,
        departedAt,
        arrivedAt,
        unloadedAt,
        availableAt: rampAvailable,
        lfd,
        trainId: `${railChoice.ramp.rail_carrier_scac}-${crng.chars(4)}`,
      };
      fullOutAt = pickupTime(kind, crng, rampAvailable, origin);
    } else {
      fullOutAt = pickupTime(kind, crng, availableAt, origin, finalTerminalLfd);
    }
    const emptyReturnedAt =
      kind === 'picked_up'
        ? Math.max(fullOutAt + 2 * DAY, origin + crng.range(1, 3) * DAY)
        : fullOutAt + crng.range(2, 6) * DAY;
    // The line's free time is a calendar day at the port of discharge, also for rail moves.
    const lineLfd: LfdPlan | null = LINES_PUBLISHING_LFD.has(scac)
      ? railPlan
        ? lfdOnce(railPlan.unloadedAt + 2 * HOUR, localMidnight(zone, railPlan.unloadedAt, 4))
        : lfdOnce(dischargedAt + 3 * HOUR, localMidnight(zone, dischargedAt, 5))
      : null;
    // A box whose last free day is tomorrow has no earlier deadline from the line.
    if (lineLfd && kind === 'available_lfd_tomorrow')
      lineLfd.lfd = Math.max(lineLfd.lfd, finalTerminalLfd);
    if (lineLfd && (kind === 'lfd_moved' || crng.chance(0.2))) {
      lineLfd.moves.push({
        at: lineLfd.setAt + crng.range(12, 48) * HOUR,
        lfd: localMidnight(zone, lineLfd.lfd + 12 * HOUR, 1),
      });
    }
    const apptAt = fullOutAt - crng.range(0, 50) * MINUTE;
    containers.push({
      number,
      isoCode,
      sealNumber,
      emptyOutAt,
      fullInAt,
      loadedAt,
      transshipments,
      berthedAt,
      dischargedAt,
      terminalKnownFrom: lastDischarge.arrive - crng.range(2, 4) * DAY,
      availableAt,
      holds,
      terminalLfd,
      lineLfd,
      rail: railPlan,
      appointment: { setAt: apptAt - crng.range(8, 40) * HOUR, at: apptAt },
      fullOutAt,
      chassisNumber: makeChassisNumber(crng),
      emptyReturnedAt,
      emptyReturnLocode: railPlan ? railPlan.metro.locode : pod,
      yardLocation: `${crng.pick(['A', 'B', 'C', 'D', 'E'])}${crng.int(1, 40)}-${crng.int(1, 60)}-${crng.int(1, 5)}`,
    });
  }

  const vesselText = legs.map((l) => `${l.vessel.name} ${l.load.voyage}`).join(', then ');
  const route = [pol, ...(feeder ? [feeder.leg.discharge.locode] : []), pod]
    .map((p) => port(p).name)
    .join(' -> ');
  const railText =
    railChoice && rail ? ` -> rail to ${railChoice.metro.name} (${railChoice.ramp.name})` : '';
  const boxes = containers.length === 1 ? '1 box' : `${containers.length} boxes`;
  const equipment = [...new Set(containers.map((c) => describeEquipment(c.isoCode)))].join(', ');
  const story = `${options.storyPrefix ?? KIND_TEXT[kind]}: ${route}${railText} on ${vesselText} (${boxes}, ${equipment})`;
  const customer = customerFor(rng.fork('customer'));

  return {
    index,
    kind,
    scac,
    story,
    billOfLading,
    booking,
    bookingReceivedAt,
    bookingConfirmedAt,
    blIssuedAt,
    blKnownFrom,
    cancelledAt,
    pol,
    pod,
    destination: rail && railChoice ? railChoice.metro.locode : null,
    legs,
    podFacility,
    podFacilityChange,
    containers,
    customer: customer.name,
    references: customer.references,
  };
}

/** Invented importers of record, each with the kind of purchase-order numbers it uses. */
const CUSTOMERS: { name: string; po: (rng: Rng) => string }[] = [
  { name: 'Harbor Point Home Goods', po: (r) => `HPH-${r.chars(6)}` },
  { name: 'Cascade Outdoor Supply', po: (r) => `PO${r.chars(7)}` },
  { name: 'Bluegill Kitchenware', po: (r) => `4500${r.chars(6)}` },
  { name: 'Northline Auto Parts', po: (r) => `NAP${r.chars(5)}-${r.chars(2)}` },
  { name: 'Sunmeadow Furniture', po: (r) => `SMF${r.chars(6)}` },
  { name: 'Redwood Trail Apparel', po: (r) => `RTA-${r.chars(4)}-${r.chars(3)}` },
  { name: 'Keystone Electronics Distribution', po: (r) => `4700${r.chars(6)}` },
  { name: 'Pelican Bay Toys', po: (r) => `PB${r.chars(8)}` },
  { name: 'Granite Ridge Tools', po: (r) => `GRT${r.chars(6)}` },
  { name: 'Marigold Beauty Co.', po: (r) => `MBC-${r.chars(6)}` },
  { name: 'Ironbridge Fitness', po: (r) => `IBF${r.chars(7)}` },
  { name: 'Willow Creek Pet Supply', po: (r) => `WC-${r.chars(7)}` },
];

function customerFor(rng: Rng): { name: string; references: string[] } {
  const customer = rng.pick(CUSTOMERS);
  const count = rng.pick([1, 1, 1, 2, 3]);
  const references = Array.from({ length: count }, () => customer.po(rng));
  return { name: customer.name, references: [...new Set(references)] };
}

function pickupTime(
  kind: ScenarioKind,
  rng: Rng,
  availableAt: number,
  origin: number,
  lfd?: number,
): number {
  switch (kind) {
    case 'available_lfd_tomorrow':
    case 'lfd_moved':
      return Math.max(origin + rng.range(1, 2) * DAY, availableAt + HOUR);
    case 'demurrage':
      return Math.max(origin + rng.range(1.5, 3) * DAY, (lfd ?? availableAt) + 4 * DAY);
    case 'picked_up':
      return Math.min(
        origin - rng.range(6, 30) * HOUR,
        Math.max(availableAt + 6 * HOUR, origin - 2 * DAY),
      );
    case 'at_ramp':
      return Math.max(origin + rng.range(0.5, 1.5) * DAY, availableAt + HOUR);
    case 'lifecycle':
      return availableAt + rng.range(30, 44) * HOUR;
    default:
      return availableAt + rng.range(12, 96) * HOUR;
  }
}

function cancelledContainer(
  number: string,
  isoCode: string,
  emptyOutAt: number,
  emptyReturnedAt: number,
  pol: string,
  rng: Rng,
): ContainerPlan {
  const never = Number.POSITIVE_INFINITY;
  return {
    number,
    isoCode,
    sealNumber: null,
    emptyOutAt,
    fullInAt: never,
    loadedAt: never,
    transshipments: [],
    berthedAt: never,
    dischargedAt: never,
    terminalKnownFrom: never,
    availableAt: never,
    holds: [],
    terminalLfd: lfdOnce(never, never),
    lineLfd: null,
    rail: null,
    appointment: null,
    fullOutAt: never,
    chassisNumber: makeChassisNumber(rng),
    emptyReturnedAt,
    emptyReturnLocode: pol,
    yardLocation: 'N/A',
  };
}
