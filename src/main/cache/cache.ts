/**
 * The desktop app's local cache: one SQLite file (WAL, STRICT tables) holding the account's
 * shipments, containers, transport events, route maps, alerts and sync state, so that the app
 * works offline. Every write is one short transaction; all SQL lives in this folder, behind
 * prepared statements.
 *
 * Each kind of data has one owner over the shared connection (connection.ts): records.ts
 * (shipments, containers, terminals), events.ts, custom-field-cache.ts, route-maps.ts,
 * alerts.ts, sync-state.ts, invoices.ts, delivery-orders.ts, truckers.ts, the search rows
 * (search-index.ts) and the board's reads (board-query.ts). `Cache` composes them behind the
 * one `CacheStore` interface; migrate.ts brings an older file up to date on open.
 */
import type Database from 'better-sqlite3';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { CachedContainer, CachedEvent, CachedShipment } from '../../shared/cached-resources';
import type { AlertDraft, AlertList, AlertRecord, TruckerRecord } from '../../shared/desktop';
import type { ReceivedInvoice } from '../../shared/charges/statement';
import { BoardQueries } from './board-query';
import { CacheConnection, IN_MEMORY, openCacheDatabase } from './connection';
import { migrate } from './migrate';
import { AlertsCache } from './alerts';
import { CustomFieldCache } from './custom-field-cache';
import type { CustomFieldDefinitionRecord } from './custom-fields';
import { DeliveryOrdersCache } from './delivery-orders';
import { EventsCache } from './events';
import { InvoicesCache } from './invoices';
import { RecordsCache } from './records';
import type { PreparedPage } from './prepared-page';
import { RouteMapCache } from './route-maps';
import { SearchIndex } from './search-index';
import { SyncStateCache } from './sync-state';
import { TruckersCache } from './truckers';
import type {
  AlertDetector,
  AlertListOptions,
  CachePage,
  CacheStore,
  DueRouteMapScan,
  PageOutcome,
  RouteMapRecord,
  StoredDeliveryOrder,
  StoredInvoice,
  UpcomingDeadline,
} from './interface';

export const CACHE_FILE = 'quayside-cache.sqlite';

/** The SQLite implementation of the cache (one in-process connection), composed of its owners. */
export class Cache implements CacheStore {
  readonly board: BoardQueries;
  private readonly records: RecordsCache;
  private readonly events: EventsCache;
  private readonly customFields: CustomFieldCache;
  private readonly routeMaps: RouteMapCache;
  private readonly alerts: AlertsCache;
  private readonly syncState: SyncStateCache;
  private readonly invoices: InvoicesCache;
  private readonly deliveryOrderCache: DeliveryOrdersCache;
  private readonly truckers: TruckersCache;
  private readonly connection: CacheConnection;

  private constructor(readonly db: Database.Database) {
    const connection = (this.connection = new CacheConnection(db));
    this.board = new BoardQueries(db);
    const search = new SearchIndex(connection);
    this.events = new EventsCache(connection);
    this.customFields = new CustomFieldCache(connection, search);
    this.alerts = new AlertsCache(connection);
    this.records = new RecordsCache(connection, {
      search,
      events: this.events,
      customFields: this.customFields,
      alerts: this.alerts,
    });
    this.routeMaps = new RouteMapCache(connection);
    this.syncState = new SyncStateCache(connection);
    this.invoices = new InvoicesCache(connection);
    this.deliveryOrderCache = new DeliveryOrdersCache(connection);
    this.truckers = new TruckersCache(connection);
  }

  /** Opens (creating and migrating when needed) the cache file in `dataDir`. */
  static open(dataDir: string): Cache {
    return Cache.openFile(join(dataDir, CACHE_FILE));
  }

  static openFile(file: string): Cache {
    const db = openCacheDatabase(file);
    migrate(db);
    const cache = new Cache(db);
    // A database in memory has no log to checkpoint.
    if (file !== IN_MEMORY) cache.connection.startCheckpointer();
    return cache;
  }

  close(): void {
    this.connection.close();
  }

  requestCheckpoint(): void {
    this.connection.requestCheckpoint();
  }

  /**
   * Empties the cache (records, maps, alerts, sync cursors) in one transaction; the next sync is
   * a first sync again, which raises no alerts for old data.
   */
  clear(): void {
    this.db
      .transaction(() => {
        for (const table of [
          'container_search',
          'custom_field_values',
          'custom_field_definitions',
          'container_events',
          'route_maps',
          'alerts',
          'containers',
          'shipments',
          'terminals',
          'sync_state',
        ]) {
          this.db.exec(`DELETE FROM ${table}`);
        }
      })
      .immediate();
  }

  /** Bytes on disk: the database and its write-ahead log. */
  sizeBytes(): number {
    const file = this.db.name;
    return [file, `${file}-wal`].reduce(
      (total, path) => total + (existsSync(path) ? statSync(path).size : 0),
      0,
    );
  }

  get path(): string {
    return this.db.name;
  }

  integrityCheck(): string {
    return this.db.pragma('integrity_check', { simple: true }) as string;
  }

  schemaVersion(): number {
    return this.db.pragma('user_version', { simple: true }) as number;
  }

  /** A container's events, newest first (undated ones last). */
  eventsOf(containerId: string): CachedEvent[] {
    return this.board.eventsOf(containerId);
  }

