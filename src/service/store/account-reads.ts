/**
 * What the API reads of an account's tracking data: its own rows by id (another account's id
 * is simply not found), the filtered and paged lists of /shipments, /containers and
 * /tracking_requests, a container's events, and /search. Writes live in tracking-store.ts.
 */
import { sql, type Kysely } from 'kysely';
import type {
  ContainersTable,
  Database,
  RawEventsTable,
  ShipmentsTable,
  TrackingRequestsTable,
  TransportEventsTable,
} from './schema';

import { containingText as containing } from './like';
import { carriesRowVersions, rowVersion, type Versioned } from './row-versions';
import { frozenRows, memoizedKeyRead, sharedReads, type ReadMark } from './key-memo';
import { storeVersionOf } from './db';
import { preparedRead } from './prepared-read';

/** List pages of keys kept per account reader (each up to 100 short rows). */
const PAGES_KEPT = 64;

export interface PageWindow {
  size: number;
  offset: number;
}

/** One page of a list and the size of the whole list. */
export interface ListPage<T> {
  total: number;
  rows: T[];
}

/** Records whose value of a custom field matches a LIKE pattern (custom-fields/value-rules.ts). */
export interface CustomFieldMatch {
  definitionId: string;
  pattern: string;
}

export interface ContainerListFilter {
  /** Exact container number (upper case). */
  number?: string;
  customFields?: CustomFieldMatch[];
  /** Only containers updated at or after (then listed oldest change first). */
  updatedSince?: string;
}

export interface ShipmentListFilter {
  /** Upper-cased text found in the bill of lading, ref numbers or a container number. */
  text?: string;
  /** Upper-cased number: bill of lading, normalized number or a request's number. */
  number?: string;
  trackingStopped?: boolean;
  customFields?: CustomFieldMatch[];
  /** Only shipments updated at or after (then listed oldest change first). */
  updatedSince?: string;
}

export interface TrackingRequestListFilter {
  /** Text found in the request number or ref numbers. */
  text?: string;
  requestNumber?: string;
  status?: string;
  scac?: string;
  createdFrom?: string;
  createdUntil?: string;
  updatedFrom?: string;
  updatedUntil?: string;
}

export interface SearchHits {
  shipments: ShipmentsTable[];
  containers: ContainersTable[];
  trackingRequests: TrackingRequestsTable[];
  /** Containers per listed shipment. */
  containerCounts: Map<string, number>;
  /** The line (SCAC) of each listed container's shipment. */
  containerScacs: Map<string, string>;
}

/** No filter set at all (checked over every member, so a filter added later is never missed). */
const isUnfiltered = (filter: object): boolean =>
  Object.values(filter).every(
    (value) => value === undefined || value === '' || (Array.isArray(value) && value.length === 0),
  );

export class AccountReads {
  /** The keys of one owned row, read on every detail request: compiled once. */
  private readonly containerKeyRead;
  private readonly shipmentKeyRead;
  /** Unfiltered and number/updated_at pages, shared while unchanged (key-memo.ts). */
  private readonly sharedPages;

  constructor(private readonly db: Kysely<Database>) {
    const keyRead = (table: 'containers' | 'shipments') =>
      memoizedKeyRead(
        db,
        preparedRead(db, 2, (id: string, accountId: string) =>
          db
            .selectFrom(table)
            .select(['id', 'updated_at'])
            .$if(carriesRowVersions(db), (qb) => qb.select(rowVersion(table)))
            .where('id', '=', id)
            .where('account_id', '=', accountId),
        ),
      );
    this.containerKeyRead = keyRead('containers');
    this.shipmentKeyRead = keyRead('shipments');
    this.sharedPages = sharedReads<ListPage<Versioned<{ id: string; updated_at: string }>>>(
      db,
      (page) =>
        Object.freeze({ total: page.total, rows: frozenRows(page.rows) as typeof page.rows }),
      PAGES_KEPT,
    );
  }

  /**
   * Taken when a request arrives and passed to each of its key reads (and includes): on
   * PostgreSQL they then share one reading of the rendered tables' version (key-memo.ts).
   */
  mark(): ReadMark {
    return storeVersionOf(this.db)?.mark();
  }

