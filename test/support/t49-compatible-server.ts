/**
 * A Terminal49-compatible /v2 service on 127.0.0.1:0, answering the way the real service does
 * rather than the way Quayside's own service renders: records are built from the examples in the
 * reference OpenAPI file (read at start, never copied into the repository), carry no
 * `updated_at`, are sometimes sparse (only the members the spec requires), send latitude and
 * longitude as strings, null optionals and attributes Quayside does not know. Lists page by
 * `page[number]` with at most 100 records; shipments filter only by `filter[tracking_stopped]`;
 * `/tracking_requests` alone filters by `filter[updated_at]`. Authentication is
 * `Authorization: Token KEY`; an optional N-requests-per-minute limit answers 429 + Retry-After.
 *
 * Records are generated on demand from their index, so 100k shipments cost nothing until asked.
 * `changeContainer` changes an active container the way the real service would (new status, new
 * deadlines, one more transport event, still no `updated_at`).
 */
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { deepFreeze } from '../../src/shared/deep-freeze';
import { checkDigit } from '../../src/shared/iso6346';
import { referenceFile } from './reference-files';

const REFERENCE = referenceFile('terminal49-v2-openapi.json');

type Json = Record<string, unknown>;
type Resource = { id: string; type: string; attributes?: Json; relationships?: Json; links?: Json };

interface Templates {
  shipments: Resource[];
  containers: Resource[];
  events: Resource[];
}

let templates: Templates | null = null;

/** The reference's list examples: the shapes every generated record starts from. */
function referenceTemplates(): Templates {
  if (templates) return templates;
  const doc = JSON.parse(readFileSync(REFERENCE, 'utf8')) as {
    paths: Record<string, { get: { responses: Record<string, unknown> } }>;
  };
  const firstExample = (path: string): { data: Resource[] } => {
    const content = (
      doc.paths[path]!.get.responses['200'] as {
        content: { 'application/json': { examples: Record<string, { value: unknown }> } };
      }
    ).content['application/json'];
    return Object.values(content.examples)[0]!.value as { data: Resource[] };
  };
  // Generated records copy a template's top level and share what lies below (a deep copy of each
  // template cost a full walk of 100k shipments about 20 s); frozen, so a change to a shared part
  // throws instead of changing every record.
  templates = deepFreeze({
    shipments: firstExample('/shipments').data,
    containers: firstExample('/containers').data,
    events: firstExample('/containers/{id}/transport_events').data,
  });
  return templates;
}

export interface T49ServerOptions {
  shipments: number;
  containersPerShipment: number;
  /** Shipments still tracked (the newest ones); the rest are finished history. */
  active: number;
  apiKey?: string;
  /** Requests allowed per rolling minute (real time); null or absent: unlimited. */
  requestsPerMinute?: number | null;
  /** Every n-th record is sparse (spec-required members only); 0: none. Default 5. */
  sparseEvery?: number;
  /** Wall clock for the rate limit (tests may pass their own). */
  now?: () => number;
}

export interface T49Server {
  /** The base address, ending in /v2. */
  url: string;
  apiKey: string;
  /** Requests answered (rate-limited ones included), and their paths. */
  readonly requests: { count: number; log: string[] };
  shipmentId(index: number): string;
  containerId(shipment: number, k: number): string;
  /** What the service would answer for one record now (a copy). */
  shipment(index: number): Resource;
  container(shipment: number, k: number): Resource;
  events(shipment: number, k: number): Resource[];
  terminal(index: number): Resource;
  /** Indices of the active shipments. */
  activeShipments(): number[];
  /** A tracked container changes: status, deadlines and one more transport event. */
  changeContainer(shipment: number, k: number): void;
  /** A new tracking request whose shipment is created at once (active, new containers). */
  trackNew(): number;
  /** Sends these attribute values in one record from now on (values real accounts carry). */
  setAttributes(id: string, attributes: Json): void;
  /** Makes one record malformed (kept until `repair`): a string where an object belongs. */
  breakRecord(type: 'shipment' | 'container' | 'transport_event' | 'terminal', id: string): void;
  repair(id: string): void;
  close(): Promise<void>;
}

const BASE_TIME = Date.UTC(2024, 5, 1);
const TERMINALS = 7;
const PORTS = 5;

