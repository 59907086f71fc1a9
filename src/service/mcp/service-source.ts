/**
 * The assistant tools' source in the service: every read and the tracking request go through
 * the account's own /v2 routes (injected in process with the caller's key), so authorisation,
 * account scoping, rendering and the tracking-request use case are exactly the API's.
 */
import type { FastifyInstance } from 'fastify';
import type { CachedContainer, CachedEvent, CachedShipment } from '../../shared/cached-resources';
import { hasLeftTerminal, isCompleted } from '../../shared/container';
import { documentRecord, documentSummary, includedIndex } from '../../shared/document-record';
import type { DocumentSummary } from '../../shared/documents';
import { DEFAULT_COST_TABLES } from '../../shared/cost-clock';
import type { BoardRow, CustomFieldColumn, ShipmentListRow } from '../../shared/desktop';
import { normaliseIdentifier } from '../../shared/find-link';
import { CONTAINER_NUMBER_SHAPE } from '../../shared/iso6346';
import { boardRowOf } from '../../shared/mcp/board-row';
import type { McpSource, PageOf, Paging, TrackingRequestBrief } from '../../shared/mcp/source';
import type { Clock } from '../../shared/clock';

/** Records a filter the /v2 routes lack reads at most (in pages of 100). */
export const SCAN_LIMIT = 2000;
const STEP = 100;

interface Resource {
  id: string;
  type: string;
  attributes: Record<string, unknown>;
  relationships?: Record<string, { data?: { id: string; type: string } | { id: string }[] | null }>;
}
interface Doc {
  data: Resource | Resource[];
  included?: Resource[];
  meta?: { total?: number };
}

class V2Error extends Error {
  constructor(
    readonly status: number,
    detail: string,
  ) {
    super(detail);
  }
}

const oneId = (r: Resource, name: string): string | null => {
  const data = r.relationships?.[name]?.data;
  return data && !Array.isArray(data) ? data.id : null;
};