  /** Ids of the records whose value of a custom field matches. */
  private withCustomField(match: CustomFieldMatch) {
    return this.db
      .selectFrom('custom_field_values')
      .select('entity_id')
      .where('definition_id', '=', match.definitionId)
      .where('match_text', 'like', sql<string>`${match.pattern} escape '\\'`);
  }

  /** The account's number of containers or shipments, as the triggers keep it. */
  private async recordCount(
    accountId: string,
    kind: 'containers' | 'shipments',
  ): Promise<{ total: number }> {
    const row = await this.db
      .selectFrom('account_record_counts')
      .select(kind)
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    return { total: Number(row?.[kind] ?? 0) };
  }

  async ownedShipment(accountId: string, id: string): Promise<ShipmentsTable | undefined> {
    return this.db
      .selectFrom('shipments')
      .selectAll()
      .where('id', '=', id)
      .where('account_id', '=', accountId)
      .executeTakeFirst();
  }

  /**
   * The account's shipment's id, updated_at and row version: what the rendered-resource cache
   * needs to serve it without reading the whole row.
   */
  async ownedShipmentKey(
    accountId: string,
    id: string,
    since?: ReadMark,
  ): Promise<Versioned<Pick<ShipmentsTable, 'id' | 'updated_at'>> | undefined> {
    return (await this.shipmentKeyRead([id, accountId], since))[0];
  }

  /** Like ownedShipmentKey, for a container. */
  async ownedContainerKey(
    accountId: string,
    id: string,
    since?: ReadMark,
  ): Promise<Versioned<Pick<ContainersTable, 'id' | 'updated_at'>> | undefined> {
    return (await this.containerKeyRead([id, accountId], since))[0];
  }

  async ownedContainer(
    accountId: string,
    id: string,
  ): Promise<Versioned<ContainersTable> | undefined> {
    return this.db
      .selectFrom('containers')
      .selectAll()
      .$if(carriesRowVersions(this.db), (qb) => qb.select(rowVersion('containers')))
      .where('id', '=', id)
      .where('account_id', '=', accountId)
      .executeTakeFirst();
  }

  async ownedTrackingRequest(
    accountId: string,
    id: string,
  ): Promise<TrackingRequestsTable | undefined> {
    return this.db
      .selectFrom('tracking_requests')
      .selectAll()
      .where('id', '=', id)
      .where('account_id', '=', accountId)
      .executeTakeFirst();
  }

  /**
   * Ids and update times of a page of the account's containers (most recent first, or oldest
   * change first with `updatedSince`): renderings are cached by both, full rows read for the rest.
   */
  async containerKeys(
    accountId: string,
    filter: ContainerListFilter,
    page: PageWindow,
    /** The total when the caller still knows it (nothing written since): not counted again. */
    knownTotal?: number,
    since?: ReadMark,
  ): Promise<ListPage<Versioned<{ id: string; updated_at: string }>>> {
    const read = () => this.readContainerKeys(accountId, filter, page, knownTotal);
    // A custom field's values are not among the rendered tables whose writes end what is kept.
    if (filter.customFields?.length) return read();
    const key = JSON.stringify([accountId, filter.number, filter.updatedSince, page]);
    return this.sharedPages(key, read, since);
  }