  // Records (records.ts)
  applyPage(page: CachePage, now: string, detectAlerts?: AlertDetector): PageOutcome {
    return this.records.applyPage(page, now, detectAlerts);
  }

  applyPreparedPage(page: PreparedPage, now: string, detectAlerts?: AlertDetector): PageOutcome {
    return this.records.applyPrepared(page, now, detectAlerts);
  }
  deleteMissing(kind: 'shipments' | 'containers', seenIds: ReadonlySet<string>): number {
    return this.records.deleteMissing(kind, seenIds);
  }
  deleteContainer(id: string): void {
    this.records.deleteContainer(id);
  }
  getShipment(id: string): CachedShipment | null {
    return this.records.getShipment(id);
  }
  getContainer(id: string): CachedContainer | null {
    return this.records.getContainer(id);
  }
  allShipments(): CachedShipment[] {
    return this.records.allShipments();
  }
  allContainers(): CachedContainer[] {
    return this.records.allContainers();
  }
  counts(): { shipments: number; containers: number; events: number } {
    return this.records.counts();
  }
  customerContainerIds(customer: string, limit: number): string[] {
    return this.records.customerContainerIds(customer, limit);
  }
  terminalFirmsCode(terminalId: string): string | null {
    return this.records.terminalFirmsCode(terminalId);
  }

  // Events (events.ts)
  replaceEvents(
    containerId: string,
    events: readonly CachedEvent[],
    options?: { complete?: boolean },
  ): void {
    this.events.replaceEvents(containerId, events, options);
  }
  staleEventContainers(): string[] {
    return this.events.staleEventContainers();
  }

  // Custom fields (custom-field-cache.ts)
  replaceCustomFieldDefinitions(definitions: readonly CustomFieldDefinitionRecord[]): void {
    this.customFields.replaceCustomFieldDefinitions(definitions);
  }
  customFieldDefinitions(): CustomFieldDefinitionRecord[] {
    return this.customFields.customFieldDefinitions();
  }
  customFieldValuesOf(entityType: 'shipment' | 'container', id: string): Record<string, unknown> {
    return this.customFields.customFieldValuesOf(entityType, id);
  }

  // Truckers (truckers.ts)
  replaceTruckers(truckers: readonly TruckerRecord[]): void {
    this.truckers.replaceTruckers(truckers);
  }

  // Route maps (route-maps.ts)
  dueRouteMaps(staleBefore: string, after: number): DueRouteMapScan {
    return this.routeMaps.dueRouteMaps(staleBefore, after);
  }
  containerArrived(id: string): boolean {
    return this.routeMaps.containerArrived(id);
  }
  getRouteMap(containerId: string): RouteMapRecord | null {
    return this.routeMaps.getRouteMap(containerId);
  }
  putRouteMap(map: RouteMapRecord): void {
    this.routeMaps.putRouteMap(map);
  }
  touchRouteMap(containerId: string, fetchedAt: string, completed: boolean): void {
    this.routeMaps.touchRouteMap(containerId, fetchedAt, completed);
  }

  // Delivery orders (delivery-orders.ts)
  recordDeliveryOrder(order: StoredDeliveryOrder): void {
    this.deliveryOrderCache.recordDeliveryOrder(order);
  }
  deliveryOrders(): StoredDeliveryOrder[] {
    return this.deliveryOrderCache.deliveryOrders();
  }

  // Received D&D invoices (invoices.ts)
  receivedInvoice(containerId: string): StoredInvoice | null {
    return this.invoices.receivedInvoice(containerId);
  }
  setReceivedInvoice(containerId: string, invoice: ReceivedInvoice | null, now: string): void {
    this.invoices.setReceivedInvoice(containerId, invoice, now);
  }
  receivedInvoicesSince(fromDate: string): StoredInvoice[] {
    return this.invoices.receivedInvoicesSince(fromDate);
  }

  // Alerts (alerts.ts)
  insertAlerts(drafts: readonly AlertDraft[], now: string): AlertRecord[] {
    return this.alerts.insertAlerts(drafts, now);
  }
  storedAlertKeys(keys: readonly string[]): Set<string> {
    return this.alerts.storedAlertKeys(keys);
  }
  newestAlertAt(): string | null {
    return this.alerts.newestAlertAt();
  }
  listAlerts(options?: AlertListOptions): AlertList {
    return this.alerts.listAlerts(options);
  }
  markAlertsRead(now: string, ids?: readonly number[]): number {
    return this.alerts.markAlertsRead(now, ids);
  }
  unnotifiedAlerts(): AlertRecord[] {
    return this.alerts.unnotifiedAlerts();
  }
  markNotified(ids: readonly number[], now: string): void {
    this.alerts.markNotified(ids, now);
  }
  upcomingDeadlines(fromIso: string): UpcomingDeadline[] {
    return this.alerts.upcomingDeadlines(fromIso);
  }

  // Sync state (sync-state.ts)
  getState<T>(key: string): T | null {
    return this.syncState.getState<T>(key);
  }
  setState(key: string, value: unknown): void {
    this.syncState.setState(key, value);
  }
  setStates(values: Readonly<Record<string, unknown>>): void {
    this.syncState.setStates(values);
  }
  deleteState(key: string): void {
    this.syncState.deleteState(key);
  }
}
