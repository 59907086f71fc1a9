/**
 * The assistant tools, one set for both homes (the desktop cache over stdio, the service over
 * streamable HTTP): names, input schemas (zod, checked by the SDK before a tool runs) and the
 * shaping of every answer. Terminal49's ten keep their names and argument shapes, so prompts
 * written for its server work unchanged; Quayside's own follow. Every answer says when its data
 * is true (`as_of`) and where it came from; lists are paged and bounded.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { CachedContainer, CachedEvent, CachedShipment } from '../cached-resources';
import { addCost, containerCost, NO_COST } from '../cost-clock';
import {
  rowHeadlineDeadline,
  holdLabel,
  lfdCountdown,
  statusLabel,
  type LfdDeadline,
} from '../container';
import type { BoardRow, ShipmentListRow } from '../desktop';
import { containerNumberProblem, CONTAINER_NUMBER_SHAPE } from '../iso6346';
import { findLink } from '../find-link';
import { buildWorklist, WORKLIST_SECTION_LABELS } from '../worklist';
import type { McpSource, Paging, TrackingRequestBrief } from './source';

export const QUAYSIDE_MCP_NAME = 'quayside';

/** Terminal49's tools, same names. */
export const T49_TOOL_NAMES = [
  'search_container',
  'track_container',
  'get_container',
  'get_shipment_details',
  'get_container_transport_events',
  'get_container_route',
  'list_shipments',
  'list_containers',
  'list_tracking_requests',
  'get_supported_shipping_lines',
] as const;

export const QUAYSIDE_TOOL_NAMES = [
  'get_worklist',
  'get_money_at_risk',
  'list_last_free_days',
  'list_holds_and_fees',
  'list_documents',
  'list_custom_fields',
] as const;

/** Rows in one answer at most: a page of a list, or the matches of a search. */
export const MAX_PAGE_SIZE = 50;
const DEFAULT_PAGE_SIZE = 25;
/** Boxes the worklist, cost and LFD tools read at most. */
export const ACTIVE_ROW_LIMIT = 5000;

const Id = z.string().uuid();
const Page = z.number().int().positive().max(10_000);
const PageSize = z.number().int().positive().max(MAX_PAGE_SIZE);
const Scac = z
  .string()
  .trim()
  .regex(/^[A-Za-z]{2,4}$/, 'a SCAC is 2 to 4 letters');
const Locode = z
  .string()
  .trim()
  .regex(/^[A-Za-z]{2}[A-Za-z2-9]{3}$/, 'a UN/LOCODE is 5 characters, e.g. USLAX');
const Iso = z.string().datetime({ offset: true });
const LocalDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'a date is YYYY-MM-DD');
const Text = (max: number) => z.string().trim().min(1).max(max);

class ToolInputError extends Error {}

const paging = (page: number | undefined, size: number | undefined): Paging => {
  const limit = size ?? DEFAULT_PAGE_SIZE;
  return { offset: ((page ?? 1) - 1) * limit, limit };
};

const pageMeta = (p: Paging, total: number) => ({
  page: p.offset / p.limit + 1,
  page_size: p.limit,
  total,
  more: p.offset + p.limit < total,
});

/** One tool's answer: JSON text (and the same as structured content) with its time and source. */
async function answer(source: McpSource, body: Record<string, unknown>): Promise<CallToolResult> {
  const full = { as_of: await source.asOf(), source: source.name, ...body };
  return { content: [{ type: 'text', text: JSON.stringify(full) }], structuredContent: full };
}

const failure = (message: string): CallToolResult => ({
  isError: true,
  content: [{ type: 'text', text: message }],
});

const notFound = (what: string, id: string) =>
  failure(`No ${what} with id ${id} in this account's data.`);

const deadlineOf = (d: LfdDeadline | null, now: number) =>
  d && {
    date: d.date,
    zone: d.zone,
    source: d.source,
    countdown: lfdCountdown(d.date, d.zone, now),
  };

/** A container in a few fields: what an answer lists. */
export function containerBrief(row: BoardRow, now: number) {
  return {
    id: row.id,
    container_number: row.number,
    status: row.status,
    status_label: statusLabel(row.status),
    bill_of_lading: row.billOfLading,
    shipping_line: row.lineScac,
    port_of_discharge: row.podLocode,
    terminal: row.location.name,
    vessel: row.vessel,
    eta: row.etaAt,
    ata: row.ataAt,
    ready_for_pickup: row.ready,
    holds: row.holdNames.map(holdLabel),
    fees: row.feesAmount === null ? null : { amount: row.feesAmount, currency: row.feesCurrency },
    last_free_day: deadlineOf(rowHeadlineDeadline(row), now),
    pickup_appointment_at: row.pickupAppointmentAt,
    customer: row.customer,
    link: findLink(row.number),
  };
}

