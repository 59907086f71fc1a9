/**
 * The desktop app's local cache: one SQLite file (WAL, STRICT tables) holding the account's
 * shipments, containers, transport events, route maps, alerts and sync state, so that the app
 * works offline. Every write is one short transaction; all SQL lives in this folder, behind
 * prepared statements.
 */
import Database from 'better-sqlite3';
import { sqliteOptions } from '../../native/sqlite-binding';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { BackgroundCheckpointer } from './checkpointer';
import { MIGRATIONS } from './migrations';
import {
  containerRow,
  shipmentRow,
  STILL_AT_TERMINAL_SQL,
  type ContainerRow,
  type ShipmentRow,
  type StoredDeadline,
} from './projection';
import type { CachedContainer, CachedEvent, CachedShipment } from '../../shared/cached-resources';
import { BoardQueries } from './board-query';
import {
  customFieldValueRow,
  type CustomFieldDefinitionRecord,
  type CustomFieldValueSet,
} from './custom-fields';

export const CACHE_FILE = 'quayside-cache.sqlite';

import type { AlertDraft, AlertList, AlertRecord, TruckerRecord } from '../../shared/desktop';
import type {
  AlertDetector,
  AlertListOptions,
  CachePage,
  CacheStore,
  DueRouteMapScan,
  PageChanges,
  PageOutcome,
  RouteMapRecord,
  StoredDeliveryOrder,
  StoredInvoice,
  UpcomingDeadline,
} from './interface';
import type { ReceivedInvoice } from '../../shared/charges/statement';
import type { AlertKind } from '../../shared/container';
import { PRIVATE_FOLDER_MODE, privateSqliteFile } from '../private-data';
import { RAIL_PENDING_SQL } from './route-map-final';

interface AlertRow {
  id: number;
  dedupe_key: string;
  kind: AlertKind;
  container_id: string | null;
  shipment_id: string | null;
  title: string;
  body: string;
  created_at: string;
  read_at: string | null;
  notified_at: string | null;
}

const toAlert = (r: AlertRow): AlertRecord => ({
  id: r.id,
  dedupeKey: r.dedupe_key,
  kind: r.kind,
  containerId: r.container_id,
  shipmentId: r.shipment_id,
  title: r.title,
  body: r.body,
  createdAt: r.created_at,
  readAt: r.read_at,
  notifiedAt: r.notified_at,
});

/** The SQLite implementation of the cache (one in-process connection). */
export class Cache implements CacheStore {
  readonly board: BoardQueries;
  private readonly statements = new Map<string, Database.Statement>();
  private checkpointer: BackgroundCheckpointer | null = null;
  private writesSinceCheckpoint = 0;

  private constructor(readonly db: Database.Database) {
    this.board = new BoardQueries(db);
  }

  /** Opens (creating and migrating when needed) the cache file in `dataDir`. */
  static open(dataDir: string): Cache {
    return Cache.openFile(join(dataDir, CACHE_FILE));
  }

  static openFile(file: string): Cache {
    mkdirSync(dirname(file), { recursive: true, mode: PRIVATE_FOLDER_MODE });
    privateSqliteFile(file);
    const db = new Database(file, sqliteOptions());
    db.pragma('journal_mode = WAL');
    // NORMAL under WAL is still crash-safe for the database; a power cut may drop the last
    // transactions, which the next sync fetches again.
    db.pragma('synchronous = NORMAL');
    db.pragma('busy_timeout = 5000');
    // Room for the indexes a full sync keeps touching (the default is 2 MB), and sort/temp
    // b-trees in memory; neither changes what reaches the disk or when.
    db.pragma('cache_size = -32768');
    db.pragma('temp_store = MEMORY');
    migrate(db);
    const cache = new Cache(db);
    cache.startCheckpointer();
    return cache;
  }

  close(): void {
    this.checkpointer?.stop();
    this.checkpointer = null;
    this.db.close();
  }

  /**
   * WAL checkpoints run on a worker thread (see checkpointer.ts), so that no commit on this
   * thread stalls on one: after every few writes and at the end of a sync. SQLite's own
   * threshold stays only as a backstop, in case the worker falls behind or fails.
   */
  private startCheckpointer(): void {
    if (this.db.memory) return;
    this.checkpointer = new BackgroundCheckpointer(this.db.name, () => {
      this.checkpointer = null;
      if (this.db.open) this.db.pragma(`wal_autocheckpoint = ${DEFAULT_AUTOCHECKPOINT_PAGES}`);
    });
    this.db.pragma(`wal_autocheckpoint = ${BACKSTOP_AUTOCHECKPOINT_PAGES}`);
  }

  requestCheckpoint(): void {
    this.writesSinceCheckpoint = 0;
    this.checkpointer?.request();
  }

  private wrote(): void {
    if (++this.writesSinceCheckpoint >= WRITES_PER_CHECKPOINT) this.requestCheckpoint();
  }