  private async readContainerKeys(
    accountId: string,
    filter: ContainerListFilter,
    page: PageWindow,
    knownTotal: number | undefined,
  ): Promise<ListPage<Versioned<{ id: string; updated_at: string }>>> {
    let base = this.db.selectFrom('containers').where('account_id', '=', accountId);
    if (filter.number) base = base.where('number', '=', filter.number);
    for (const match of filter.customFields ?? []) {
      base = base.where('id', 'in', this.withCustomField(match));
    }
    const since = filter.updatedSince;
    if (since) base = base.where('updated_at', '>=', since);
    const keys = base
      .select(['id', 'updated_at'])
      .$if(carriesRowVersions(this.db), (qb) => qb.select(rowVersion('containers')))
      .orderBy(since ? 'updated_at' : 'created_at', since ? 'asc' : 'desc')
      .orderBy('id', 'desc')
      .limit(page.size)
      .offset(page.offset);
    if (knownTotal !== undefined) return { total: knownTotal, rows: await keys.execute() };
    if (isUnfiltered(filter)) {
      // The kept count rides on the page's rows: one round trip where two went before. A page
      // past the end has no row to carry it and asks for it on its own.
      const rows = await keys
        .select((eb) =>
          eb
            .selectFrom('account_record_counts')
            .select('containers')
            .where('account_id', '=', accountId)
            .as('total'),
        )
        .execute();
      if (rows.length === 0) return { ...(await this.recordCount(accountId, 'containers')), rows };
      return {
        total: Number(rows[0]!.total ?? 0),
        rows: rows.map(({ total: _total, ...key }) => key),
      };
    }
    const [{ total }, rows] = await Promise.all([
      base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
      keys.execute(),
    ]);
    return { total: Number(total), rows };
  }

  /** A page of the account's shipments (most recent first, or oldest change first with `updatedSince`). */
  async shipments(
    accountId: string,
    filter: ShipmentListFilter,
    page: PageWindow,
  ): Promise<ListPage<ShipmentsTable>> {
    let base = this.db.selectFrom('shipments').where('shipments.account_id', '=', accountId);
    if (filter.text) {
      const like = containing(filter.text);
      base = base.where((eb) =>
        eb.or([
          eb(eb.fn('upper', ['bill_of_lading_number']), 'like', like),
          eb(eb.fn('upper', ['ref_numbers']), 'like', like),
          eb.exists(
            eb
              .selectFrom('containers')
              .select('containers.id')
              .whereRef('containers.shipment_id', '=', 'shipments.id')
              .where((inner) => inner(inner.fn('upper', ['containers.number']), 'like', like)),
          ),
        ]),
      );
    }
    if (filter.number) {
      const number = filter.number;
      base = base.where((eb) =>
        eb.or([
          eb('bill_of_lading_number', '=', number),
          eb('normalized_number', '=', number),
          eb.exists(
            eb
              .selectFrom('tracking_requests')
              .select('tracking_requests.id')
              .whereRef('tracking_requests.shipment_id', '=', 'shipments.id')
              .where('tracking_requests.request_number', '=', number),
          ),
        ]),
      );
    }
    if (filter.trackingStopped !== undefined) {
      base = filter.trackingStopped
        ? base.where('line_tracking_stopped_at', 'is not', null)
        : base.where('line_tracking_stopped_at', 'is', null);
    }
    for (const match of filter.customFields ?? []) {
      base = base.where('shipments.id', 'in', this.withCustomField(match));
    }
    const since = filter.updatedSince;
    if (since) base = base.where('updated_at', '>=', since);
    const unfiltered = isUnfiltered(filter);
    const [{ total }, rows] = await Promise.all([
      unfiltered
        ? this.recordCount(accountId, 'shipments')
        : base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
      base
        .selectAll()
        .orderBy(since ? 'updated_at' : 'created_at', since ? 'asc' : 'desc')
        .orderBy('id', 'desc')
        .limit(page.size)
        .offset(page.offset)
        .execute(),
    ]);
    return { total: Number(total), rows };
  }

  /** A page of the account's tracking requests, most recent first. */
  async trackingRequests(
    accountId: string,
    filter: TrackingRequestListFilter,
    page: PageWindow,
  ): Promise<ListPage<TrackingRequestsTable>> {
    let base = this.db.selectFrom('tracking_requests').where('account_id', '=', accountId);
    if (filter.text) {
      const text = filter.text;
      base = base.where((eb) =>
        eb.or([
          eb(eb.fn('upper', ['request_number']), 'like', containing(text)),
          eb(eb.fn('upper', ['ref_numbers']), 'like', containing(text)),
        ]),
      );
    }
    if (filter.requestNumber) base = base.where('request_number', '=', filter.requestNumber);
    if (filter.status) base = base.where('status', '=', filter.status);
    if (filter.scac) base = base.where('scac', '=', filter.scac);
    if (filter.createdFrom) base = base.where('created_at', '>=', filter.createdFrom);
    if (filter.createdUntil) base = base.where('created_at', '<=', filter.createdUntil);
    if (filter.updatedFrom) base = base.where('updated_at', '>=', filter.updatedFrom);
    if (filter.updatedUntil) base = base.where('updated_at', '<=', filter.updatedUntil);
    const [{ total }, rows] = await Promise.all([
      base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
      base
        .selectAll()
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(page.size)
        .offset(page.offset)
        .execute(),
    ]);
    return { total: Number(total), rows };
  }

