/**
 * The shipments and containers owner (with their terminals): page writes from the sync, where an
 * unchanged record (same content hash) is skipped and a changed one replaced together with its
 * search row, events, custom field values and alerts in one transaction; removals; plain reads.
 * The board's own reads are in board-query.ts.
 */
import type { CachedContainer, CachedShipment } from '../../shared/cached-resources';
import { CacheOwner, type CacheConnection } from './connection';
import type { AlertsCache } from './alerts';
import type { CustomFieldCache } from './custom-field-cache';
import type { EventsCache } from './events';
import type { AlertDetector, CachePage, PageChanges, PageOutcome } from './interface';
import type { ContainerRow, ShipmentRow } from './projection';
import { preparePage, type PreparedPage } from './prepared-page';
import {
  CONTAINER_SEARCHED,
  SEARCH_INSERT,
  searchedTextChanged,
  SHIPMENT_SEARCHED,
  type SearchIndex,
} from './search-index';

/** The other owners a page write reaches into, in the same transaction. */
export interface RecordsCacheParts {
  search: SearchIndex;
  events: EventsCache;
  customFields: CustomFieldCache;
  alerts: AlertsCache;
}

export class RecordsCache extends CacheOwner {
  constructor(
    connection: CacheConnection,
    private readonly parts: RecordsCacheParts,
  ) {
    super(connection);
  }

  /** Applies one page of records (see applyPrepared), projecting its rows here first. */
  applyPage(page: CachePage, now: string, detectAlerts?: AlertDetector): PageOutcome {
    return this.applyPrepared(preparePage(page), now, detectAlerts);
  }

  /**
   * Applies one page in one transaction: unchanged records (same content hash) are skipped,
   * changed ones replaced. `detectAlerts` turns the write's changes into alerts, which are stored
   * (deduplicated) in the same transaction, so a change and its alert are committed together even
   * if the process dies right after. Returns the new alerts, to be notified after the commit.
   */
  applyPrepared(page: PreparedPage, now: string, detectAlerts?: AlertDetector): PageOutcome {
    const run = this.db.transaction((): PageOutcome => {
      const outcome: PageOutcome = {
        shipmentsChanged: 0,
        containersChanged: 0,
        changedContainerIds: [],
        alerts: [],
      };
      const changes: PageChanges = { shipments: [], containers: [] };
      // Values first, so that a record written below is indexed for search with them.
      const valuesChanged = page.customFieldValues.filter((set) =>
        this.parts.customFields.replaceCustomFieldValues(set),
      );
      for (const t of page.terminals) {
        this.stmt(
          `INSERT INTO terminals (id, name, json) VALUES (?, ?, ?)
           ON CONFLICT(id) DO UPDATE SET name = excluded.name, json = excluded.json`,
        ).run(t.id, t.name, t.json);
      }
      for (const { row, record } of page.shipments) {
        const existing = this.stmt(
          `SELECT hash, ${SHIPMENT_SEARCHED.join(', ')} FROM shipments WHERE id = ?`,
        ).get(row.id) as Omit<ShipmentRow, 'json'> | undefined;
        if (existing?.hash === row.hash) continue;
        // Read before the write replaces it, and only when the alert rules compare it.
        const before =
          existing && detectAlerts ? this.storedRecord<CachedShipment>('shipments', row.id) : null;
        this.upsertShipment(row, now);
        if (searchedTextChanged(existing, row, SHIPMENT_SEARCHED)) {
          this.parts.search.refreshSearchForShipment(row.id);
        }
        outcome.shipmentsChanged++;
        if (detectAlerts) {
          const containerIds = (
            this.stmt('SELECT id FROM containers WHERE shipment_id = ? ORDER BY number').all(
              row.id,
            ) as { id: string }[]
          ).map((r) => r.id);
          const after = record ?? (JSON.parse(row.json) as CachedShipment);
          changes.shipments.push({ before, after, containerIds });
        }
      }
      for (const { row, history, record } of page.containers) {
        const existing = this.stmt(
          `SELECT seq, hash, events_stale, ${CONTAINER_SEARCHED.join(', ')}
           FROM containers WHERE id = ?`,
        ).get(row.id) as
          (Omit<ContainerRow, 'json'> & { seq: number; events_stale: number }) | undefined;
        const changed = existing?.hash !== row.hash;
        let seq = existing?.seq;
        if (changed) {
          const before =
            existing && detectAlerts
              ? this.storedRecord<CachedContainer>('containers', row.id)
              : null;
          // With its whole history in the page, the container's events are current once the
          // history below is stored in this transaction; otherwise a later step fetches them.
          seq = this.upsertContainer(row, now, history === null);
          if (searchedTextChanged(existing, row, CONTAINER_SEARCHED)) {
            // A container new to the cache has no search row to remove yet.
            if (existing) this.stmt('DELETE FROM container_search WHERE rowid = ?').run(seq);
            this.stmt(`${SEARCH_INSERT} WHERE c.seq = ?`).run(seq);
          }
          outcome.containersChanged++;
          outcome.changedContainerIds.push(row.id);
          if (detectAlerts) {
            const after = record ?? (JSON.parse(row.json) as CachedContainer);
            changes.containers.push({ before, after });
          }
        }
        if (history && seq !== undefined) {
          if (changed) this.parts.events.storeHistory(seq, history);
          else if (existing?.events_stale === 1) this.parts.events.writeEvents(seq, history);
        }
      }
      for (const set of valuesChanged) {
        if (set.entityType === 'shipment') this.parts.search.refreshSearchForShipment(set.entityId);
        else this.parts.search.refreshSearchForContainer(set.entityId);
      }
      if (detectAlerts) outcome.alerts = this.parts.alerts.insertAlerts(detectAlerts(changes), now);
      return outcome;
    });
    const outcome = run.immediate();
    this.wrote();
    return outcome;
  }

