/**
 * The batch reads behind rendering API resources and loading `include`d ones: rows by id and
 * the ids of related rows, one query per relationship, never per row. Webhook rows are read
 * through their owner (webhooks.ts), the one place for their sealed columns.
 */
import type { Kysely, Transaction } from 'kysely';
import { renderedTableWrites } from './db';
import { frozenRows, memoizedKeyRead, sharedReads, type ReadMark } from './key-memo';
import { preparedRead } from './prepared-read';
import { carriesRowVersions, rowVersion, type Versioned } from './row-versions';
import type {
  ContainersTable,
  Database,
  PartiesTable,
  RawEventsTable,
  ShipmentsTable,
  TrackingRequestsTable,
  TransportEventsTable,
  VesselsTable,
  WebhooksTable,
} from './schema';
import { WebhookStore } from './webhooks';

type Db = Kysely<Database> | Transaction<Database>;

/** What identifies a rendering: the row and the update it shows (and its version, row-versions.ts). */
export interface OwnedRowKey {
  id: string;
  updated_at: string;
  account_id: string;
  row_version?: string;
}

/** Sets of keys kept (a list page's includes: up to 100 ids each). */
const KEY_SETS_KEPT = 256;

export class ResourceRows {
  /** One row's key by id, compiled once (see keysOf): what a detail's include reads. */
  private readonly keyReads = new Map<
    'containers' | 'shipments',
    (args: [id: string], since?: ReadMark) => Promise<readonly OwnedRowKey[]>
  >();
  /** Keys of several rows (a list page's includes), shared while unchanged (key-memo.ts). */
  private readonly sharedKeys;

  constructor(private readonly db: Db) {
    this.sharedKeys = sharedReads<readonly OwnedRowKey[]>(db, frozenRows, KEY_SETS_KEPT);
  }

  /**
   * The keys of rows by id. A single id (a detail request's include, on every request) is read
   * through a query compiled once; building a Kysely query costs more than the indexed read.
   */
  private keysOf(
    table: 'containers' | 'shipments',
    ids: string[],
    since: ReadMark,
  ): Promise<readonly OwnedRowKey[]> {
    const db = this.db;
    const select = (qb: ReturnType<typeof db.selectFrom<typeof table>>) =>
      qb
        .select(['id', 'updated_at', 'account_id'])
        .$if(carriesRowVersions(db), (q) => q.select(rowVersion(table)));
    if (ids.length !== 1 || db.isTransaction) {
      return this.sharedKeys(
        `${table}:${ids.join(',')}`,
        () => select(db.selectFrom(table)).where('id', 'in', ids).execute(),
        since,
      );
    }
    let read = this.keyReads.get(table);
    if (!read) {
      read = memoizedKeyRead(
        db as Kysely<Database>,
        preparedRead(db, 1, (id: string) => select(db.selectFrom(table)).where('id', '=', id)),
      );
      this.keyReads.set(table, read);
    }
    return read([ids[0]!], since);
  }

  /**
   * The database's count of writes to rendered tables, for caching renderings; undefined inside
   * a transaction or for a database without the counter (nothing is cached then).
   */
  writeGeneration(): number | undefined {
    if (this.db.isTransaction) return undefined;
    return renderedTableWrites(this.db as Kysely<Database>)?.generation;
  }

  /** True when container and shipment rows read here carry `row_version` (row-versions.ts). */
  carriesRowVersions(): boolean {
    return carriesRowVersions(this.db);
  }

  /** Container ids per shipment, in the order a shipment lists them. */
  async containerIdsOfShipments(
    shipmentIds: string[],
  ): Promise<{ id: string; shipment_id: string }[]> {
    return this.db
      .selectFrom('containers')
      .select(['id', 'shipment_id'])
      .where('shipment_id', 'in', shipmentIds)
      .orderBy('created_at')
      .orderBy('number')
      .execute();
  }

  /** Transport event ids (newest first) and raw event ids (feed order) of containers. */
  async eventIdsOfContainers(containerIds: string[]): Promise<{
    transportEvents: { id: string; container_id: string }[];
    rawEvents: { id: string; container_id: string }[];
  }> {
    const [transportEvents, rawEvents] = await Promise.all([
      this.db
        .selectFrom('transport_events')
        .select(['id', 'container_id'])
        .where('container_id', 'in', containerIds)
        .orderBy('created_at', 'desc')
        .orderBy('id')
        .execute(),
      this.db
        .selectFrom('raw_events')
        .select(['id', 'container_id'])
        .where('container_id', 'in', containerIds)
        .orderBy('event_index')
        .execute(),
    ]);
    return { transportEvents, rawEvents };
  }

  async containers(ids: string[]): Promise<Versioned<ContainersTable>[]> {
    return this.db
      .selectFrom('containers')
      .selectAll()
      .$if(carriesRowVersions(this.db), (qb) => qb.select(rowVersion('containers')))
      .where('id', 'in', ids)
      .execute();
  }

  async shipments(ids: string[]): Promise<Versioned<ShipmentsTable>[]> {
    return this.db
      .selectFrom('shipments')
      .selectAll()
      .$if(carriesRowVersions(this.db), (qb) => qb.select(rowVersion('shipments')))
      .where('id', 'in', ids)
      .execute();
  }

  containerKeys(ids: string[], since?: ReadMark): Promise<readonly OwnedRowKey[]> {
    return this.keysOf('containers', ids, since);
  }

  shipmentKeys(ids: string[], since?: ReadMark): Promise<readonly OwnedRowKey[]> {
    return this.keysOf('shipments', ids, since);
  }

  async vessels(ids: string[]): Promise<VesselsTable[]> {
    return this.db.selectFrom('vessels').selectAll().where('id', 'in', ids).execute();
  }

  /** Newest first. */
  async transportEvents(ids: string[]): Promise<TransportEventsTable[]> {
    return this.db
      .selectFrom('transport_events')
      .selectAll()
      .where('id', 'in', ids)
      .orderBy('created_at', 'desc')
      .execute();
  }

  async rawEvents(ids: string[]): Promise<RawEventsTable[]> {
    return this.db.selectFrom('raw_events').selectAll().where('id', 'in', ids).execute();
  }

  async trackingRequests(ids: string[]): Promise<TrackingRequestsTable[]> {
    return this.db.selectFrom('tracking_requests').selectAll().where('id', 'in', ids).execute();
  }

  async parties(ids: string[]): Promise<PartiesTable[]> {
    return this.db.selectFrom('parties').selectAll().where('id', 'in', ids).execute();
  }

  async webhooks(ids: string[]): Promise<WebhooksTable[]> {
    return new WebhookStore(this.db).byIds(ids);
  }
}