const shipmentBrief = (s: ShipmentListRow) => ({
  id: s.id,
  bill_of_lading: s.billOfLading,
  shipping_line: s.lineScac,
  customer: s.customer,
  port_of_lading: s.polLocode,
  port_of_discharge: s.podLocode,
  vessel: s.vessel,
  voyage: s.voyage,
  eta: s.etaAt,
  ata: s.ataAt,
  container_count: s.containers,
  link: findLink(s.billOfLading),
});

function shipmentAnswer(s: CachedShipment) {
  const a = s.attributes;
  return {
    id: s.id,
    bill_of_lading: a.bill_of_lading_number,
    shipping_line: { scac: a.shipping_line_scac, name: a.shipping_line_name },
    ref_numbers: a.ref_numbers ?? [],
    customer: a.customer_name,
    vessel: { name: a.pod_vessel_name, imo: a.pod_vessel_imo, voyage: a.pod_voyage_number },
    tracking_stopped: a.line_tracking_stopped_at
      ? { at: a.line_tracking_stopped_at, reason: a.line_tracking_stopped_reason }
      : null,
    routing: routeOf(s),
    link: findLink(a.bill_of_lading_number),
  };
}

/** The shipment's legs as the line reports them: lading port, discharge port, destination. */
function routeOf(s: CachedShipment) {
  const a = s.attributes;
  const stops = [
    {
      role: 'port_of_lading',
      locode: a.port_of_lading_locode,
      name: a.port_of_lading_name,
      timezone: a.pol_timezone,
      etd: a.pol_etd_at,
      atd: a.pol_atd_at,
    },
    {
      role: 'port_of_discharge',
      locode: a.port_of_discharge_locode,
      name: a.port_of_discharge_name,
      timezone: a.pod_timezone,
      eta: a.pod_eta_at,
      original_eta: a.pod_original_eta_at,
      ata: a.pod_ata_at,
      vessel: a.pod_vessel_name,
      voyage: a.pod_voyage_number,
    },
  ];
  if (a.destination_locode || a.destination_name)
    stops.push({
      role: 'destination',
      locode: a.destination_locode,
      name: a.destination_name,
      timezone: a.destination_timezone,
      eta: a.destination_eta_at,
      ata: a.destination_ata_at,
    } as (typeof stops)[number]);
  return stops;
}

function containerAnswer(
  row: BoardRow,
  container: CachedContainer,
  shipment: CachedShipment | null,
  now: number,
) {
  const a = container.attributes;
  return {
    ...containerBrief(row, now),
    equipment: {
      type: a.equipment_type,
      length: a.equipment_length,
      height: a.equipment_height,
      weight_lbs: a.weight_in_lbs,
    },
    location: {
      kind: row.location.kind,
      name: row.location.name,
      at_terminal: a.location_at_pod_terminal,
      arrived_at: a.pod_arrived_at,
      discharged_at: a.pod_discharged_at,
      picked_up_at: row.pickedUpAt,
      empty_returned_at: a.empty_terminated_at,
      timezone: a.pod_timezone,
    },
    last_free_days: row.deadlines.map((d) => deadlineOf(d, now)),
    holds_at_pod_terminal: (a.holds_at_pod_terminal ?? []).map((h) => ({
      name: holdLabel(h.name),
      status: h.status,
      description: h.description,
    })),
    fees_at_pod_terminal: a.fees_at_pod_terminal ?? [],
    terminal_checked_at: a.terminal_checked_at,
    custom_fields: Object.fromEntries(
      Object.entries(row.customFields).map(([slug, v]) => [slug, v.text]),
    ),
    shipment: shipment ? shipmentAnswer(shipment) : null,
  };
}

const eventAnswer = (e: CachedEvent) => ({
  event: e.attributes.event,
  timestamp: e.attributes.timestamp,
  timezone: e.attributes.timezone,
  location: e.attributes.location_locode,
  voyage: e.attributes.voyage_number,
});

