/**
 * What the assistant tools (src/shared/mcp/tools.ts) read, whichever home serves them: the
 * desktop cache (`quayside mcp`, src/main/mcp) or the service's store (`/mcp`,
 * src/service/mcp). Each home answers for one account only; the tools shape every answer.
 */
import type { CachedContainer, CachedEvent, CachedShipment } from '../cached-resources';
import type { CostTables } from '../cost-clock';
import type { BoardRow, CustomFieldColumn, ShipmentListRow } from '../desktop';
import type { DocumentSummary } from '../documents';

export interface ContainerFilter {
  status?: string;
  /** Port of discharge UN/LOCODE. */
  port?: string;
  /** Shipping line SCAC. */
  carrier?: string;
  /** ISO instant: only containers updated at or after it. */
  updatedAfter?: string;
}

export interface ShipmentFilter {
  port?: string;
  carrier?: string;
  updatedAfter?: string;
  /** `active` (still tracked) or `stopped`. */
  status?: 'active' | 'stopped';
}

export interface TrackingRequestFilter {
  status?: string;
  requestType?: string;
}

export interface TrackingRequestBrief {
  id: string;
  requestNumber: string;
  requestType: string;
  scac: string | null;
  status: string;
  failedReason: string | null;
  createdAt: string;
  shipmentId: string | null;
}

export interface PageOf<T> {
  total: number;
  rows: T[];
}

export interface Paging {
  offset: number;
  limit: number;
}

/** A number to track, checked and normalised by the tool before the source sees it. */
export interface TrackPlan {
  number: string;
  requestType: 'container' | 'bill_of_lading' | 'booking_number';
  scac: string;
  refNumbers: string[];
}

export type TrackOutcome =
  | { kind: 'created'; trackingRequestId: string; status: string }
  | { kind: 'refused'; reason: string }
  | { kind: 'unavailable'; reason: string };

export interface ContainerRecord {
  row: BoardRow;
  container: CachedContainer;
  shipment: CachedShipment | null;
}

export interface McpSource {
  /** Where answers come from, in a few words ("desktop cache", "Quayside service"). */
  readonly name: string;
  /** The time the data is true at: the cache's last complete sync, or now for the service. */
  asOf(): Promise<string | null>;
  /** Now, on the clock the data keeps (the simulated one in demo mode). */
  now(): number;
  /** Tariffs for the cost clock (the app's settings, else the seeded defaults). */
  costTables(): CostTables;

  /** Containers whose number, B/L, booking or reference numbers match (exact or partial). */
  findContainers(text: string, limit: number): Promise<BoardRow[]>;
  findShipments(text: string, limit: number): Promise<ShipmentListRow[]>;

  container(id: string): Promise<ContainerRecord | null>;
  /** Newest first; null when the container is unknown. */
  events(containerId: string): Promise<CachedEvent[] | null>;
  shipment(id: string): Promise<{ shipment: CachedShipment; containers: BoardRow[] } | null>;

  containers(filter: ContainerFilter, page: Paging): Promise<PageOf<BoardRow>>;
  shipments(filter: ShipmentFilter, page: Paging): Promise<PageOf<ShipmentListRow>>;
  /** Null when this home does not keep tracking requests. */
  trackingRequests(
    filter: TrackingRequestFilter,
    page: Paging,
  ): Promise<PageOf<TrackingRequestBrief> | null>;
  shippingLines(): Promise<{ scac: string; name: string }[]>;

  /**
   * Boxes still at or on their way to a terminal (the worklist's, the cost clock's and the LFD
   * and hold tools' rows), at most `limit`; `complete` false when more were left out.
   */
  activeRows(limit: number): Promise<{ rows: BoardRow[]; complete: boolean }>;

  /** Null when this home keeps no documents. */
  documents(filter: { shipmentId?: string }, page: Paging): Promise<PageOf<DocumentSummary> | null>;
  customFieldColumns(): Promise<CustomFieldColumn[]>;

  track(plan: TrackPlan): Promise<TrackOutcome>;
}