export function serviceMcpSource(
  app: FastifyInstance,
  authorization: string,
  clock: Clock,
): McpSource {
  async function v2(method: 'GET' | 'POST', url: string, body?: unknown): Promise<Doc | null> {
    const res = await app.inject({
      method,
      url: `/v2${url}`,
      headers: {
        authorization,
        ...(body ? { 'content-type': 'application/vnd.api+json' } : {}),
      },
      payload: body ? JSON.stringify(body) : undefined,
    });
    if (res.statusCode === 404) return null;
    const doc = res.json() as Doc & { errors?: { detail?: string; title?: string }[] };
    if (res.statusCode >= 400) {
      const e = doc.errors?.[0];
      throw new V2Error(res.statusCode, e?.detail ?? e?.title ?? `HTTP ${res.statusCode}`);
    }
    return doc;
  }

  const list = (doc: Doc | null) => (doc ? (Array.isArray(doc.data) ? doc.data : [doc.data]) : []);

  /** Container rows of one /v2 page (shipment and terminal included). */
  function rowsOf(doc: Doc | null): BoardRow[] {
    const included = new Map((doc?.included ?? []).map((r) => [`${r.type}:${r.id}`, r]));
    return list(doc).map((c) => {
      const shipmentId = oneId(c, 'shipment');
      const terminalId = oneId(c, 'pod_terminal');
      const shipment = shipmentId ? included.get(`shipment:${shipmentId}`) : undefined;
      const terminal = terminalId ? included.get(`terminal:${terminalId}`) : undefined;
      return boardRowOf(
        c as unknown as CachedContainer,
        (shipment as unknown as CachedShipment | undefined) ?? null,
        (terminal?.attributes.name as string | undefined) ?? null,
      );
    });
  }

  const containerPage = async (p: Paging, since?: string) => {
    const query = new URLSearchParams({
      'page[number]': String(p.offset / p.limit + 1),
      'page[size]': String(p.limit),
      include: 'shipment,pod_terminal',
    });
    if (since) query.set('filter[updated_at][start]', since);
    const doc = await v2('GET', `/containers?${query}`);
    return { total: doc?.meta?.total ?? 0, rows: rowsOf(doc) };
  };

  /** Up to `limit` containers, most recently updated first. */
  async function scanContainers(limit: number, since?: string) {
    const rows: BoardRow[] = [];
    let total = 0;
    for (let offset = 0; offset < limit; offset += STEP) {
      const page = await containerPage({ offset, limit: STEP }, since);
      total = page.total;
      rows.push(...page.rows);
      if (page.rows.length < STEP) break;
    }
    return { rows: rows.slice(0, limit), complete: rows.length >= total };
  }

  const shipmentRow = (s: Resource): ShipmentListRow => {
    const a = (s as unknown as CachedShipment).attributes;
    const containers = s.relationships?.containers?.data;
    return {
      id: s.id,
      billOfLading: a.bill_of_lading_number,
      lineScac: a.shipping_line_scac,
      customer: a.customer_name,
      polLocode: a.port_of_lading_locode,
      podLocode: a.port_of_discharge_locode,
      vessel: a.pod_vessel_name,
      voyage: a.pod_voyage_number,
      etaAt: a.pod_eta_at,
      ataAt: a.pod_ata_at,
      containers: Array.isArray(containers) ? containers.length : 0,
    };
  };

  async function scanShipments(limit: number, query: Record<string, string>) {
    const out: Resource[] = [];
    for (let page = 1; (page - 1) * STEP < limit; page++) {
      const q = new URLSearchParams({
        ...query,
        'page[number]': String(page),
        'page[size]': String(STEP),
      });
      const rows = list(await v2('GET', `/shipments?${q}`));
      out.push(...rows);
      if (rows.length < STEP) break;
    }
    return out.slice(0, limit);
  }

  const pageOf = <T>(rows: T[], p: Paging): PageOf<T> => ({
    total: rows.length,
    rows: rows.slice(p.offset, p.offset + p.limit),
  });

  return {
    name: 'Quayside service',
    asOf: async () => new Date(clock.now()).toISOString(),
    now: () => clock.now(),
    costTables: () => DEFAULT_COST_TABLES,
    findContainers: async (text, limit) => {
      const needle = normaliseIdentifier(text);
      // A whole container number is one filtered request; only other text needs the scan.
      if (CONTAINER_NUMBER_SHAPE.test(needle)) {
        const query = new URLSearchParams({
          'filter[number]': needle,
          include: 'shipment,pod_terminal',
        });
        const exact = rowsOf(await v2('GET', `/containers?${query}`));
        if (exact.length > 0) return exact.slice(0, limit);
      }
      const { rows } = await scanContainers(SCAN_LIMIT);
      const hit = (value: string | null | undefined) =>
        !!value && normaliseIdentifier(value).includes(needle);
      return rows.filter((r) => hit(r.number) || hit(r.billOfLading)).slice(0, limit);
    },
    findShipments: async (text, limit) => {
      const needle = normaliseIdentifier(text);
      const hit = (value: unknown) =>
        typeof value === 'string' && normaliseIdentifier(value).includes(needle);
      return (await scanShipments(SCAN_LIMIT, {}))
        .filter(
          (s) =>
            hit(s.attributes.bill_of_lading_number) ||
            ((s.attributes.ref_numbers as string[] | null) ?? []).some(hit),
        )
        .slice(0, limit)
        .map(shipmentRow);
    },
    container: async (id) => {
      const doc = await v2(
        'GET',
        `/containers/${encodeURIComponent(id)}?include=shipment,pod_terminal`,
      );
      if (!doc) return null;
      const [row] = rowsOf(doc);
      const shipment = (doc.included ?? []).find((r) => r.type === 'shipment');
      return {
        row: row!,
        container: doc.data as unknown as CachedContainer,
        shipment: (shipment as unknown as CachedShipment | undefined) ?? null,
      };
    },
    events: async (id) => {
      const doc = await v2('GET', `/containers/${encodeURIComponent(id)}/transport_events`);
      if (!doc) return null;
      const events = list(doc) as unknown as CachedEvent[];
      const at = (e: CachedEvent) =>
        e.attributes.timestamp ? Date.parse(e.attributes.timestamp) : -Infinity;
      return events.sort((a, b) => at(b) - at(a));
    },
    shipment: async (id) => {
      const doc = await v2('GET', `/shipments/${encodeURIComponent(id)}?include=containers`);
      if (!doc) return null;
      const shipment = doc.data as unknown as CachedShipment;
      const containers = (doc.included ?? [])
        .filter((r) => r.type === 'container')
        .map((c) => boardRowOf(c as unknown as CachedContainer, shipment, null));
      return { shipment, containers };
    },
    containers: async (filter, p) => {
      if (!filter.status && !filter.port && !filter.carrier)
        return containerPage(p, filter.updatedAfter);
      const { rows } = await scanContainers(SCAN_LIMIT, filter.updatedAfter);
      return pageOf(
        rows.filter(
          (r) =>
            (!filter.status || r.status === filter.status) &&
            (!filter.port || r.podLocode === filter.port) &&
            (!filter.carrier || r.lineScac === filter.carrier),
        ),
        p,
      );
    },
    shipments: async (filter, p) => {
      const query: Record<string, string> = {};
      if (filter.updatedAfter) query['filter[updated_at][start]'] = filter.updatedAfter;
      if (filter.status) query['filter[tracking_stopped]'] = String(filter.status === 'stopped');
      const rows = (await scanShipments(SCAN_LIMIT, query)).map(shipmentRow);
      return pageOf(
        rows.filter(
          (s) =>
            (!filter.port || s.podLocode === filter.port) &&
            (!filter.carrier || s.lineScac === filter.carrier),
        ),
        p,
      );
    },
    trackingRequests: async (filter, p) => {
      const query = new URLSearchParams({
        'page[number]': String(p.offset / p.limit + 1),
        'page[size]': String(p.limit),
      });
      if (filter.status) query.set('filter[status]', filter.status);
      let doc: Doc | null;
      try {
        doc = await v2('GET', `/tracking_requests?${query}`);
      } catch (error) {
        // A status the API does not know is the caller's mistake: say so plainly.
        if (error instanceof V2Error && error.status === 400) return { total: 0, rows: [] };
        throw error;
      }
      const rows: TrackingRequestBrief[] = list(doc)
        .map((t) => ({
          id: t.id,
          requestNumber: t.attributes.request_number as string,
          requestType: t.attributes.request_type as string,
          scac: (t.attributes.scac as string | null) ?? null,
          status: t.attributes.status as string,
          failedReason: (t.attributes.failed_reason as string | null) ?? null,
          createdAt: t.attributes.created_at as string,
          shipmentId: oneId(t, 'tracked_object'),
        }))
        .filter((t) => !filter.requestType || t.requestType === filter.requestType);
      return { total: filter.requestType ? rows.length : (doc?.meta?.total ?? rows.length), rows };
    },
    shippingLines: async () =>
      list(await v2('GET', '/shipping_lines'))
        .filter((l) => l.attributes.container_number_tracking_support !== false)
        .map((l) => ({ scac: l.attributes.scac as string, name: l.attributes.name as string }))
        .sort((a, b) => a.name.localeCompare(b.name)),
    activeRows: async (limit) => {
      const { rows, complete } = await scanContainers(limit);
      return {
        rows: rows.filter((r) => !isCompleted(r.status) && !hasLeftTerminal(r.status)),
        complete,
      };
    },
    documents: async (filter, page) => {
      // The document with its last representation (the numbers read) and its email, read as
      // the desktop's sync reads them; the file itself stays at the service.
      const include = 'include=last_document_representation,email_submission';
      const summaries = (doc: Doc | null): DocumentSummary[] => {
        const included = includedIndex(doc?.included ?? []);
        return list(doc).flatMap((resource) => {
          const record = documentRecord(resource, included);
          return record ? [documentSummary(record, false)] : [];
        });
      };
      if (!filter.shipmentId) {
        // The tools page in multiples of the page size, so the offset is a /v2 page number.
        const number = Math.floor(page.offset / page.limit) + 1;
        const doc = await v2(
          'GET',
          `/documents?${include}&page[number]=${number}&page[size]=${page.limit}`,
        );
        return { total: doc?.meta?.total ?? 0, rows: summaries(doc) };
      }
      // /v2 lists documents without a shipment filter: read up to the scan limit, then filter.
      const matching: DocumentSummary[] = [];
      for (let number = 1; (number - 1) * STEP < SCAN_LIMIT; number++) {
        const doc = await v2(
          'GET',
          `/documents?${include}&page[number]=${number}&page[size]=${STEP}`,
        );
        matching.push(...summaries(doc).filter((d) => d.shipmentIds.includes(filter.shipmentId!)));
        if (list(doc).length < STEP) break;
      }
      return {
        total: matching.length,
        rows: matching.slice(page.offset, page.offset + page.limit),
      };
    },
    customFieldColumns: async () => {
      const doc = await v2('GET', '/custom_field_definitions?include=options&page[size]=100');
      const options = new Map(
        (doc?.included ?? [])
          .filter((r) => r.type === 'custom_field_option')
          .map((o) => [
            o.id,
            { value: o.attributes.value as string, label: o.attributes.label as string },
          ]),
      );
      return list(doc).map((d): CustomFieldColumn => ({
        slug: d.attributes.api_slug as string,
        label: d.attributes.display_name as string,
        dataType: d.attributes.data_type as string,
        on: [d.attributes.entity_type === 'shipment' ? 'Shipment' : 'Container'],
        options: ((d.relationships?.options?.data as { id: string }[] | undefined) ?? [])
          .map((o) => options.get(o.id))
          .filter((o) => o !== undefined),
      }));
    },
    track: async (plan) => {
      try {
        const doc = await v2('POST', '/tracking_requests', {
          data: {
            type: 'tracking_request',
            attributes: {
              request_type: plan.requestType,
              request_number: plan.number,
              scac: plan.scac,
              ...(plan.refNumbers.length > 0 ? { ref_numbers: plan.refNumbers } : {}),
            },
          },
        });
        const created = doc!.data as Resource;
        return {
          kind: 'created',
          trackingRequestId: created.id,
          status: created.attributes.status as string,
        };
      } catch (error) {
        if (error instanceof V2Error && error.status < 500)
          return { kind: 'refused', reason: error.message };
        throw error;
      }
    },
  };
}