const trackingRequestAnswer = (t: TrackingRequestBrief) => ({
  id: t.id,
  request_number: t.requestNumber,
  request_type: t.requestType,
  scac: t.scac,
  status: t.status,
  failed_reason: t.failedReason,
  created_at: t.createdAt,
  shipment_id: t.shipmentId,
});

/** The list tools' filters as a source takes them (codes upper case). */
const listFilter = <S extends string>(args: {
  status?: S;
  port?: string;
  carrier?: string;
  updated_after?: string;
}) => ({
  status: args.status,
  port: args.port?.toUpperCase(),
  carrier: args.carrier?.toUpperCase(),
  updatedAfter: args.updated_after,
});

const normalise = (text: string) => text.replace(/[\s-]+/g, '').toUpperCase();

const onTerminal = (terminal: string | undefined) => (row: BoardRow) =>
  !terminal || (row.location.name ?? '').toLowerCase().includes(terminal.toLowerCase());

/** The SDK validates arguments; a tool throws ToolInputError for what a schema cannot say. */
function guarded<A>(
  run: (args: A) => Promise<CallToolResult>,
): (args: A) => Promise<CallToolResult> {
  return async (args) => {
    try {
      return await run(args);
    } catch (error) {
      if (error instanceof ToolInputError) return failure(error.message);
      throw error;
    }
  };
}

const READ_ONLY = { readOnlyHint: true, destructiveHint: false, openWorldHint: false } as const;

/** An MCP server with every tool over one source (one account's data). */
export function createQuaysideMcpServer(source: McpSource, version: string): McpServer {
  const server = new McpServer({ name: QUAYSIDE_MCP_NAME, version });
  registerQuaysideTools(server, source);
  return server;
}