  /** A stored record as it was written (its JSON text read only when needed). */
  private storedRecord<T>(table: 'shipments' | 'containers', id: string): T | null {
    const row = this.stmt(`SELECT json FROM ${table} WHERE id = ?`).get(id) as
      { json: string } | undefined;
    return row ? (JSON.parse(row.json) as T) : null;
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
  private upsertContainer(row: ContainerRow, now: string, eventsStale: boolean): number {
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
         @appointment_day_at, @trucker_id, @hash, @json, @now, @now, @events_stale)
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
         synced_at = excluded.synced_at, events_stale = excluded.events_stale
       RETURNING seq`,
    ).get({ ...row, now, events_stale: eventsStale ? 1 : 0 }) as { seq: number };
    return inserted.seq;
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

  counts(): { shipments: number; containers: number; events: number } {
    const one = (sql: string) => (this.stmt(sql).get() as { n: number }).n;
    return {
      shipments: one('SELECT count(*) AS n FROM shipments'),
      containers: one('SELECT count(*) AS n FROM containers'),
      events: one('SELECT coalesce(sum(event_count), 0) AS n FROM container_events'),
    };
  }

  customerContainerIds(customer: string, limit: number): string[] {
    const rows = this.stmt(
      `SELECT c.id FROM containers c JOIN shipments s ON s.id = c.shipment_id
       WHERE s.customer_name = ? ORDER BY c.rowid LIMIT ?`,
    ).all(customer, limit) as { id: string }[];
    return rows.map((r) => r.id);
  }

  terminalFirmsCode(terminalId: string): string | null {
    const row = this.stmt(
      `SELECT json_extract(json, '$.attributes.firms_code') AS code FROM terminals WHERE id = ?`,
    ).get(terminalId) as { code: unknown } | undefined;
    return typeof row?.code === 'string' && row.code ? row.code : null;
  }
}