const hex = (n: number, width = 12) => n.toString(16).padStart(width, '0');
const uuid = (prefix: string, n: number) => `${prefix}-0000-4000-8000-${hex(n)}`;
const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');
const clone = <T>(value: T): T => structuredClone(value);

const ACTIVE_STATUSES = ['on_ship', 'available', 'not_available', 'grounded', 'on_rail'] as const;

export async function startT49CompatibleServer(options: T49ServerOptions): Promise<T49Server> {
  const tpl = referenceTemplates();
  const apiKey = options.apiKey ?? 't49-test-key';
  const sparseEvery = options.sparseEvery ?? 5;
  const now = options.now ?? Date.now;
  const perShipment = options.containersPerShipment;
  let shipmentCount = options.shipments;
  let activeFrom = options.shipments - options.active;
  /** Version per changed container (absent: 0). */
  const versions = new Map<number, number>();
  /** Tracking requests: shipment index and when the request last changed. */
  const trackingRequests: { shipment: number; updatedAt: number }[] = [];
  const broken = new Set<string>();
  const patches = new Map<string, Json>();
  const recent: number[] = [];
  const requests = { count: 0, log: [] as string[] };

  const shipmentId = (i: number) => uuid('51000000', i);
  const containerId = (i: number, k: number) => uuid('c1000000', i * perShipment + k);
  const terminalId = (t: number) => uuid('71000000', t);
  const portId = (p: number) => uuid('b1000000', p);
  const isActive = (i: number) => i >= activeFrom;
  const isSparse = (n: number) => sparseEvery > 0 && n % sparseEvery === sparseEvery - 1;

  function containerNumber(flat: number): string {
    const first10 = `TCLU${String(flat % 1_000_000).padStart(6, '0')}`;
    return `${first10}${checkDigit(first10)}`;
  }

  function shipment(i: number): Resource {
    const id = shipmentId(i);
    const containers = {
      data: Array.from({ length: perShipment }, (_, k) => ({
        id: containerId(i, k),
        type: 'container',
      })),
    };
    const bol = `OOLU${String(2_100_000_000 + i)}`;
    if (isSparse(i)) {
      return {
        id,
        type: 'shipment',
        attributes: { bill_of_lading_number: bol },
        relationships: { containers },
        links: { self: `/v2/shipments/${id}` },
      };
    }
    const base = tpl.shipments[i % tpl.shipments.length]!;
    const created = BASE_TIME + i * 60_000;
    const attributes: Json = {
      ...base.attributes,
      bill_of_lading_number: bol,
      normalized_number: bol.slice(4),
      created_at: iso(created),
      ref_numbers: i % 3 === 0 ? null : [`PO-${i}`],
      customer_name: i % 4 === 0 ? null : `Customer ${i % 17}`,
      line_tracking_stopped_at: isActive(i) ? null : iso(created + 40 * 86_400_000),
      line_tracking_stopped_reason: isActive(i) ? null : 'all_containers_terminated',
      // Real records carry attributes Quayside does not know.
      shipment_tags: [],
      booking_number_alt: i % 2 === 0 ? null : `BK${i}`,
    };
    delete attributes.updated_at;
    return {
      id,
      type: 'shipment',
      attributes,
      relationships: {
        ...(base.relationships as Json),
        port_of_lading: { data: { id: portId(i % PORTS), type: 'port' } },
        port_of_discharge: { data: { id: portId((i + 1) % PORTS), type: 'port' } },
        pod_terminal: { data: { id: terminalId(i % TERMINALS), type: 'terminal' } },
        destination: { data: null },
        destination_terminal: { data: null },
        containers,
      },
      links: { self: `/v2/shipments/${id}` },
    };
  }

  function container(i: number, k: number): Resource {
    const flat = i * perShipment + k;
    const id = containerId(i, k);
    const version = versions.get(flat) ?? 0;
    if (isSparse(flat) && version === 0) {
      return {
        id,
        type: 'container',
        attributes: { number: containerNumber(flat) },
        relationships: { shipment: { data: { id: shipmentId(i), type: 'shipment' } } },
      };
    }
    const base = tpl.containers[flat % tpl.containers.length]!;
    const created = BASE_TIME + i * 60_000;
    const status = isActive(i)
      ? ACTIVE_STATUSES[(flat + version) % ACTIVE_STATUSES.length]!
      : 'empty_returned';
    const lfd = iso(BASE_TIME + (30 + (i % 60) + version) * 86_400_000);
    const attributes: Json = {
      ...base.attributes,
      number: containerNumber(flat),
      created_at: iso(created),
      current_status: status,
      pickup_lfd: isActive(i) ? lfd : null,
      available_for_pickup: status === 'available',
      holds_at_pod_terminal:
        status === 'not_available' ? [{ name: 'customs', status: 'hold', description: null }] : [],
      pod_full_out_at: isActive(i) ? null : iso(created + 20 * 86_400_000),
      empty_terminated_at: isActive(i) ? null : iso(created + 35 * 86_400_000),
      import_deadlines: isActive(i)
        ? { pickup_lfd_terminal: lfd, pickup_lfd_rail: null, pickup_lfd_line: null }
        : null,
      // A weight sent as a string, and an attribute Quayside does not know.
      weight_in_lbs: flat % 2 === 0 ? String(20_000 + flat) : null,
      ...(version > 0 ? { location_at_pod_terminal: `Row ${version}` } : {}),
      last_status_refresh_source: 'terminal',
    };
    delete attributes.updated_at;
    return {
      id,
      type: 'container',
      attributes,
      relationships: {
        shipment: { data: { id: shipmentId(i), type: 'shipment' } },
        pod_terminal: { data: { id: terminalId(i % TERMINALS), type: 'terminal' } },
        pickup_facility: { data: null },
        transport_events: {
          data: eventIds(i, k).map((e) => ({ id: e, type: 'transport_event' })),
        },
        raw_events: { data: [] },
      },
    };
  }

  const eventCount = (flat: number) => 3 + (versions.get(flat) ?? 0);
  const eventIds = (i: number, k: number) => {
    const flat = i * perShipment + k;
    return Array.from({ length: eventCount(flat) }, (_, n) => uuid('e1000000', flat * 256 + n));
  };

  function events(i: number, k: number): Resource[] {
    const flat = i * perShipment + k;
    return eventIds(i, k).map((id, n) => {
      const base = tpl.events[n % tpl.events.length]!;
      if (isSparse(flat + n)) return { id, type: 'transport_event' };
      return {
        ...base,
        id,
        attributes: {
          ...base.attributes,
          created_at: iso(BASE_TIME + i * 60_000 + n * 3_600_000),
          timestamp: n % 2 === 0 ? iso(BASE_TIME + i * 60_000 + n * 3_600_000) : null,
        },
        relationships: {
          ...(base.relationships as Json),
          shipment: { data: { id: shipmentId(i), type: 'shipment' } },
          container: { data: { id: containerId(i, k), type: 'container' } },
          location: { data: { id: portId(n % PORTS), type: 'port' } },
          vessel: { data: null },
          terminal: { data: null },
        },
      };
    });
  }

  function terminal(t: number): Resource {
    return {
      id: terminalId(t),
      type: 'terminal',
      attributes: {
        name: `Pier ${t} Container Terminal`,
        nickname: t % 2 === 0 ? `P${t}` : null,
        firms_code: `Y${String(t).padStart(3, '0')}`,
        smdg_code: null,
        bic_facility_code: null,
        city: t % 3 === 0 ? null : 'Long Beach',
        gate_hours_url: null,
      },
      relationships: { port: { data: { id: portId(t % PORTS), type: 'port' } } },
    };
  }

  function port(p: number): Resource {
    return {
      id: portId(p),
      type: 'port',
      attributes: {
        name: `Port ${p}`,
        code: `USP${p}X`,
        state_abbr: null,
        city: null,
        country_code: 'US',
        time_zone: 'America/Los_Angeles',
        // Real port records send coordinates as strings.
        latitude: String(33.7 + p / 10),
        longitude: String(-118.2 - p / 10),
      },
    };
  }

  /** A record with the attributes a test set on it (`setAttributes`). */
  const patched = (r: Resource): Resource => {
    const patch = patches.get(r.id);
    return patch ? { ...r, attributes: { ...r.attributes, ...clone(patch) } } : r;
  };
  const withBreak = (r: Resource): unknown =>
    broken.has(r.id) ? { ...r, attributes: 'oops' } : patched(r);

  function trackingRequest(n: number): Resource {
    const tr = trackingRequests[n]!;
    return {
      id: uuid('d1000000', n),
      type: 'tracking_request',
      attributes: {
        request_number: `OOLU${String(2_100_000_000 + tr.shipment)}`,
        request_type: 'bill_of_lading',
        scac: 'OOLU',
        ref_numbers: [],
        shipment_tags: [],
        created_at: iso(tr.updatedAt),
        updated_at: iso(tr.updatedAt),
        status: 'created',
        failed_reason: null,
        is_retrying: false,
        retry_count: null,
      },
      relationships: {
        tracked_object: { data: { id: shipmentId(tr.shipment), type: 'shipment' } },
        customer: { data: null },
      },
      links: { self: `/v2/tracking_requests/${uuid('d1000000', n)}` },
    };
  }

  function includedFor(
    include: Set<string>,
    shipments: number[],
    containers: [number, number][],
  ): unknown[] {
    const out: unknown[] = [];
    const seen = new Set<string>();
    const add = (r: Resource) => {
      if (seen.has(r.id)) return;
      seen.add(r.id);
      out.push(withBreak(r));
    };
    if (include.has('containers')) {
      for (const i of shipments) {
        for (let k = 0; k < perShipment; k++) add(container(i, k));
      }
    }
    if (include.has('shipment')) for (const [i] of containers) add(shipment(i));
    if (include.has('pod_terminal')) {
      for (const i of [...shipments, ...containers.map(([i]) => i)]) add(terminal(i % TERMINALS));
    }
    if (include.has('port_of_discharge')) for (const i of shipments) add(port((i + 1) % PORTS));
    if (include.has('transport_events')) {
      for (const [i, k] of containers) for (const e of events(i, k)) add(e);
    }
    return out;
  }

  function listPage(
    url: URL,
    total: number,
    at: (n: number) => unknown,
    included: (from: number, to: number) => unknown[],
  ) {
    const size = Math.max(1, Math.min(100, Number(url.searchParams.get('page[size]')) || 30));
    const number = Math.max(1, Math.floor(Number(url.searchParams.get('page[number]')) || 1));
    const from = (number - 1) * size;
    const to = Math.min(total, from + size);
    const data: unknown[] = [];
    for (let n = from; n < to; n++) data.push(at(n));
    const link = (page: number) => {
      const u = new URL(url);
      u.searchParams.set('page[number]', String(page));
      u.searchParams.set('page[size]', String(size));
      return u.toString();
    };
    const last = Math.max(1, Math.ceil(total / size));
    return {
      data,
      included: included(from, to),
      links: {
        self: url.toString(),
        current: link(number),
        ...(number < last ? { next: link(number + 1) } : {}),
        last: link(last),
      },
      meta: { size, total },
    };
  }

  const errorBody = (status: number, title: string, detail: string) => ({
    errors: [{ status: String(status), title, detail }],
  });

  function route(url: URL): { status: number; body: unknown } {
    const path = url.pathname.replace(/^\/v2/, '');
    const include = new Set((url.searchParams.get('include') ?? '').split(',').filter(Boolean));
    if (path === '/shipments') {
      const stopped = url.searchParams.get('filter[tracking_stopped]');
      const from = stopped === 'false' ? activeFrom : 0;
      const to = stopped === 'true' ? activeFrom : shipmentCount;
      return {
        status: 200,
        body: listPage(
          url,
          to - from,
          (n) => withBreak(shipment(from + n)),
          (a, b) =>
            includedFor(
              include,
              Array.from({ length: b - a }, (_, n) => from + a + n),
              [],
            ),
        ),
      };
    }
    if (path === '/containers') {
      const at = (n: number): [number, number] => [Math.floor(n / perShipment), n % perShipment];
      return {
        status: 200,
        body: listPage(
          url,
          shipmentCount * perShipment,
          (n) => withBreak(container(...at(n))),
          (a, b) =>
            includedFor(
              include,
              [],
              Array.from({ length: b - a }, (_, n) => at(a + n)),
            ),
        ),
      };
    }
    if (path === '/tracking_requests') {
      const start = Date.parse(url.searchParams.get('filter[updated_at][start]') ?? '');
      const matching = trackingRequests
        .map((_, n) => n)
        .filter((n) => Number.isNaN(start) || trackingRequests[n]!.updatedAt >= start);
      return {
        status: 200,
        body: listPage(
          url,
          matching.length,
          (n) => trackingRequest(matching[n]!),
          () => [],
        ),
      };
    }
    const single = /^\/(shipments|containers)\/([^/]+)(\/transport_events|\/map_geojson)?$/.exec(
      path,
    );
    if (single) {
      const [, kind, id, sub] = single;
      const n = Number.parseInt(id!.slice(-12), 16);
      const known =
        kind === 'shipments'
          ? id === shipmentId(n) && n < shipmentCount
          : id === uuid('c1000000', n) && n < shipmentCount * perShipment;
      if (!known) return { status: 404, body: errorBody(404, 'Not Found', 'No such record.') };
      if (sub === '/map_geojson') {
        return {
          status: 403,
          body: errorBody(403, 'Forbidden', 'Route maps are not part of this plan.'),
        };
      }
      if (kind === 'shipments') {
        return {
          status: 200,
          body: { data: withBreak(shipment(n)), included: includedFor(include, [n], []) },
        };
      }
      const [i, k] = [Math.floor(n / perShipment), n % perShipment];
      if (sub === '/transport_events') {
        const list = events(i, k);
        return {
          status: 200,
          body: listPage(
            url,
            list.length,
            (e) => withBreak(list[e]!),
            () => [],
          ),
        };
      }
      return {
        status: 200,
        body: { data: withBreak(container(i, k)), included: includedFor(include, [], [[i, k]]) },
      };
    }
    return { status: 404, body: errorBody(404, 'Not Found', `No route ${path}.`) };
  }

  function handle(req: IncomingMessage, res: ServerResponse): void {
    requests.count++;
    const url = new URL(req.url ?? '/', `http://${req.headers.host ?? '127.0.0.1'}`);
    requests.log.push(`${url.pathname}${url.search}`);
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/vnd.api+json', ...headers });
      res.end(JSON.stringify(body));
    };
    if (req.headers.authorization !== `Token ${apiKey}`) {
      send(401, errorBody(401, 'Unauthorized', 'Missing or invalid API key.'));
      return;
    }
    if (options.requestsPerMinute) {
      const t = now();
      while (recent.length > 0 && recent[0]! <= t - 60_000) recent.shift();
      if (recent.length >= options.requestsPerMinute) {
        const retry = Math.max(1, Math.ceil((recent[0]! + 60_000 - t) / 1000));
        send(429, errorBody(429, 'Too Many Requests', 'Rate limit exceeded.'), {
          'retry-after': String(retry),
        });
        return;
      }
      recent.push(t);
    }
    if (req.method !== 'GET') {
      send(405, errorBody(405, 'Method Not Allowed', 'Only GET is served here.'));
      return;
    }
    const { status, body } = route(url);
    send(status, body);
  }

  const server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port: listening } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${listening}/v2`,
    apiKey,
    requests,
    shipmentId,
    containerId,
    shipment: (i) => clone(patched(shipment(i))),
    container: (i, k) => clone(patched(container(i, k))),
    events: (i, k) => clone(events(i, k).map(patched)),
    terminal: (t) => clone(patched(terminal(t))),
    activeShipments: () =>
      Array.from({ length: shipmentCount - activeFrom }, (_, n) => activeFrom + n),
    changeContainer(i, k) {
      if (!isActive(i)) throw new Error(`shipment ${i} is not tracked any more`);
      const flat = i * perShipment + k;
      versions.set(flat, (versions.get(flat) ?? 0) + 1);
    },
    trackNew() {
      const i = shipmentCount++;
      trackingRequests.push({ shipment: i, updatedAt: now() });
      if (activeFrom > i) activeFrom = i;
      return i;
    },
    setAttributes: (id, attributes) => void patches.set(id, clone(attributes)),
    breakRecord: (_type, id) => void broken.add(id),
    repair: (id) => void broken.delete(id),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