export function registerQuaysideTools(server: McpServer, source: McpSource): void {
  server.registerTool(
    'search_container',
    {
      title: 'Search containers and shipments',
      description:
        'Find containers and shipments by container number, bill of lading, booking or reference number (spaces and dashes ignored).',
      inputSchema: { query: Text(200).describe('Container, B/L, booking or reference number') },
      annotations: READ_ONLY,
    },
    guarded(async ({ query }) => {
      const text = query.trim();
      const [containers, shipments] = await Promise.all([
        source.findContainers(text, MAX_PAGE_SIZE),
        source.findShipments(text, MAX_PAGE_SIZE),
      ]);
      const now = source.now();
      return answer(source, {
        containers: containers.map((r) => containerBrief(r, now)),
        shipments: shipments.map(shipmentBrief),
        total_results: containers.length + shipments.length,
        bounded_to: MAX_PAGE_SIZE,
      });
    }),
  );

  server.registerTool(
    'track_container',
    {
      title: 'Track a container, B/L or booking',
      description:
        'Checks the number first (container check digit, line), says whether it is tracked already, and otherwise creates a tracking request.',
      inputSchema: {
        number: Text(40).optional().describe('Container, bill of lading or booking number'),
        numberType: z
          .enum(['container', 'bill_of_lading', 'booking_number'])
          .optional()
          .describe('container | bill_of_lading | booking_number (a container number is inferred)'),
        containerNumber: Text(40).optional().describe('Older name for number (a container)'),
        bookingNumber: Text(40).optional().describe('Older name for number (booking or B/L)'),
        scac: Scac.optional().describe('SCAC of the shipping line, e.g. MAEU'),
        refNumbers: z.array(Text(100)).max(20).optional().describe('Your reference numbers'),
      },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
    },
    guarded(async (args) => {
      const raw = args.number ?? args.containerNumber ?? args.bookingNumber;
      if (!raw) throw new ToolInputError('Give the number to track (number).');
      const number = normalise(raw);
      const looksLikeContainer = CONTAINER_NUMBER_SHAPE.test(number);
      const requestType =
        args.numberType ??
        (args.containerNumber || looksLikeContainer
          ? 'container'
          : args.bookingNumber
            ? 'booking_number'
            : 'bill_of_lading');
      const tracked = (await source.findContainers(number, MAX_PAGE_SIZE)).filter(
        (r) => normalise(r.number) === number || normalise(r.billOfLading ?? '') === number,
      );
      const now = source.now();
      if (tracked.length > 0)
        return answer(source, {
          tracking_request_created: false,
          message: `${number} is tracked already; nothing was changed.`,
          containers: tracked.map((r) => containerBrief(r, now)),
        });
      if (requestType === 'container') {
        const problem = containerNumberProblem(number);
        if (problem)
          throw new ToolInputError(`${number} is not a valid container number: ${problem}`);
      } else if (!/^[A-Z0-9]{4,30}$/.test(number)) {
        throw new ToolInputError(
          `${number} is not a ${requestType.replace(/_/g, ' ')}: 4 to 30 letters and digits.`,
        );
      }
      const scac =
        args.scac?.toUpperCase() ?? (looksLikeContainer ? undefined : number.slice(0, 4));
      if (!scac)
        throw new ToolInputError(
          `Which shipping line carries ${number}? Give its SCAC (scac); get_supported_shipping_lines lists them.`,
        );
      const plan = { number, requestType, scac, refNumbers: args.refNumbers ?? [] };
      const outcome = await source.track(plan);
      const will = `Track ${requestType.replace(/_/g, ' ')} ${number} with ${scac}`;
      if (outcome.kind === 'unavailable' || outcome.kind === 'refused')
        return failure(`${will}: not done. ${outcome.reason}`);
      return answer(source, {
        tracking_request_created: true,
        message: `${will}: a tracking request was created (${outcome.status}); its containers appear once the line answers. Check with list_tracking_requests.`,
        tracking_request: { id: outcome.trackingRequestId, status: outcome.status, ...plan },
      });
    }),
  );

  server.registerTool(
    'get_container',
    {
      title: 'Get a container',
      description:
        'A container: status, where it is, last free days, holds, fees, readiness, custom fields, its shipment.',
      inputSchema: {
        id: Id.describe('The container id'),
        include: z
          .array(z.enum(['shipment', 'pod_terminal', 'transport_events']))
          .max(3)
          .optional()
          .describe('transport_events adds the latest events'),
      },
      annotations: READ_ONLY,
    },
    guarded(async ({ id, include }) => {
      const found = await source.container(id);
      if (!found) return notFound('container', id);
      const now = source.now();
      const body: Record<string, unknown> = {
        container: containerAnswer(found.row, found.container, found.shipment, now),
      };
      if (include?.includes('transport_events')) {
        const events = (await source.events(id)) ?? [];
        body.transport_events = {
          total: events.length,
          latest: events.slice(0, 10).map(eventAnswer),
        };
      }
      return answer(source, body);
    }),
  );

  server.registerTool(
    'get_shipment_details',
    {
      title: 'Get a shipment',
      description:
        'A shipment: B/L, line, references, routing with ETAs, vessel and its containers.',
      inputSchema: {
        id: Id.describe('The shipment id'),
        include_containers: z.boolean().optional().describe('List its containers (default true)'),
      },
      annotations: READ_ONLY,
    },
    guarded(async ({ id, include_containers }) => {
      const found = await source.shipment(id);
      if (!found) return notFound('shipment', id);
      const now = source.now();
      return answer(source, {
        shipment: shipmentAnswer(found.shipment),
        container_count: found.containers.length,
        ...(include_containers === false
          ? {}
          : {
              containers: found.containers
                .slice(0, MAX_PAGE_SIZE)
                .map((r) => containerBrief(r, now)),
            }),
      });
    }),
  );

  server.registerTool(
    'get_container_transport_events',
    {
      title: "A container's events",
      description:
        'Every milestone of a container (loaded, departed, arrived, discharged, rail, out, empty), oldest first.',
      inputSchema: { id: Id.describe('The container id') },
      annotations: READ_ONLY,
    },
    guarded(async ({ id }) => {
      const events = await source.events(id);
      if (!events) return notFound('container', id);
      const timeline = [...events].reverse().map(eventAnswer);
      return answer(source, {
        total_events: timeline.length,
        // The newest events are the ones asked about: an overlong history keeps its end.
        timeline: timeline.slice(-200),
        truncated: timeline.length > 200,
      });
    }),
  );

  server.registerTool(
    'get_container_route',
    {
      title: "A container's route",
      description:
        'Port of lading, port of discharge and destination with vessel, ETD/ATD and ETA/ATA.',
      inputSchema: { id: Id.describe('The container id') },
      annotations: READ_ONLY,
    },
    guarded(async ({ id }) => {
      const found = await source.container(id);
      if (!found) return notFound('container', id);
      if (!found.shipment)
        return answer(source, {
          route_locations: [],
          message: 'The container has no shipment yet.',
        });
      const route = routeOf(found.shipment);
      return answer(source, {
        container_number: found.row.number,
        total_legs: route.length - 1,
        route_locations: route,
      });
    }),
  );

  const ListFilters = {
    port: Locode.optional().describe('Port of discharge UN/LOCODE'),
    carrier: Scac.optional().describe('Shipping line SCAC'),
    updated_after: Iso.optional().describe('Only records updated at or after this ISO 8601 time'),
    page: Page.optional().describe('Page number, from 1'),
    page_size: PageSize.optional().describe(`Rows per page (at most ${MAX_PAGE_SIZE})`),
  };

  server.registerTool(
    'list_shipments',
    {
      title: 'List shipments',
      description:
        'Shipments, paged, optionally by port of discharge, line, tracking state or update time.',
      inputSchema: {
        status: z
          .enum(['active', 'stopped'])
          .optional()
          .describe('active (still tracked) or stopped'),
        ...ListFilters,
        include_containers: z
          .boolean()
          .optional()
          .describe('Accepted for compatibility: counts are always given'),
      },
      annotations: READ_ONLY,
    },
    guarded(async (args) => {
      const p = paging(args.page, args.page_size);
      const result = await source.shipments(listFilter(args), p);
      return answer(source, {
        items: result.rows.map(shipmentBrief),
        meta: pageMeta(p, result.total),
      });
    }),
  );

  server.registerTool(
    'list_containers',
    {
      title: 'List containers',
      description:
        'Containers, paged, optionally by status, port of discharge, line or update time.',
      inputSchema: {
        status: Text(40).optional().describe('Container status, e.g. available_for_pickup'),
        ...ListFilters,
        include: z.string().max(200).optional().describe('Accepted for compatibility'),
      },
      annotations: READ_ONLY,
    },
    guarded(async (args) => {
      const p = paging(args.page, args.page_size);
      const result = await source.containers(listFilter(args), p);
      const now = source.now();
      return answer(source, {
        items: result.rows.map((r) => containerBrief(r, now)),
        meta: pageMeta(p, result.total),
      });
    }),
  );

  server.registerTool(
    'list_tracking_requests',
    {
      title: 'List tracking requests',
      description: 'Tracking requests, newest first, optionally by status or request type.',
      inputSchema: {
        filters: z
          .record(z.string().max(60), z.string().max(100))
          .optional()
          .describe('filter[status] and filter[request_type], as the API names them'),
        status: z.string().max(40).optional().describe('pending, created, failed, ...'),
        request_type: z.enum(['container', 'bill_of_lading', 'booking_number']).optional(),
        page: Page.optional(),
        page_size: PageSize.optional(),
      },
      annotations: READ_ONLY,
    },
    guarded(async (args) => {
      const p = paging(args.page, args.page_size);
      const result = await source.trackingRequests(
        {
          status: args.status ?? args.filters?.['filter[status]'],
          requestType: args.request_type ?? args.filters?.['filter[request_type]'],
        },
        p,
      );
      if (!result)
        return failure(
          `Tracking requests are not kept in the ${source.name}; ask the service (its /mcp) or open the app's Requests view.`,
        );
      return answer(source, {
        items: result.rows.map(trackingRequestAnswer),
        meta: pageMeta(p, result.total),
      });
    }),
  );

  server.registerTool(
    'get_supported_shipping_lines',
    {
      title: 'Supported shipping lines',
      description:
        'Shipping lines (SCAC and name) that can be tracked, optionally filtered by name or SCAC.',
      inputSchema: {
        search: z.string().trim().max(60).optional().describe('Part of a name or SCAC'),
      },
      annotations: READ_ONLY,
    },
    guarded(async ({ search }) => {
      const needle = search?.toLowerCase() ?? '';
      const lines = (await source.shippingLines()).filter(
        (l) =>
          !needle || l.scac.toLowerCase().includes(needle) || l.name.toLowerCase().includes(needle),
      );
      return answer(source, { total_lines: lines.length, shipping_lines: lines.slice(0, 200) });
    }),
  );

  // Quayside's own tools: over the boxes still at or heading to a terminal.
  const active = async () => source.activeRows(ACTIVE_ROW_LIMIT);
  const TerminalFilter = Text(100).optional().describe('Part of a terminal (or ramp) name');

  server.registerTool(
    'get_worklist',
    {
      title: "Today's worklist",
      description:
        "Today's worklist, most urgent first (overdue, due today, holds, ready to book, arriving), per terminal within each: why, and the next action.",
      inputSchema: { terminal: TerminalFilter },
      annotations: READ_ONLY,
    },
    guarded(async ({ terminal }) => {
      const { rows, complete } = await active();
      const now = source.now();
      const tables = source.costTables();
      // The app's order: sections by urgency, the boxes with most demurrage run up first.
      const sections = buildWorklist(
        rows.filter(onTerminal(terminal)),
        now,
        (row) => containerCost(row, tables, now).demurrage?.accrued ?? 0,
      );
      let shown = 0;
      return answer(source, {
        complete,
        sections: sections.map((group) => ({
          section: WORKLIST_SECTION_LABELS[group.section],
          count: group.places.reduce((sum, place) => sum + place.items.length, 0),
          terminals: group.places.map((place) => ({
            terminal: place.name,
            today: place.today,
            zone: place.zone,
            // At most MAX_PAGE_SIZE boxes in one answer, over every section.
            items: place.items.slice(0, Math.max(0, MAX_PAGE_SIZE - shown)).map((item) => {
              shown++;
              return {
                container_number: item.row.number,
                id: item.row.id,
                reason: item.reason,
                next_action: item.nextAction,
                last_free_day: deadlineOf(item.deadline, now),
                link: findLink(item.row.number),
              };
            }),
          })),
        })),
      });
    }),
  );

  server.registerTool(
    'get_money_at_risk',
    {
      title: 'Money at risk',
      description:
        'Demurrage accrued and what tomorrow adds, per diem accrued, from the terminal tariffs: totals and the costliest boxes.',
      inputSchema: {
        terminal: TerminalFilter,
        limit: z
          .number()
          .int()
          .positive()
          .max(MAX_PAGE_SIZE)
          .optional()
          .describe('Boxes listed (default 10)'),
      },
      annotations: READ_ONLY,
    },
    guarded(async ({ terminal, limit }) => {
      const [{ rows, complete }, tables] = [await active(), source.costTables()];
      const now = source.now();
      let totals = NO_COST;
      const costly = [];
      for (const row of rows.filter(onTerminal(terminal))) {
        const cost = containerCost(row, tables, now);
        totals = addCost(totals, cost);
        const accrued = (cost.demurrage?.accrued ?? 0) + (cost.perDiem?.accrued ?? 0);
        const tomorrow = cost.demurrage?.tomorrow ?? 0;
        if (accrued > 0 || tomorrow > 0)
          costly.push({
            container_number: row.number,
            id: row.id,
            terminal: row.location.name,
            demurrage_accrued: cost.demurrage?.accrued ?? 0,
            demurrage_tomorrow: tomorrow,
            per_diem_accrued: cost.perDiem?.accrued ?? 0,
            currency: cost.demurrage?.currency ?? cost.perDiem?.currency ?? null,
            days_charged: cost.demurrage?.daysCharged ?? 0,
            link: findLink(row.number),
          });
      }
      costly.sort(
        (a, b) =>
          b.demurrage_accrued + b.demurrage_tomorrow - (a.demurrage_accrued + a.demurrage_tomorrow),
      );
      return answer(source, {
        complete,
        totals: {
          demurrage_accrued: totals.accrued,
          demurrage_tomorrow: totals.tomorrow,
          per_diem_accrued: totals.perDiem,
          currency: totals.currency,
          mixed_currencies: totals.mixedCurrencies,
        },
        boxes_costing: costly.length,
        costliest: costly.slice(0, limit ?? 10),
      });
    }),
  );

  server.registerTool(
    'list_last_free_days',
    {
      title: 'Last free days in a date range',
      description:
        'Boxes whose last free day (any source: line, terminal, rail; each a calendar day at its place) falls between two dates, soonest first.',
      inputSchema: {
        from: LocalDate.describe('First day, YYYY-MM-DD'),
        to: LocalDate.describe('Last day, YYYY-MM-DD (at most 62 days after from)'),
        terminal: TerminalFilter,
        has_holds: z
          .boolean()
          .optional()
          .describe('Only boxes with (true) or without (false) a hold'),
        page: Page.optional(),
        page_size: PageSize.optional(),
      },
      annotations: READ_ONLY,
    },
    guarded(async (args) => {
      if (args.to < args.from) throw new ToolInputError('to is before from.');
      if (Date.parse(args.to) - Date.parse(args.from) > 62 * 86_400_000)
        throw new ToolInputError('A range is at most 62 days.');
      const { rows, complete } = await active();
      const now = source.now();
      const matches = rows
        .filter(onTerminal(args.terminal))
        .filter((r) => args.has_holds === undefined || r.holdsCount > 0 === args.has_holds)
        .flatMap((r) => {
          const inRange = r.deadlines.filter((d) => d.date >= args.from && d.date <= args.to);
          return inRange.length > 0 ? [{ row: r, deadline: inRange[0]! }] : [];
        })
        .sort((a, b) => a.deadline.endsAt - b.deadline.endsAt);
      const p = paging(args.page, args.page_size);
      return answer(source, {
        complete,
        items: matches.slice(p.offset, p.offset + p.limit).map(({ row, deadline }) => ({
          ...containerBrief(row, now),
          last_free_day: deadlineOf(deadline, now),
        })),
        meta: pageMeta(p, matches.length),
      });
    }),
  );

  server.registerTool(
    'list_holds_and_fees',
    {
      title: 'Holds and fees',
      description:
        'Boxes at a terminal with an active hold or fees reported, with what each hold means.',
      inputSchema: {
        terminal: TerminalFilter,
        hold: Text(40).optional().describe('Only this kind of hold, e.g. customs, freight, usda'),
        page: Page.optional(),
        page_size: PageSize.optional(),
      },
      annotations: READ_ONLY,
    },
    guarded(async (args) => {
      const { rows, complete } = await active();
      const now = source.now();
      const kind = args.hold?.toLowerCase();
      const matches = rows
        .filter(onTerminal(args.terminal))
        .filter((r) => r.holdsCount > 0 || (r.feesAmount ?? 0) > 0)
        .filter((r) => !kind || r.holdNames.some((h) => h.toLowerCase().includes(kind)));
      const p = paging(args.page, args.page_size);
      return answer(source, {
        complete,
        with_holds: matches.filter((r) => r.holdsCount > 0).length,
        with_fees: matches.filter((r) => (r.feesAmount ?? 0) > 0).length,
        items: matches.slice(p.offset, p.offset + p.limit).map((r) => containerBrief(r, now)),
        meta: pageMeta(p, matches.length),
      });
    }),
  );

  server.registerTool(
    'list_documents',
    {
      title: 'Documents and what was extracted',
      description:
        'Uploaded or emailed documents (B/Ls, arrival notices, ...) with their type and the numbers read from them.',
      inputSchema: {
        shipment_id: Id.optional().describe("Only this shipment's documents"),
        page: Page.optional(),
        page_size: PageSize.optional(),
      },
      annotations: READ_ONLY,
    },
    guarded(async ({ shipment_id, page, page_size }) => {
      const p = paging(page, page_size);
      const result = await source.documents({ shipmentId: shipment_id }, p);
      if (!result) return failure(`No documents are available from the ${source.name}.`);
      return answer(source, {
        items: result.rows.map((d) => ({
          id: d.id,
          name: d.name,
          document_type: d.documentType,
          extraction_status: d.extractionStatus,
          extraction_error: d.extractionError,
          source: d.source,
          created_at: d.createdAt,
          carrier_scac: d.carrierScac,
          extracted_numbers: d.numbers.slice(0, 50).map((n) => ({
            kind: n.kind,
            value: n.value,
            page: n.page,
            confidence: n.confidence,
            problem: n.problem,
          })),
          shipment_ids: d.shipmentIds,
          email: d.email,
        })),
        meta: pageMeta(p, result.total),
      });
    }),
  );

  server.registerTool(
    'list_custom_fields',
    {
      title: 'Custom fields',
      description:
        "The account's custom fields (label, type, options, on containers or shipments); with a container id, that container's values.",
      inputSchema: { container_id: Id.optional().describe('A container whose values to show') },
      annotations: READ_ONLY,
    },
    guarded(async ({ container_id }) => {
      const columns = await source.customFieldColumns();
      const body: Record<string, unknown> = {
        fields: columns.map((c) => ({
          api_slug: c.slug,
          label: c.label,
          data_type: c.dataType,
          on: c.on,
          options: c.options.slice(0, 100),
        })),
      };
      if (container_id) {
        const found = await source.container(container_id);
        if (!found) return notFound('container', container_id);
        body.values = Object.fromEntries(
          Object.entries(found.row.customFields).map(([slug, v]) => [
            slug,
            { text: v.text, from_shipment: v.fromShipment },
          ]),
        );
      }
      return answer(source, body);
    }),
  );
}
