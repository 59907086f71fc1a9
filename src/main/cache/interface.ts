/**
 * The cache as the rest of the app sees it: a typed interface, with the SQLite implementation
 * (`Cache`) behind it. Everything here is plain data in and out, so the implementation could move
 * to a worker thread later without the callers changing shape (they would await the same calls).
 */
import type {
  CachedContainer,
  CachedEvent,
  CachedShipment,
  CachedTerminal,
} from '../../shared/cached-resources';
import type { AlertKind, LfdDeadline } from '../../shared/container';
import type { AlertDraft, AlertList, AlertRecord, TruckerRecord } from '../../shared/desktop';
import type { BoardQueries } from './board-query';
import type { ReceivedInvoice } from '../../shared/charges/statement';
import type { RecordedDeliveryOrder } from '../../shared/delivery-order';

/** What a delivery order said, as the cache keeps it. */
export type StoredDeliveryOrder = RecordedDeliveryOrder;

/** A received invoice as the cache keeps it. */
export interface StoredInvoice extends ReceivedInvoice {
  containerId: string;
  containerNumber: string | null;
  shipmentId: string | null;
  enteredAt: string;
}
import type { CustomFieldDefinitionRecord, CustomFieldValueSet } from './custom-fields';
import type { PreparedPage } from './prepared-page';

/** What one page write changed: each changed record as it was stored before and as it is now. */
export interface PageChanges {
  shipments: { before: CachedShipment | null; after: CachedShipment; containerIds: string[] }[];
  containers: { before: CachedContainer | null; after: CachedContainer }[];
}

/**
 * Works out the alerts of a page write from its changes. A pure function of the changes: it
 * neither reads nor writes the cache, so the flow stays write -> detect -> store -> notify.
 */
export type AlertDetector = (changes: PageChanges) => AlertDraft[];

/** One page of a sync walk: the primary records and whatever the server included. */
export interface CachePage {
  shipments?: readonly CachedShipment[];
  containers?: readonly CachedContainer[];
  terminals?: readonly CachedTerminal[];
  /** Complete event histories by container id (when the server included them). */
  events?: ReadonlyMap<string, readonly CachedEvent[]>;
  /** Complete custom field value sets of records on the page (those the server sent). */
  customFieldValues?: readonly CustomFieldValueSet[];
}

export interface PageOutcome {
  shipmentsChanged: number;
  containersChanged: number;
  changedContainerIds: string[];
  /** The alerts this write stored (new ones only), for the caller to notify. */
  alerts: AlertRecord[];
}

export interface RouteMapRecord {
  containerId: string;
  geojson: string;
  fetchedAt: string;
  etag: string | null;
  completed: boolean;
}

/** A container whose route map is due to be fetched. */
export interface DueRouteMap {
  id: string;
  /** Arrived: the fetched map is the journey's final one. */
  arrived: boolean;
}

/** One range of the containers scanned for due route maps. */
export interface DueRouteMapScan {
  due: DueRouteMap[];
  /** Where the next range starts (pass it as `after`), or null when this was the last. */
  next: number | null;
  /** The last position in the containers' order, for progress. */
  last: number;
}

/** A last free day still ahead of a container at the terminal (for "LFD approaching" alerts). */
export interface UpcomingDeadline {
  id: string;
  number: string;
  /** One deadline of the shared LFD rule: a calendar day of its zone, ending at its midnight. */
  deadline: LfdDeadline;
  firstSeenAt: string;
  terminalName: string | null;
}

export interface AlertListOptions {
  unreadOnly?: boolean;
  containerId?: string;
  kinds?: readonly AlertKind[];
  offset?: number;
  limit?: number;
}

export interface CacheStore {
  /** Where the cache lives (its file). */
  readonly path: string;
  /** Board, detail, facet and CSV reads. */
  readonly board: BoardQueries;
  close(): void;
  clear(): void;
  sizeBytes(): number;
  counts(): { shipments: number; containers: number; events: number };