  schemaVersion(): number {
    return this.db.pragma('user_version', { simple: true }) as number;
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

  private stmt(sql: string): Database.Statement {
    let s = this.statements.get(sql);
    if (!s) {
      s = this.db.prepare(sql);
      this.statements.set(sql, s);
    }
    return s;
  }

  // -------------------------------------------------------------------------------------------
  // Writes

  /**
   * Applies one page in one transaction: unchanged records (same content hash) are skipped,
   * changed ones replaced. `detectAlerts` turns the write's changes into alerts, which are stored
   * (deduplicated) in the same transaction, so a change and its alert are committed together even
   * if the process dies right after. Returns the new alerts, to be notified after the commit.
   */
  applyPage(page: CachePage, now: string, detectAlerts?: AlertDetector): PageOutcome {
    const run = this.db.transaction((): PageOutcome => {
      const outcome: PageOutcome = {
        shipmentsChanged: 0,
        containersChanged: 0,
        changedContainerIds: [],
        alerts: [],
      };
      const changes: PageChanges = { shipments: [], containers: [] };
      // Values first, so that a record written below is indexed for search with them.
      const valuesChanged = (page.customFieldValues ?? []).filter((set) =>
        this.replaceCustomFieldValues(set),
      );
      for (const t of page.terminals ?? []) {
        this.stmt(
          `INSERT INTO terminals (id, name, json) VALUES (?, ?, ?)
           ON CONFLICT(id) DO UPDATE SET name = excluded.name, json = excluded.json`,
        ).run(t.id, t.attributes.name, JSON.stringify(t));
      }
      for (const s of page.shipments ?? []) {
        const row = shipmentRow(s);
        const existing = this.stmt(
          `SELECT hash, json, ${SHIPMENT_SEARCHED.join(', ')} FROM shipments WHERE id = ?`,
        ).get(s.id) as ShipmentRow | undefined;
        if (existing?.hash === row.hash) continue;
        this.upsertShipment(row, now);
        if (searchedTextChanged(existing, row, SHIPMENT_SEARCHED)) {
          this.refreshSearchForShipment(s.id);
        }
        outcome.shipmentsChanged++;
        if (detectAlerts) {
          const before = existing ? (JSON.parse(existing.json) as CachedShipment) : null;
          const containerIds = (
            this.stmt('SELECT id FROM containers WHERE shipment_id = ? ORDER BY number').all(
              s.id,
            ) as { id: string }[]
          ).map((r) => r.id);
          changes.shipments.push({ before, after: s, containerIds });
        }
      }
      for (const c of page.containers ?? []) {
        const row = containerRow(c);
        const existing = this.stmt(
          `SELECT seq, hash, json, events_stale, ${CONTAINER_SEARCHED.join(', ')}
           FROM containers WHERE id = ?`,
        ).get(c.id) as (ContainerRow & { seq: number; events_stale: number }) | undefined;
        const changed = existing?.hash !== row.hash;
        let seq = existing?.seq;
        if (changed) {
          seq = this.upsertContainer(row, now);
          if (searchedTextChanged(existing, row, CONTAINER_SEARCHED)) {
            // A container new to the cache has no search row to remove yet.
            if (existing) this.stmt('DELETE FROM container_search WHERE rowid = ?').run(seq);
            this.stmt(`${SEARCH_INSERT} WHERE c.seq = ?`).run(seq);
          }
          outcome.containersChanged++;
          outcome.changedContainerIds.push(c.id);
          if (detectAlerts) {
            const before = existing ? (JSON.parse(existing.json) as CachedContainer) : null;
            changes.containers.push({ before, after: c });
          }
        }
        const events = page.events?.get(c.id);
        if (events && seq !== undefined && (changed || existing?.events_stale === 1)) {
          this.writeEvents(seq, events);
        }
      }
      for (const set of valuesChanged) {
        if (set.entityType === 'shipment') this.refreshSearchForShipment(set.entityId);
        else this.refreshSearchForContainer(set.entityId);
      }
      if (detectAlerts) outcome.alerts = this.insertAlerts(detectAlerts(changes), now);
      return outcome;
    });
    const outcome = run.immediate();
    this.wrote();
    return outcome;
  }

  private upsertShipment(row: ShipmentRow, now: string): void {
    this.stmt(
      `INSERT INTO shipments (id, bill_of_lading, line_scac, line_name, customer_name, ref_numbers,
         pol_locode, pod_locode, pod_name, vessel_name, voyage_number, pol_atd_at, pod_eta_at,
         pod_ata_at, pod_timezone, updated_at, hash, json, synced_at)
       VALUES (@id, @bill_of_lading, @line_scac, @line_name, @customer_name, @ref_numbers,
         @pol_locode, @pod_locode, @pod_name, @vessel_name, @voyage_number, @pol_atd_at,
         @pod_eta_at, @pod_ata_at, @pod_timezone, @updated_at, @hash, @json, @now)
       ON CONFLICT(id) DO UPDATE SET bill_of_lading = excluded.bill_of_lading,
         line_scac = excluded.line_scac, line_name = excluded.line_name,
         customer_name = excluded.customer_name, ref_numbers = excluded.ref_numbers,
         pol_locode = excluded.pol_locode, pod_locode = excluded.pod_locode,
         pod_name = excluded.pod_name, vessel_name = excluded.vessel_name,
         voyage_number = excluded.voyage_number, pol_atd_at = excluded.pol_atd_at,
         pod_eta_at = excluded.pod_eta_at, pod_ata_at = excluded.pod_ata_at,
         pod_timezone = excluded.pod_timezone, updated_at = excluded.updated_at,
         hash = excluded.hash, json = excluded.json, synced_at = excluded.synced_at`,
    ).run({ ...row, now });
  }

  /** Returns the container's integer key (kept on update). */
  private upsertContainer(row: ContainerRow, now: string): number {
    // first_seen_at is kept on update: the alert rules use it to tell old data from new.
    const inserted = this.stmt(
      `INSERT INTO containers (id, shipment_id, number, ref_numbers, current_status,
         pod_terminal_id, pod_arrived_at, pod_discharged_at, availability_known,
         available_for_pickup, ready, holds_count, fees_amount, fees_currency, lfd, lfd_source,
         pickup_appointment_at, picked_up_at, empty_returned_at, terminal_checked_at, updated_at,
         pod_timezone, lfd_deadlines, lfd_first_due_at, lfd_first_end_at, lfd_last_end_at,
         appointment_day_at, trucker_id, hash, json, first_seen_at, synced_at, events_stale)
       VALUES (@id, @shipment_id, @number, @ref_numbers, @current_status, @pod_terminal_id,
         @pod_arrived_at, @pod_discharged_at, @availability_known, @available_for_pickup, @ready,
         @holds_count, @fees_amount, @fees_currency, @lfd, @lfd_source, @pickup_appointment_at,
         @picked_up_at, @empty_returned_at, @terminal_checked_at, @updated_at, @pod_timezone,
         @lfd_deadlines, @lfd_first_due_at, @lfd_first_end_at, @lfd_last_end_at,
         @appointment_day_at, @trucker_id, @hash, @json, @now, @now, 1)
       ON CONFLICT(id) DO UPDATE SET shipment_id = excluded.shipment_id,
         number = excluded.number, ref_numbers = excluded.ref_numbers,
         current_status = excluded.current_status, pod_terminal_id = excluded.pod_terminal_id,
         pod_arrived_at = excluded.pod_arrived_at, pod_discharged_at = excluded.pod_discharged_at,
         availability_known = excluded.availability_known,
         available_for_pickup = excluded.available_for_pickup, ready = excluded.ready,
         holds_count = excluded.holds_count, fees_amount = excluded.fees_amount,
         fees_currency = excluded.fees_currency, lfd = excluded.lfd,
         lfd_source = excluded.lfd_source, pickup_appointment_at = excluded.pickup_appointment_at,
         picked_up_at = excluded.picked_up_at, empty_returned_at = excluded.empty_returned_at,
         terminal_checked_at = excluded.terminal_checked_at, updated_at = excluded.updated_at,
         pod_timezone = excluded.pod_timezone, lfd_deadlines = excluded.lfd_deadlines,
         lfd_first_due_at = excluded.lfd_first_due_at,
         lfd_first_end_at = excluded.lfd_first_end_at, lfd_last_end_at = excluded.lfd_last_end_at,
         appointment_day_at = excluded.appointment_day_at, trucker_id = excluded.trucker_id,
         hash = excluded.hash, json = excluded.json,
         synced_at = excluded.synced_at, events_stale = 1
       RETURNING seq`,
    ).get({ ...row, now }) as { seq: number };
    return inserted.seq;
  }

  /**
   * Makes the cached values of one record exactly `set` (values the service no longer has are
   * removed). Returns whether anything changed.
   */
  private replaceCustomFieldValues(set: CustomFieldValueSet): boolean {
    const stored = this.stmt(
      `SELECT id, api_slug, value, display_value FROM custom_field_values
       WHERE entity_id = ? AND entity_type = ? ORDER BY api_slug`,
    ).all(set.entityId, set.entityType) as {
      id: string;
      api_slug: string;
      value: string;
      display_value: string;
    }[];
    const typeOf = this.stmt('SELECT data_type FROM custom_field_definitions WHERE id = ?');
    const rows = set.values
      .map((v) => {
        const def = v.definitionId
          ? (typeOf.get(v.definitionId) as { data_type: string } | undefined)
          : undefined;
        return customFieldValueRow(set, v, def?.data_type ?? null);
      })
      .sort((a, b) => (a.api_slug < b.api_slug ? -1 : a.api_slug > b.api_slug ? 1 : 0));
    const same =
      stored.length === rows.length &&
      stored.every(
        (r, i) =>
          r.id === rows[i]!.id &&
          r.api_slug === rows[i]!.api_slug &&
          r.value === rows[i]!.value &&
          r.display_value === rows[i]!.display_value,
      );
    if (same) return false;
    this.stmt('DELETE FROM custom_field_values WHERE entity_id = ? AND entity_type = ?').run(
      set.entityId,
      set.entityType,
    );
    const insert = this.stmt(
      `INSERT INTO custom_field_values (id, entity_type, entity_id, definition_id, api_slug,
         data_type, value, display_value, sort_key, search_text, choices)
       VALUES (@id, @entity_type, @entity_id, @definition_id, @api_slug, @data_type, @value,
         @display_value, @sort_key, @search_text, @choices)
       ON CONFLICT DO NOTHING`,
    );
    for (const row of rows) insert.run(row);
    return true;
  }

  /**
   * Replaces the account's custom field definitions with the service's complete list, in one
   * transaction. Values of definitions that are gone go with them.
   */
  replaceCustomFieldDefinitions(definitions: readonly CustomFieldDefinitionRecord[]): void {
    this.db
      .transaction(() => {
        this.db.exec('DELETE FROM custom_field_definitions');
        const insert = this.stmt(
          `INSERT INTO custom_field_definitions (id, entity_type, api_slug, display_name,
             data_type, options, json) VALUES (?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT(id) DO NOTHING`,
        );
        for (const d of definitions) {
          insert.run(
            d.id,
            d.entityType,
            d.apiSlug,
            d.displayName,
            d.dataType,
            JSON.stringify(d.options),
            JSON.stringify(d.json),
          );
        }
        const orphans = this.stmt(
          `SELECT DISTINCT entity_type AS entityType, entity_id AS entityId
           FROM custom_field_values
           WHERE definition_id IS NOT NULL
             AND definition_id NOT IN (SELECT id FROM custom_field_definitions)`,
        ).all() as { entityType: 'shipment' | 'container'; entityId: string }[];
        if (orphans.length === 0) return;
        this.db.exec(
          `DELETE FROM custom_field_values WHERE definition_id IS NOT NULL
             AND definition_id NOT IN (SELECT id FROM custom_field_definitions)`,
        );
        for (const o of orphans) {
          if (o.entityType === 'shipment') this.refreshSearchForShipment(o.entityId);
          else this.refreshSearchForContainer(o.entityId);
        }
      })
      .immediate();
  }

  /** Replaces the cached truckers with the service's complete list, in one transaction. */
  replaceTruckers(truckers: readonly TruckerRecord[]): void {
    this.db
      .transaction(() => {
        this.db.exec('DELETE FROM truckers');
        const insert = this.stmt(
          `INSERT INTO truckers (id, company_name, scac, contacts, json) VALUES (?, ?, ?, ?, ?)
           ON CONFLICT(id) DO NOTHING`,
        );
        for (const t of truckers) {
          insert.run(t.id, t.companyName, t.scac, JSON.stringify(t.contacts), JSON.stringify(t));
        }
      })
      .immediate();
  }

  /** The cached definitions, as the sync stored them. */
  customFieldDefinitions(): CustomFieldDefinitionRecord[] {
    return (
      this.stmt(
        `SELECT id, entity_type AS entityType, api_slug AS apiSlug, display_name AS displayName,
           data_type AS dataType, options, json FROM custom_field_definitions ORDER BY id`,
      ).all() as (Omit<CustomFieldDefinitionRecord, 'options' | 'json'> & {
        options: string;
        json: string;
      })[]
    ).map((r) => ({
      ...r,
      options: JSON.parse(r.options) as CustomFieldDefinitionRecord['options'],
      json: JSON.parse(r.json) as unknown,
    }));
  }

  /** A record's cached values by api_slug (value as stored). */
  customFieldValuesOf(entityType: 'shipment' | 'container', id: string): Record<string, unknown> {
    const rows = this.stmt(
      'SELECT api_slug, value FROM custom_field_values WHERE entity_id = ? AND entity_type = ?',
    ).all(id, entityType) as { api_slug: string; value: string }[];
    return Object.fromEntries(rows.map((r) => [r.api_slug, JSON.parse(r.value) as unknown]));
  }

  private refreshSearchForContainer(containerId: string): void {
    const row = this.stmt('SELECT seq FROM containers WHERE id = ?').get(containerId) as
      { seq: number } | undefined;
    if (!row) return;
    this.stmt('DELETE FROM container_search WHERE rowid = ?').run(row.seq);
    this.stmt(`${SEARCH_INSERT} WHERE c.seq = ?`).run(row.seq);
  }

  private refreshSearchForShipment(shipmentId: string): void {
    this.stmt(
      'DELETE FROM container_search WHERE rowid IN (SELECT seq FROM containers WHERE shipment_id = ?)',
    ).run(shipmentId);
    this.stmt(`${SEARCH_INSERT} WHERE c.shipment_id = ?`).run(shipmentId);
  }

  /**
   * Stores a container's whole event history as one row, newest first, and clears its flag
   * unless the history is known to be incomplete (then the next sync asks again).
   */
  private writeEvents(containerSeq: number, events: readonly CachedEvent[], complete = true): void {
    this.stmt(
      `INSERT INTO container_events (container_seq, event_count, json) VALUES (?, ?, ?)
       ON CONFLICT(container_seq) DO UPDATE SET event_count = excluded.event_count,
         json = excluded.json`,
    ).run(containerSeq, events.length, JSON.stringify([...events].sort(newestFirst)));
    if (!complete) return;
    this.stmt('UPDATE containers SET events_stale = 0 WHERE seq = ? AND events_stale = 1').run(
      containerSeq,
    );
  }

  /**
   * Replaces a container's event history (the list from the server) in one transaction; an
   * incomplete one (`complete: false`, an event was unusable) leaves the container marked stale.
   */
  replaceEvents(
    containerId: string,
    events: readonly CachedEvent[],
    { complete = true }: { complete?: boolean } = {},
  ): void {
    this.db
      .transaction(() => {
        const row = this.stmt('SELECT seq FROM containers WHERE id = ?').get(containerId) as
          { seq: number } | undefined;
        if (row) this.writeEvents(row.seq, events, complete);
      })
      .immediate();
  }

  /** Containers whose events must be fetched (changed since their events were last stored). */
  staleEventContainers(): string[] {
    return (
      this.stmt('SELECT id FROM containers WHERE events_stale = 1 ORDER BY seq').all() as {
        id: string;
      }[]
    ).map((r) => r.id);
  }

  /**
   * After a complete walk of a collection, removes what the server no longer lists (with the
   * containers' events, maps and search rows). Returns how many records were removed.
   */
  deleteMissing(kind: 'shipments' | 'containers', seenIds: ReadonlySet<string>): number {
    return this.db
      .transaction(() => {
        const ids = (this.stmt(`SELECT id FROM ${kind}`).all() as { id: string }[])
          .map((r) => r.id)
          .filter((id) => !seenIds.has(id));
        for (const id of ids) {
          if (kind === 'containers') this.removeContainer(id);
          else {
            this.stmt('DELETE FROM shipments WHERE id = ?').run(id);
            this.stmt(
              "DELETE FROM custom_field_values WHERE entity_id = ? AND entity_type = 'shipment'",
            ).run(id);
          }
        }
        return ids.length;
      })
      .immediate();
  }

  /** Removes one container with its events, map and search row. */
  deleteContainer(id: string): void {
    this.db.transaction(() => this.removeContainer(id)).immediate();
  }

  private removeContainer(id: string): void {
    this.stmt(
      'DELETE FROM container_search WHERE rowid IN (SELECT seq FROM containers WHERE id = ?)',
    ).run(id);
    this.stmt(
      'DELETE FROM container_events WHERE container_seq IN (SELECT seq FROM containers WHERE id = ?)',
    ).run(id);
    this.stmt('DELETE FROM route_maps WHERE container_id = ?').run(id);
    this.stmt(
      "DELETE FROM custom_field_values WHERE entity_id = ? AND entity_type = 'container'",
    ).run(id);
    this.stmt('DELETE FROM containers WHERE id = ?').run(id);
  }

  // -------------------------------------------------------------------------------------------
  // Reads used by sync and tests

  getShipment(id: string): CachedShipment | null {
    const row = this.stmt('SELECT json FROM shipments WHERE id = ?').get(id) as
      { json: string } | undefined;
    return row ? (JSON.parse(row.json) as CachedShipment) : null;
  }

  getContainer(id: string): CachedContainer | null {
    const row = this.stmt('SELECT json FROM containers WHERE id = ?').get(id) as
      { json: string } | undefined;
    return row ? (JSON.parse(row.json) as CachedContainer) : null;
  }

  allShipments(): CachedShipment[] {
    return (this.stmt('SELECT json FROM shipments ORDER BY id').all() as { json: string }[]).map(
      (r) => JSON.parse(r.json) as CachedShipment,
    );
  }

  allContainers(): CachedContainer[] {
    return (this.stmt('SELECT json FROM containers ORDER BY id').all() as { json: string }[]).map(
      (r) => JSON.parse(r.json) as CachedContainer,
    );
  }

  /** A container's events, newest first (undated ones last). */
  eventsOf(containerId: string): CachedEvent[] {
    return this.board.eventsOf(containerId);
  }

  counts(): { shipments: number; containers: number; events: number } {
    const one = (sql: string) => (this.stmt(sql).get() as { n: number }).n;
    return {
      shipments: one('SELECT count(*) AS n FROM shipments'),
      containers: one('SELECT count(*) AS n FROM containers'),
      events: one('SELECT coalesce(sum(event_count), 0) AS n FROM container_events'),
    };
  }

  dueRouteMaps(staleBefore: string, after: number): DueRouteMapScan {
    // At sea (on a ship, or departed and not arrived): a map missing or fetched before
    // `staleBefore`. Arrived since the last fetch: one final fetch. A final map never again.
    // A range of the containers' own order per call: reading 10k wide rows at once holds the
    // main thread for tens of milliseconds.
    const upTo = after + DUE_MAP_SCAN;
    const rows = this.stmt(
      `SELECT id, arrived FROM (
         SELECT c.id, c.seq, c.current_status AS status,
           (s.pol_atd_at IS NOT NULL) AS departed,
           ${ARRIVED_SQL} AS arrived,
           m.fetched_at AS fetchedAt, coalesce(m.completed, 0) AS completed
         FROM containers c
         LEFT JOIN shipments s ON s.id = c.shipment_id
         LEFT JOIN route_maps m ON m.container_id = c.id
         WHERE c.seq > ? AND c.seq <= ?
       )
       WHERE completed = 0 AND CASE
         WHEN status = 'on_ship' OR (departed AND NOT arrived)
           THEN fetchedAt IS NULL OR fetchedAt <= ?
         ELSE arrived AND fetchedAt IS NOT NULL
       END
       ORDER BY seq`,
    ).all(after, upTo, staleBefore) as { id: string; arrived: number }[];
    const last =
      (this.stmt('SELECT max(seq) AS last FROM containers').get() as { last: number | null })
        .last ?? 0;
    return {
      due: rows.map((r) => ({ id: r.id, arrived: r.arrived === 1 })),
      next: upTo < last ? upTo : null,
      last,
    };
  }

  containerArrived(id: string): boolean {
    const row = this.stmt(
      `SELECT ${ARRIVED_SQL} AS arrived
       FROM containers c LEFT JOIN shipments s ON s.id = c.shipment_id WHERE c.id = ?`,
    ).get(id) as { arrived: number } | undefined;
    return row?.arrived === 1;
  }

  getRouteMap(containerId: string): RouteMapRecord | null {
    const row = this.stmt(
      'SELECT container_id, geojson, fetched_at, etag, completed FROM route_maps WHERE container_id = ?',
    ).get(containerId) as
      | {
          container_id: string;
          geojson: string;
          fetched_at: string;
          etag: string | null;
          completed: number;
        }
      | undefined;
    return row
      ? {
          containerId: row.container_id,
          geojson: row.geojson,
          fetchedAt: row.fetched_at,
          etag: row.etag,
          completed: row.completed === 1,
        }
      : null;
  }

  putRouteMap(map: RouteMapRecord): void {
    this.stmt(
      `INSERT INTO route_maps (container_id, geojson, fetched_at, etag, completed)
       VALUES (?, ?, ?, ?, ?)
       ON CONFLICT(container_id) DO UPDATE SET geojson = excluded.geojson,
         fetched_at = excluded.fetched_at, etag = excluded.etag, completed = excluded.completed`,
    ).run(map.containerId, map.geojson, map.fetchedAt, map.etag, map.completed ? 1 : 0);
  }

  /** A 304 answer: the stored map is current as of `fetchedAt`. */
  touchRouteMap(containerId: string, fetchedAt: string, completed: boolean): void {
    this.stmt('UPDATE route_maps SET fetched_at = ?, completed = ? WHERE container_id = ?').run(
      fetchedAt,
      completed ? 1 : 0,
      containerId,
    );
  }

  customerContainerIds(customer: string, limit: number): string[] {
    const rows = this.stmt(
      `SELECT c.id FROM containers c JOIN shipments s ON s.id = c.shipment_id
       WHERE s.customer_name = ? ORDER BY c.rowid LIMIT ?`,
    ).all(customer, limit) as { id: string }[];
    return rows.map((r) => r.id);
  }

  // -------------------------------------------------------------------------------------------
  // Delivery orders

  recordDeliveryOrder(order: StoredDeliveryOrder): void {
    this.stmt(
      `INSERT INTO delivery_orders (container_id, document_id, trucker_id, trucker_name, facts, made_at)
       VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT(container_id) DO UPDATE SET document_id = excluded.document_id,
         trucker_id = excluded.trucker_id, trucker_name = excluded.trucker_name,
         facts = excluded.facts, made_at = excluded.made_at
       WHERE excluded.made_at > delivery_orders.made_at`,
    ).run(
      order.containerId,
      order.documentId,
      order.truckerId,
      order.truckerName,
      JSON.stringify(order.facts),
      order.madeAt,
    );
    this.wrote();
  }

  deliveryOrders(): StoredDeliveryOrder[] {
    const rows = this.stmt(
      `SELECT container_id AS containerId, document_id AS documentId, trucker_id AS truckerId,
         trucker_name AS truckerName, facts, made_at AS madeAt FROM delivery_orders`,
    ).all() as (Omit<StoredDeliveryOrder, 'facts'> & { facts: string })[];
    return rows.map((r) => ({ ...r, facts: JSON.parse(r.facts) as StoredDeliveryOrder['facts'] }));
  }

  terminalFirmsCode(terminalId: string): string | null {
    const row = this.stmt(
      `SELECT json_extract(json, '$.attributes.firms_code') AS code FROM terminals WHERE id = ?`,
    ).get(terminalId) as { code: unknown } | undefined;
    return typeof row?.code === 'string' && row.code ? row.code : null;
  }

  // -------------------------------------------------------------------------------------------
  // Received D&D invoices

  private readonly invoiceColumns = `i.container_id AS containerId, c.number AS containerNumber,
    c.shipment_id AS shipmentId, i.amount, i.currency, i.invoice_date AS date,
    i.entered_at AS enteredAt
    FROM received_invoices i LEFT JOIN containers c ON c.id = i.container_id`;

  receivedInvoice(containerId: string): StoredInvoice | null {
    const row = this.stmt(`SELECT ${this.invoiceColumns} WHERE i.container_id = ?`).get(
      containerId,
    ) as StoredInvoice | undefined;
    return row ?? null;
  }

  setReceivedInvoice(containerId: string, invoice: ReceivedInvoice | null, now: string): void {
    if (invoice === null) {
      this.stmt('DELETE FROM received_invoices WHERE container_id = ?').run(containerId);
    } else {
      this.stmt(
        `INSERT INTO received_invoices (container_id, amount, currency, invoice_date, entered_at)
         VALUES (?, ?, ?, ?, ?)
         ON CONFLICT(container_id) DO UPDATE SET amount = excluded.amount,
           currency = excluded.currency, invoice_date = excluded.invoice_date,
           entered_at = excluded.entered_at`,
      ).run(containerId, invoice.amount, invoice.currency, invoice.date, now);
    }
    this.wrote();
  }

  receivedInvoicesSince(fromDate: string): StoredInvoice[] {
    return this.stmt(
      `SELECT ${this.invoiceColumns} WHERE i.invoice_date >= ? ORDER BY i.invoice_date`,
    ).all(fromDate) as StoredInvoice[];
  }

  // -------------------------------------------------------------------------------------------
  // Alerts

  /** Stores drafts (INSERT OR IGNORE on the dedupe key); returns the ones that were new. */
  insertAlerts(drafts: readonly AlertDraft[], now: string): AlertRecord[] {
    const inserted: AlertRecord[] = [];
    const insert = this.stmt(
      `INSERT INTO alerts (dedupe_key, kind, container_id, shipment_id, title, body, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT(dedupe_key) DO NOTHING`,
    );
    const write = () => {
      for (const d of drafts) {
        const r = insert.run(
          d.dedupeKey,
          d.kind,
          d.containerId,
          d.shipmentId,
          d.title,
          d.body,
          now,
        );
        if (r.changes === 1) {
          inserted.push({
            ...d,
            id: Number(r.lastInsertRowid),
            createdAt: now,
            readAt: null,
            notifiedAt: null,
          });
        }
      }
    };
    if (this.db.inTransaction) write();
    else this.db.transaction(write).immediate();
    return inserted;
  }

  storedAlertKeys(keys: readonly string[]): Set<string> {
    const find = this.stmt('SELECT 1 FROM alerts WHERE dedupe_key = ?');
    return new Set(keys.filter((key) => find.get(key) !== undefined));
  }

  newestAlertAt(): string | null {
    const row = this.stmt('SELECT max(created_at) AS at FROM alerts').get() as {
      at: string | null;
    };
    return row.at;
  }

  listAlerts(options: AlertListOptions = {}): AlertList {
    const where: string[] = [];
    const params: unknown[] = [];
    if (options.unreadOnly) where.push('read_at IS NULL');
    if (options.containerId) {
      where.push('container_id = ?');
      params.push(options.containerId);
    }
    if (options.kinds && options.kinds.length > 0) {
      where.push(`kind IN (${options.kinds.map(() => '?').join(', ')})`);
      params.push(...options.kinds);
    }
    const clause = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const total = (
      this.stmt(`SELECT count(*) AS n FROM alerts ${clause}`).get(...params) as {
        n: number;
      }
    ).n;
    const unread = (
      this.stmt('SELECT count(*) AS n FROM alerts WHERE read_at IS NULL').get() as { n: number }
    ).n;
    const limit = Math.min(Math.max(options.limit ?? 100, 1), 1000);
    const offset = Math.max(options.offset ?? 0, 0);
    const rows = this.stmt(
      `SELECT * FROM alerts ${clause} ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`,
    ).all(...params, limit, offset) as AlertRow[];
    return { total, unread, alerts: rows.map(toAlert) };
  }

  /** Marks the given alerts (or all, when `ids` is omitted) read; returns how many changed. */
  markAlertsRead(now: string, ids?: readonly number[]): number {
    if (!ids) {
      return this.stmt('UPDATE alerts SET read_at = ? WHERE read_at IS NULL').run(now).changes;
    }
    const update = this.stmt('UPDATE alerts SET read_at = ? WHERE id = ? AND read_at IS NULL');
    return this.db.transaction(() => ids.reduce((n, id) => n + update.run(now, id).changes, 0))();
  }

  /** Stored but never handed to the notifier (e.g. the app stopped right after the write). */
  unnotifiedAlerts(): AlertRecord[] {
    return (
      this.stmt('SELECT * FROM alerts WHERE notified_at IS NULL ORDER BY id').all() as AlertRow[]
    ).map(toAlert);
  }

  markNotified(ids: readonly number[], now: string): void {
    const update = this.stmt('UPDATE alerts SET notified_at = ? WHERE id = ?');
    this.db.transaction(() => ids.forEach((id) => update.run(now, id)))();
  }

  /**
   * Every last free day still ahead of a container at the terminal, earliest first. Deadlines of
   * one container ending at the same instant (line and terminal on the same day) come once.
   */
  upcomingDeadlines(fromIso: string): UpcomingDeadline[] {
    const from = Date.parse(fromIso);
    const rows = this.stmt(
      `SELECT c.id, c.number, c.lfd_deadlines AS deadlines, c.first_seen_at AS firstSeenAt,
         t.name AS terminalName
       FROM containers c LEFT JOIN terminals t ON t.id = c.pod_terminal_id
       WHERE c.lfd_last_end_at > ? AND ${STILL_AT_TERMINAL_SQL}`,
    ).all(from) as {
      id: string;
      number: string;
      deadlines: string;
      firstSeenAt: string;
      terminalName: string | null;
    }[];
    const upcoming: UpcomingDeadline[] = [];
    for (const { deadlines, ...row } of rows) {
      const seen = new Set<number>();
      for (const { dueFrom: _dueFrom, ...deadline } of JSON.parse(deadlines) as StoredDeadline[]) {
        if (deadline.endsAt <= from || seen.has(deadline.endsAt)) continue;
        seen.add(deadline.endsAt);
        upcoming.push({ ...row, deadline });
      }
    }
    return upcoming.sort((a, b) => a.deadline.endsAt - b.deadline.endsAt);
  }

  // -------------------------------------------------------------------------------------------
  // Sync state

  getState<T>(key: string): T | null {
    const row = this.stmt('SELECT value FROM sync_state WHERE key = ?').get(key) as
      { value: string } | undefined;
    return row ? (JSON.parse(row.value) as T) : null;
  }

  setState(key: string, value: unknown): void {
    this.stmt(
      `INSERT INTO sync_state (key, value) VALUES (?, ?)
       ON CONFLICT(key) DO UPDATE SET value = excluded.value`,
    ).run(key, JSON.stringify(value));
  }

  /** Several state values in one transaction: all are written or none. */
  setStates(values: Readonly<Record<string, unknown>>): void {
    this.db.transaction(() => {
      for (const [key, value] of Object.entries(values)) this.setState(key, value);
    })();
  }

  deleteState(key: string): void {
    this.stmt('DELETE FROM sync_state WHERE key = ?').run(key);
  }
}

/**
 * A container's route map is final: it arrived at its port of discharge (its own record or its
 * shipment says so) and does not move on by rail, or is at the ramp already (RAIL_PENDING_SQL).
 */
const ARRIVED_SQL = `((c.pod_arrived_at IS NOT NULL OR s.pod_ata_at IS NOT NULL) AND NOT ${RAIL_PENDING_SQL})`;
/** Containers read per call when looking for due route maps. */
const DUE_MAP_SCAN = 1000;
const DEFAULT_AUTOCHECKPOINT_PAGES = 1000;
/** The writer's own checkpoint threshold while the worker checkpoints: 80 MB of log. */
const BACKSTOP_AUTOCHECKPOINT_PAGES = 20_000;
/** Write transactions between two background checkpoints (a few MB of log each). */
const WRITES_PER_CHECKPOINT = 16;

/** The order events are stored and shown in: newest first, undated last, then by id. */
function newestFirst(a: CachedEvent, b: CachedEvent): number {
  const x = a.attributes;
  const y = b.attributes;
  if ((x.timestamp === null) !== (y.timestamp === null)) return x.timestamp === null ? 1 : -1;
  if (x.timestamp !== y.timestamp) return x.timestamp! > y.timestamp! ? -1 : 1;
  if (x.created_at !== y.created_at) return (x.created_at ?? '') > (y.created_at ?? '') ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/**
 * The columns SEARCH_INSERT reads from each table (custom field values are refreshed on their
 * own). A changed record whose searched text is the same keeps its search row: rewriting it
 * costs more than the rest of the record's write, and most changes are dates and statuses.
 */
const CONTAINER_SEARCHED = ['number', 'ref_numbers', 'shipment_id'] as const;
const SHIPMENT_SEARCHED = [
  'bill_of_lading',
  'ref_numbers',
  'vessel_name',
  'voyage_number',
  'customer_name',
] as const;

function searchedTextChanged<R>(stored: R | undefined, row: R, columns: readonly (keyof R)[]) {
  return !stored || columns.some((column) => stored[column] !== row[column]);
}

/** A container's search row; its custom field text holds its own values and its shipment's. */
const SEARCH_INSERT = `INSERT INTO container_search (rowid, number, bill_of_lading, ref_numbers, vessel, customer, custom_fields)
  SELECT c.seq, c.number, coalesce(s.bill_of_lading, ''),
    trim(c.ref_numbers || ' ' || coalesce(s.ref_numbers, '')),
    trim(coalesce(s.vessel_name, '') || ' ' || coalesce(s.voyage_number, '')),
    coalesce(s.customer_name, ''),
    coalesce((SELECT group_concat(v.search_text, ' ') FROM custom_field_values v
      WHERE (v.entity_id = c.id AND v.entity_type = 'container')
         OR (v.entity_id = c.shipment_id AND v.entity_type = 'shipment')), '')
  FROM containers c LEFT JOIN shipments s ON s.id = c.shipment_id`;

function migrate(db: Database.Database): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > MIGRATIONS.length) {
    throw new Error(
      `The cache file was written by a newer Quayside (schema ${current}); this version knows ${MIGRATIONS.length}.`,
    );
  }
  for (let version = current; version < MIGRATIONS.length; version++) {
    db.transaction(() => {
      db.exec(MIGRATIONS[version]!);
      if (version + 1 === LFD_COLUMNS_VERSION) fillLfdColumns(db);
      // The search index was made again with a column for custom field values.
      if (version + 1 === CUSTOM_FIELDS_VERSION) db.exec(SEARCH_INSERT);
      db.pragma(`user_version = ${version + 1}`);
    }).immediate();
  }
}

/** The schema version that added the per-zone deadline columns. */
const LFD_COLUMNS_VERSION = 3;
/** The schema version that added custom fields (and remade the search index). */
const CUSTOM_FIELDS_VERSION = 4;

/** Projects the deadline columns of rows cached before they existed (from each row's JSON). */
function fillLfdColumns(db: Database.Database): void {
  const update = db.prepare(
    `UPDATE containers SET lfd_deadlines = @lfd_deadlines, lfd_first_due_at = @lfd_first_due_at,
       lfd_first_end_at = @lfd_first_end_at, lfd_last_end_at = @lfd_last_end_at,
       appointment_day_at = @appointment_day_at
     WHERE id = @id`,
  );
  for (const { json } of db.prepare('SELECT json FROM containers').all() as { json: string }[]) {
    const row = containerRow(JSON.parse(json) as CachedContainer);
    update.run({
      id: row.id,
      lfd_deadlines: row.lfd_deadlines,
      lfd_first_due_at: row.lfd_first_due_at,
      lfd_first_end_at: row.lfd_first_end_at,
      lfd_last_end_at: row.lfd_last_end_at,
      appointment_day_at: row.appointment_day_at,
    });
  }
}