  /** A page of a container's transport events, newest first. */
  async transportEvents(
    containerId: string,
    page: PageWindow,
  ): Promise<ListPage<TransportEventsTable>> {
    const base = this.db.selectFrom('transport_events').where('container_id', '=', containerId);
    const [{ total }, rows] = await Promise.all([
      base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
      base
        .selectAll()
        .orderBy('created_at', 'desc')
        // Undated events last, as SQLite orders NULL by default.
        .orderBy('timestamp', (ob) => ob.desc().nullsLast())
        .orderBy('id')
        .limit(page.size)
        .offset(page.offset)
        .execute(),
    ]);
    return { total: Number(total), rows };
  }

  /** A container's raw carrier milestones in feed order. */
  async rawEvents(containerId: string): Promise<RawEventsTable[]> {
    return this.db
      .selectFrom('raw_events')
      .selectAll()
      .where('container_id', '=', containerId)
      .orderBy('event_index')
      .execute();
  }

  /**
   * The account's shipments, containers and tracking requests whose numbers or references
   * contain `text` (upper case), newest first, at most `limit` of each.
   */
  async search(accountId: string, text: string, limit: number): Promise<SearchHits> {
    const like = containing(text);
    const shipments = await this.db
      .selectFrom('shipments')
      .selectAll()
      .where('account_id', '=', accountId)
      .where((eb) =>
        eb.or([
          eb(eb.fn('upper', ['bill_of_lading_number']), 'like', like),
          eb(eb.fn('upper', ['normalized_number']), 'like', like),
          eb(eb.fn('upper', ['ref_numbers']), 'like', like),
        ]),
      )
      .orderBy('created_at', 'desc')
      .limit(limit)
      .execute();
    const containers = await this.db
      .selectFrom('containers')
      .selectAll()
      .where('account_id', '=', accountId)
      .where((eb) =>
        eb.or([
          eb(eb.fn('upper', ['number']), 'like', like),
          eb(eb.fn('upper', ['ref_numbers']), 'like', like),
        ]),
      )
      .orderBy('created_at', 'desc')
      .limit(limit)
      .execute();
    const trackingRequests = await this.db
      .selectFrom('tracking_requests')
      .selectAll()
      .where('account_id', '=', accountId)
      .where((eb) =>
        eb.or([
          eb(eb.fn('upper', ['request_number']), 'like', like),
          eb(eb.fn('upper', ['ref_numbers']), 'like', like),
        ]),
      )
      .orderBy('created_at', 'desc')
      .limit(limit)
      .execute();
    const shipmentIds = shipments.map((s) => s.id);
    const counts = shipmentIds.length
      ? await this.db
          .selectFrom('containers')
          .select(['shipment_id', (eb) => eb.fn.countAll<number>().as('n')])
          .where('shipment_id', 'in', shipmentIds)
          .groupBy('shipment_id')
          .execute()
      : [];
    const containerCounts = new Map(counts.map((c) => [c.shipment_id, Number(c.n)]));
    const ownerIds = [...new Set(containers.map((c) => c.shipment_id))];
    const owners = ownerIds.length
      ? await this.db
          .selectFrom('shipments')
          .select(['id', 'scac'])
          .where('id', 'in', ownerIds)
          .execute()
      : [];
    const scacOf = new Map(owners.map((o) => [o.id, o.scac]));
    const containerScacs = new Map(
      containers.flatMap((c) => {
        const scac = scacOf.get(c.shipment_id);
        return scac ? [[c.id, scac] as const] : [];
      }),
    );
    return { shipments, containers, trackingRequests, containerCounts, containerScacs };
  }
}