  // Sync writes
  /** A run of writes ended (a sync): fold the log into the file now, off this thread. */
  requestCheckpoint(): void;
  applyPage(page: CachePage, now: string, detectAlerts?: AlertDetector): PageOutcome;
  /** applyPage for a page whose rows were already projected (cache/prepared-page.ts). */
  applyPreparedPage(page: PreparedPage, now: string, detectAlerts?: AlertDetector): PageOutcome;
  replaceEvents(
    containerId: string,
    events: readonly CachedEvent[],
    options?: { complete?: boolean },
  ): void;
  staleEventContainers(): string[];
  deleteMissing(kind: 'shipments' | 'containers', seenIds: ReadonlySet<string>): number;
  deleteContainer(id: string): void;
  replaceCustomFieldDefinitions(definitions: readonly CustomFieldDefinitionRecord[]): void;
  /** The cached custom field definitions. */
  customFieldDefinitions(): CustomFieldDefinitionRecord[];
  /** A record's cached custom field values by api_slug. */
  customFieldValuesOf(entityType: 'shipment' | 'container', id: string): Record<string, unknown>;
  /** Replaces the cached truckers with the service's complete list (read: `board.truckers()`). */
  replaceTruckers(truckers: readonly TruckerRecord[]): void;

  // Route maps
  /**
   * Route maps to fetch among the next range of containers after position `after` (0 first):
   * at sea with none or one fetched before `staleBefore`, or arrived since the last fetch.
   */
  dueRouteMaps(staleBefore: string, after: number): DueRouteMapScan;
  /** Whether the container has arrived at its destination (its map can be final). */
  containerArrived(id: string): boolean;
  getRouteMap(containerId: string): RouteMapRecord | null;
  putRouteMap(map: RouteMapRecord): void;
  touchRouteMap(containerId: string, fetchedAt: string, completed: boolean): void;

  /** Ids of the containers on shipments for this customer (by name), oldest first, at most `limit`. */
  customerContainerIds(customer: string, limit: number): string[];

  // Delivery orders (made on this desktop or read from the service's documents)
  /** Keeps what the container's latest delivery order said (an older one never replaces it). */
  recordDeliveryOrder(order: StoredDeliveryOrder): void;
  /** Every container's latest delivery order. */
  deliveryOrders(): StoredDeliveryOrder[];
  /** A cached terminal's FIRMS code, if it has one. */
  terminalFirmsCode(terminalId: string): string | null;

  // Received D&D invoices (entered by the user)
  receivedInvoice(containerId: string): StoredInvoice | null;
  /** Stores (or, with null, removes) the invoice entered for a container. */
  setReceivedInvoice(containerId: string, invoice: ReceivedInvoice | null, now: string): void;
  /** Invoices dated on or after `fromDate` (`yyyy-MM-dd`), with their container's number. */
  receivedInvoicesSince(fromDate: string): StoredInvoice[];

  // Alerts
  insertAlerts(drafts: readonly AlertDraft[], now: string): AlertRecord[];
  listAlerts(options?: AlertListOptions): AlertList;
  markAlertsRead(now: string, ids?: readonly number[]): number;
  unnotifiedAlerts(): AlertRecord[];
  markNotified(ids: readonly number[], now: string): void;
  upcomingDeadlines(fromIso: string): UpcomingDeadline[];
  /** Which of these alert dedupe keys are stored already. */
  storedAlertKeys(keys: readonly string[]): Set<string>;
  /** When the newest stored alert was raised (app clock, ISO), or null: the clock's floor. */
  newestAlertAt(): string | null;

  // Sync state
  getState<T>(key: string): T | null;
  setState(key: string, value: unknown): void;
  /** Several state values in one transaction: all are written or none. */
  setStates(values: Readonly<Record<string, unknown>>): void;
  deleteState(key: string): void;
}
