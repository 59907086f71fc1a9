/**
 * Schema migrations, kept in code so the service ships as one bundle. Kysely's schema builder is
 * used wherever it can say it (no SQLite-only DDL), so the same migrations run on PostgreSQL;
 * triggers, which it cannot say, are written once per engine.
 */
import {
  sql,
  type ColumnDefinitionBuilder,
  type Kysely,
  type Migration,
  type MigrationProvider,
} from 'kysely';
import { storeKindOf } from './dialect';
import { createRouteMapCopiesTable } from './route-map-copies';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on the current row types
type AnyDb = Kysely<any>;

const initial: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .createTable('accounts')
      .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
      .addColumn('name', 'varchar(200)', (c) => c.notNull().unique())
      .addColumn('routing_enabled', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('api_keys')
      .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
      .addColumn('account_id', 'varchar(36)', (c) => c.notNull().references('accounts.id'))
      .addColumn('key_hash', 'varchar(64)', (c) => c.notNull().unique())
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('ports')
      .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
      .addColumn('locode', 'varchar(5)', (c) => c.notNull().unique())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('city', 'text')
      .addColumn('state_abbr', 'text')
      .addColumn('state', 'text')
      .addColumn('country_code', 'varchar(2)', (c) => c.notNull())
      .addColumn('country', 'text', (c) => c.notNull())
      .addColumn('time_zone', 'text', (c) => c.notNull())
      .addColumn('latitude', 'double precision')
      .addColumn('longitude', 'double precision')
      .execute();
    await db.schema
      .createTable('metro_areas')
      .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
      .addColumn('locode', 'varchar(5)', (c) => c.notNull().unique())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('state_abbr', 'text')
      .addColumn('country_code', 'varchar(2)', (c) => c.notNull())
      .addColumn('time_zone', 'text', (c) => c.notNull())
      .addColumn('latitude', 'double precision')
      .addColumn('longitude', 'double precision')
      .execute();
    await db.schema
      .createTable('terminals')
      .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
      .addColumn('firms_code', 'varchar(20)', (c) => c.notNull().unique())
      .addColumn('smdg_code', 'text')
      .addColumn('bic_facility_code', 'text')
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('nickname', 'text')
      .addColumn('street', 'text')
      .addColumn('city', 'text')
      .addColumn('state', 'text')
      .addColumn('state_abbr', 'text')
      .addColumn('zip', 'text')
      .addColumn('country', 'text', (c) => c.notNull())
      .addColumn('port_id', 'varchar(36)')
      .addColumn('port_locode', 'varchar(5)', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('rail_terminals')
      .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
      .addColumn('firms_code', 'varchar(20)', (c) => c.notNull().unique())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('nickname', 'text')
      .addColumn('metro_area_id', 'varchar(36)')
      .addColumn('port_id', 'varchar(36)')
      .addColumn('rail_carrier_scac', 'varchar(4)', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('shipping_lines')
      .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
      .addColumn('scac', 'varchar(4)', (c) => c.notNull().unique())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('short_name', 'text', (c) => c.notNull())
      .addColumn('alternative_scacs', 'text', (c) => c.notNull())
      .addColumn('container_prefixes', 'text', (c) => c.notNull())
      .addColumn('bill_of_lading_prefixes', 'text', (c) => c.notNull())
      .addColumn('booking_prefixes', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('vessels')
      .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
      .addColumn('imo', 'varchar(7)', (c) => c.notNull().unique())
      .addColumn('mmsi', 'varchar(9)')
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('operator_scac', 'varchar(4)')
      .addColumn('latitude', 'double precision')
      .addColumn('longitude', 'double precision')
      .addColumn('nautical_speed_knots', 'double precision')
      .addColumn('navigational_heading_degrees', 'double precision')
      .addColumn('position_timestamp', 'varchar(32)')
      .execute();

    await db.schema
      .createTable('tracking_requests')
      .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
      .addColumn('account_id', 'varchar(36)', (c) => c.notNull().references('accounts.id'))
      .addColumn('request_number', 'text', (c) => c.notNull())
      .addColumn('request_type', 'varchar(20)', (c) => c.notNull())
      .addColumn('scac', 'varchar(4)', (c) => c.notNull())
      .addColumn('status', 'varchar(20)', (c) => c.notNull())
      .addColumn('failed_reason', 'varchar(40)')
      .addColumn('ref_numbers', 'text', (c) => c.notNull())
      .addColumn('tags', 'text', (c) => c.notNull())
      .addColumn('shipment_tags', 'text', (c) => c.notNull())
      .addColumn('is_retrying', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('retry_count', 'integer')
      .addColumn('shipment_id', 'varchar(36)')
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('tracking_requests_account_created')
      .on('tracking_requests')
      .columns(['account_id', 'created_at', 'id'])
      .execute();
    await db.schema
      .createIndex('tracking_requests_account_number')
      .on('tracking_requests')
      .columns(['account_id', 'request_number'])
      .execute();

    const dates = [
      'pol_etd_at',
      'pol_atd_at',
      'pod_eta_at',
      'pod_original_eta_at',
      'pod_ata_at',
      'destination_eta_at',
      'destination_ata_at',
      'line_tracking_last_attempted_at',
      'line_tracking_last_succeeded_at',
      'line_tracking_stopped_at',
    ];
    let shipments = db.schema
      .createTable('shipments')
      .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
      .addColumn('account_id', 'varchar(36)', (c) => c.notNull().references('accounts.id'))
      .addColumn('bill_of_lading_number', 'text', (c) => c.notNull())
      .addColumn('normalized_number', 'text', (c) => c.notNull())
      .addColumn('scac', 'varchar(4)', (c) => c.notNull())
      .addColumn('ref_numbers', 'text', (c) => c.notNull())
      .addColumn('tags', 'text', (c) => c.notNull())
      .addColumn('customer_name', 'text')
      .addColumn('port_of_lading_id', 'varchar(36)')
      .addColumn('port_of_discharge_id', 'varchar(36)')
      .addColumn('destination_id', 'varchar(36)')
      .addColumn('destination_type', 'varchar(20)')
      .addColumn('pod_terminal_id', 'varchar(36)')
      .addColumn('destination_terminal_id', 'varchar(36)')
      .addColumn('destination_terminal_type', 'varchar(20)')
      .addColumn('pod_vessel_id', 'varchar(36)')
      .addColumn('pod_vessel_name', 'text')
      .addColumn('pod_vessel_imo', 'varchar(7)')
      .addColumn('pod_voyage_number', 'text')
      .addColumn('line_tracking_stopped_reason', 'varchar(40)');
    for (const d of dates) shipments = shipments.addColumn(d, 'varchar(32)');
    await shipments
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('shipments_account_created')
      .on('shipments')
      .columns(['account_id', 'created_at', 'id'])
      .execute();
    await db.schema
      .createIndex('shipments_account_updated')
      .on('shipments')
      .columns(['account_id', 'updated_at', 'id'])
      .execute();
    await db.schema
      .createIndex('shipments_account_number')
      .on('shipments')
      .columns(['account_id', 'bill_of_lading_number'])
      .execute();

    const containerDates = [
      'pickup_appointment_at',
      'pod_arrived_at',
      'pod_discharged_at',
      'pod_full_out_at',
      'terminal_checked_at',
      'final_destination_full_out_at',
      'empty_terminated_at',
      'pod_last_tracking_request_at',
      'shipment_last_tracking_request_at',
      'pod_rail_loaded_at',
      'pod_rail_departed_at',
      'ind_eta_at',
      'ind_ata_at',
      'ind_rail_unloaded_at',
      'pickup_lfd_terminal',
      'pickup_lfd_rail',
      'pickup_lfd_line',
    ];
    let containers = db.schema
      .createTable('containers')
      .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
      .addColumn('account_id', 'varchar(36)', (c) => c.notNull().references('accounts.id'))
      .addColumn('shipment_id', 'varchar(36)', (c) => c.notNull().references('shipments.id'))
      .addColumn('number', 'varchar(11)', (c) => c.notNull())
      .addColumn('ref_numbers', 'text', (c) => c.notNull())
      .addColumn('equipment_type', 'varchar(20)')
      .addColumn('equipment_length', 'integer')
      .addColumn('equipment_height', 'varchar(20)')
      .addColumn('weight_in_lbs', 'double precision')
      .addColumn('seal_number', 'text')
      .addColumn('availability_known', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('available_for_pickup', 'integer')
      .addColumn('pod_full_out_chassis_number', 'text')
      .addColumn('location_at_pod_terminal', 'text')
      .addColumn('holds_at_pod_terminal', 'text', (c) => c.notNull())
      .addColumn('fees_at_pod_terminal', 'text', (c) => c.notNull())
      .addColumn('pod_timezone', 'text')
      .addColumn('final_destination_timezone', 'text')
      .addColumn('empty_terminated_timezone', 'text')
      .addColumn('pod_rail_carrier_scac', 'varchar(4)')
      .addColumn('ind_rail_carrier_scac', 'varchar(4)')
      .addColumn('current_status', 'varchar(30)', (c) => c.notNull())
      .addColumn('pod_terminal_id', 'varchar(36)')
      .addColumn('pickup_facility_id', 'varchar(36)');
    for (const d of containerDates) containers = containers.addColumn(d, 'varchar(32)');
    await containers
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('containers_account_created')
      .on('containers')
      .columns(['account_id', 'created_at', 'id'])
      .execute();
    await db.schema
      .createIndex('containers_account_updated')
      .on('containers')
      .columns(['account_id', 'updated_at', 'id'])
      .execute();
    await db.schema
      .createIndex('containers_shipment')
      .on('containers')
      .column('shipment_id')
      .execute();
    await db.schema
      .createIndex('containers_account_number')
      .on('containers')
      .columns(['account_id', 'number'])
      .execute();

    await db.schema
      .createTable('transport_events')
      .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
      .addColumn('account_id', 'varchar(36)', (c) => c.notNull().references('accounts.id'))
      .addColumn('container_id', 'varchar(36)', (c) => c.notNull().references('containers.id'))
      .addColumn('shipment_id', 'varchar(36)', (c) => c.notNull().references('shipments.id'))
      .addColumn('event', 'varchar(80)', (c) => c.notNull())
      .addColumn('voyage_number', 'text')
      .addColumn('timestamp', 'varchar(32)')
      .addColumn('timezone', 'text')
      .addColumn('location_locode', 'varchar(5)')
      .addColumn('location_id', 'varchar(36)')
      .addColumn('location_type', 'varchar(20)')
      .addColumn('vessel_id', 'varchar(36)')
      .addColumn('terminal_id', 'varchar(36)')
      .addColumn('terminal_type', 'varchar(20)')
      .addColumn('data_source', 'varchar(20)', (c) => c.notNull())
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('transport_events_container')
      .on('transport_events')
      .columns(['container_id', 'created_at'])
      .execute();

    await db.schema
      .createTable('raw_events')
      .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
      .addColumn('account_id', 'varchar(36)', (c) => c.notNull().references('accounts.id'))
      .addColumn('container_id', 'varchar(36)', (c) => c.notNull().references('containers.id'))
      .addColumn('event', 'varchar(40)')
      .addColumn('original_event', 'text', (c) => c.notNull())
      .addColumn('timestamp', 'varchar(32)', (c) => c.notNull())
      .addColumn('estimated', 'integer', (c) => c.notNull())
      .addColumn('timezone', 'text')
      .addColumn('location_name', 'text')
      .addColumn('location_locode', 'varchar(5)')
      .addColumn('location_id', 'varchar(36)')
      .addColumn('location_type', 'varchar(20)')
      .addColumn('vessel_name', 'text')
      .addColumn('vessel_imo', 'varchar(7)')
      .addColumn('vessel_id', 'varchar(36)')
      .addColumn('event_index', 'integer', (c) => c.notNull())
      .addColumn('voyage_number', 'text')
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('raw_events_container')
      .on('raw_events')
      .columns(['container_id', 'event_index'])
      .execute();

    await db.schema
      .createTable('webhooks')
      .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
      .addColumn('account_id', 'varchar(36)', (c) => c.notNull().references('accounts.id'))
      .addColumn('url', 'text', (c) => c.notNull())
      .addColumn('active', 'integer', (c) => c.notNull())
      .addColumn('events', 'text', (c) => c.notNull())
      .addColumn('secret', 'text', (c) => c.notNull())
      .addColumn('headers', 'text')
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('webhook_notifications')
      .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
      .addColumn('account_id', 'varchar(36)', (c) => c.notNull().references('accounts.id'))
      .addColumn('webhook_id', 'varchar(36)', (c) => c.notNull().references('webhooks.id'))
      .addColumn('event', 'varchar(80)', (c) => c.notNull())
      .addColumn('delivery_status', 'varchar(20)', (c) => c.notNull())
      .addColumn('reference_object_id', 'varchar(36)')
      .addColumn('reference_object_type', 'varchar(40)')
      .addColumn('payload', 'text', (c) => c.notNull())
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('webhook_notifications_account_created')
      .on('webhook_notifications')
      .columns(['account_id', 'created_at'])
      .execute();
  },
};

/**
 * Tracking engine bookkeeping: when each request and shipment is next due at the line and the
 * terminal, when the line's data last changed (for `no_updates_at_line`), and persisted vessel
 * positions (the route map draws the history).
 */
const trackingEngine: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .alterTable('tracking_requests')
      .addColumn('next_attempt_at', 'varchar(32)')
      .execute();
    await db.schema
      .createIndex('tracking_requests_status_next')
      .on('tracking_requests')
      .columns(['status', 'next_attempt_at'])
      .execute();
    for (const column of ['next_line_check_at', 'next_terminal_check_at', 'line_changed_at']) {
      await db.schema.alterTable('shipments').addColumn(column, 'varchar(32)').execute();
    }
    await db.schema.alterTable('shipments').addColumn('cancelled_at', 'varchar(32)').execute();
    await db.schema
      .createIndex('shipments_next_line_check')
      .on('shipments')
      .columns(['line_tracking_stopped_at', 'next_line_check_at'])
      .execute();
    await db.schema
      .createTable('vessel_positions')
      .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
      .addColumn('vessel_imo', 'varchar(7)', (c) => c.notNull())
      .addColumn('mmsi', 'varchar(9)')
      .addColumn('latitude', 'double precision', (c) => c.notNull())
      .addColumn('longitude', 'double precision', (c) => c.notNull())
      .addColumn('speed_knots', 'double precision')
      .addColumn('heading_degrees', 'double precision')
      .addColumn('timestamp', 'varchar(32)', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('vessel_positions_vessel_time')
      .on('vessel_positions')
      .columns(['vessel_imo', 'timestamp'])
      .execute();
  },
};

/** Webhook delivery: retry bookkeeping on notifications and one row per delivery attempt. */
const webhookDelivery: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .alterTable('webhook_notifications')
      .addColumn('attempt_count', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema
      .alterTable('webhook_notifications')
      .addColumn('next_attempt_at', 'varchar(32)')
      .execute();
    await db.schema
      .alterTable('webhook_notifications')
      .addColumn('last_attempt_at', 'varchar(32)')
      .execute();
    await db.schema
      .createIndex('webhook_notifications_due')
      .on('webhook_notifications')
      .columns(['delivery_status', 'next_attempt_at'])
      .execute();
    await db.schema
      .createTable('webhook_delivery_attempts')
      .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
      .addColumn('notification_id', 'varchar(36)', (c) =>
        c.notNull().references('webhook_notifications.id').onDelete('cascade'),
      )
      .addColumn('attempt_number', 'integer', (c) => c.notNull())
      .addColumn('url', 'text', (c) => c.notNull())
      .addColumn('status_code', 'integer')
      .addColumn('latency_ms', 'integer', (c) => c.notNull())
      .addColumn('error', 'text')
      .addColumn('succeeded', 'integer', (c) => c.notNull())
      .addColumn('attempted_at', 'varchar(32)', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('webhook_delivery_attempts_notification')
      .on('webhook_delivery_attempts')
      .columns(['notification_id', 'attempt_number'])
      .execute();
  },
};

/**
 * The route map: each shipment's port calls (JSON, written when the line's facts are applied)
 * and the stored copies of completed journeys' maps.
 */
const routeMap: Migration = {
  async up(db: AnyDb) {
    await db.schema.alterTable('shipments').addColumn('port_calls', 'text').execute();
    await createRouteMapCopiesTable(db);
  },
};

/**
 * The service's own account is recorded explicitly (one row, id 1), never derived from account
 * timestamps, which run on the injected clock. A store that already has accounts adopts the one
 * the service created under its default name, else the first one inserted.
 */
const accountIdentity: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .createTable('service_identity')
      .addColumn('id', 'integer', (c) => c.primaryKey().check(sql`id = 1`))
      .addColumn('account_id', 'varchar(36)', (c) => c.notNull().references('accounts.id'))
      .execute();
    // Insertion order is SQLite's rowid; a PostgreSQL store starts empty (nothing to adopt).
    const inserted = storeKindOf(db) === 'sqlite' ? sql`rowid` : sql`created_at, id`;
    await sql`INSERT INTO service_identity (id, account_id)
      SELECT 1, id FROM accounts ORDER BY (name = 'default') DESC, ${inserted} LIMIT 1`.execute(db);
  },
};

/**
 * Documents (uploaded or mailed PDFs and images, with what extraction found), the email
 * submissions they arrived in, and each account's document settings (tracking mode, inbox token).
 */
const documents: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .createTable('email_submissions')
      .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
      .addColumn('account_id', 'varchar(36)', (c) =>
        c.notNull().references('accounts.id').onDelete('cascade'),
      )
      .addColumn('subject', 'text')
      .addColumn('body', 'text')
      .addColumn('from_addresses', 'text', (c) => c.notNull())
      .addColumn('to_addresses', 'text', (c) => c.notNull())
      .addColumn('cc_addresses', 'text', (c) => c.notNull())
      .addColumn('sent_at', 'varchar(32)')
      .addColumn('message_id', 'text')
      .addColumn('in_reply_to', 'text')
      .addColumn('reference_ids', 'text', (c) => c.notNull())
      .addColumn('content_type', 'text')
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('email_submissions_account_created')
      .on('email_submissions')
      .columns(['account_id', 'created_at'])
      .execute();
    await db.schema
      .createTable('documents')
      .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
      .addColumn('account_id', 'varchar(36)', (c) =>
        c.notNull().references('accounts.id').onDelete('cascade'),
      )
      .addColumn('email_submission_id', 'varchar(36)', (c) =>
        c.references('email_submissions.id').onDelete('set null'),
      )
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('source', 'varchar(20)', (c) => c.notNull())
      .addColumn('file_name', 'text', (c) => c.notNull())
      .addColumn('content_type', 'varchar(100)', (c) => c.notNull())
      .addColumn('size_bytes', 'integer', (c) => c.notNull())
      .addColumn('sha256', 'varchar(64)', (c) => c.notNull())
      .addColumn('rotation', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('document_type', 'varchar(40)', (c) => c.notNull())
      .addColumn('document_type_manual', 'varchar(40)')
      .addColumn('classification_notes', 'text')
      .addColumn('extraction_status', 'varchar(20)', (c) => c.notNull())
      .addColumn('extraction_error', 'text')
      .addColumn('extraction_id', 'varchar(36)')
      .addColumn('extracted', 'text')
      .addColumn('extracted_at', 'varchar(32)')
      .addColumn('extracted_manual', 'text')
      .addColumn('shipment_ids', 'text', (c) => c.notNull())
      .addColumn('container_ids', 'text', (c) => c.notNull())
      .addColumn('tracking_request_ids', 'text', (c) => c.notNull())
      .addColumn('discarded_at', 'varchar(32)')
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('documents_account_created')
      .on('documents')
      .columns(['account_id', 'created_at'])
      .execute();
    await db.schema
      .createIndex('documents_account_hash')
      .on('documents')
      .columns(['account_id', 'sha256'])
      .execute();
    await db.schema
      .createTable('document_settings')
      .addColumn('account_id', 'varchar(36)', (c) =>
        c.primaryKey().references('accounts.id').onDelete('cascade'),
      )
      .addColumn('tracking_mode', 'varchar(20)', (c) => c.notNull())
      .addColumn('inbox_token', 'varchar(64)', (c) => c.notNull().unique())
      .execute();
  },
};

/**
 * DCSA event subscriptions (push) held with carriers, one per tracked shipment, and the events
 * of each shipment's last line lookup, so a pushed event is applied together with the ones
 * already known, through the same path as a poll.
 */
const lineSubscriptions: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .createTable('line_subscriptions')
      .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
      .addColumn('shipment_id', 'varchar(36)', (c) =>
        c.notNull().unique().references('shipments.id').onDelete('cascade'),
      )
      .addColumn('scac', 'varchar(4)', (c) => c.notNull())
      .addColumn('carrier_subscription_id', 'text', (c) => c.notNull())
      .addColumn('secret', 'text', (c) => c.notNull())
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('last_callback_at', 'varchar(32)')
      .execute();
    await db.schema
      .createTable('line_event_snapshots')
      .addColumn('shipment_id', 'varchar(36)', (c) =>
        c.primaryKey().references('shipments.id').onDelete('cascade'),
      )
      .addColumn('events', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
      .execute();
  },
};

/**
 * Custom field definitions, their options and values (on shipments, containers and tracking
 * requests), and parties, with the customer a tracking request or shipment is for.
 */
const customFieldsParties: Migration = {
  async up(db: AnyDb) {
    const accountRef = (c: ColumnDefinitionBuilder) =>
      c.notNull().references('accounts.id').onDelete('cascade');
    await db.schema
      .createTable('custom_field_definitions')
      .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
      .addColumn('account_id', 'varchar(36)', accountRef)
      .addColumn('entity_type', 'varchar(20)', (c) => c.notNull())
      .addColumn('api_slug', 'varchar(100)', (c) => c.notNull())
      .addColumn('display_name', 'text', (c) => c.notNull())
      .addColumn('description', 'text')
      .addColumn('data_type', 'varchar(20)', (c) => c.notNull())
      .addColumn('reference_type', 'text')
      .addColumn('validation', 'text')
      .addColumn('default_format', 'text')
      .addColumn('default_value', 'text')
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
      .addUniqueConstraint('custom_field_definitions_slug', [
        'account_id',
        'entity_type',
        'api_slug',
      ])
      .execute();
    await db.schema
      .createTable('custom_field_options')
      .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
      .addColumn('account_id', 'varchar(36)', accountRef)
      .addColumn('definition_id', 'varchar(36)', (c) =>
        c.notNull().references('custom_field_definitions.id').onDelete('cascade'),
      )
      .addColumn('label', 'text', (c) => c.notNull())
      .addColumn('value', 'varchar(200)', (c) => c.notNull())
      .addColumn('position', 'integer')
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
      .addUniqueConstraint('custom_field_options_value', ['definition_id', 'value'])
      .execute();
    await db.schema
      .createTable('custom_field_values')
      .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
      .addColumn('account_id', 'varchar(36)', accountRef)
      .addColumn('definition_id', 'varchar(36)', (c) =>
        c.notNull().references('custom_field_definitions.id').onDelete('cascade'),
      )
      .addColumn('entity_type', 'varchar(20)', (c) => c.notNull())
      .addColumn('entity_id', 'varchar(36)', (c) => c.notNull())
      .addColumn('value', 'text', (c) => c.notNull())
      .addColumn('match_text', 'text', (c) => c.notNull())
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
      .addUniqueConstraint('custom_field_values_entity', ['definition_id', 'entity_id'])
      .execute();
    await db.schema
      .createIndex('custom_field_values_entity_lookup')
      .on('custom_field_values')
      .columns(['entity_id', 'entity_type'])
      .execute();
    await db.schema
      .createIndex('custom_field_values_account')
      .on('custom_field_values')
      .columns(['account_id', 'created_at'])
      .execute();
    await db.schema
      .createTable('parties')
      .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
      .addColumn('account_id', 'varchar(36)', accountRef)
      .addColumn('company_name', 'varchar(200)', (c) => c.notNull())
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
      .addUniqueConstraint('parties_company_name', ['account_id', 'company_name'])
      .execute();
    await db.schema
      .alterTable('tracking_requests')
      .addColumn('customer_id', 'varchar(36)', (c) =>
        c.references('parties.id').onDelete('set null'),
      )
      .execute();
    await db.schema
      .alterTable('shipments')
      .addColumn('customer_id', 'varchar(36)', (c) =>
        c.references('parties.id').onDelete('set null'),
      )
      .execute();
  },
};

/** Leases on shared work for several instances on one PostgreSQL database (work-leases.ts). */
const workLeases: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .createTable('work_leases')
      .addColumn('key', 'varchar(120)', (c) => c.primaryKey())
      .addColumn('owner', 'varchar(80)', (c) => c.notNull())
      .addColumn('expires_at_ms', 'bigint', (c) => c.notNull())
      .execute();
  },
};

/** Signed callback bodies already accepted, shared by every instance (callback-receipts.ts). */
const callbackReceipts: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .createTable('callback_receipts')
      .addColumn('subscription_id', 'varchar(200)', (c) => c.notNull())
      .addColumn('digest', 'varchar(64)', (c) => c.notNull())
      .addColumn('received_at_ms', 'bigint', (c) => c.notNull())
      // The key is what makes exactly one instance accept a body two of them receive at once.
      .addPrimaryKeyConstraint('callback_receipts_pk', ['subscription_id', 'digest'])
      .execute();
    await db.schema
      .createIndex('callback_receipts_received')
      .on('callback_receipts')
      .column('received_at_ms')
      .execute();
  },
};

/**
 * Per-account request budgets shared by every instance on one PostgreSQL database
 * (rate-limit-windows.ts); unused on SQLite, where one process keeps them in memory.
 */
const rateLimitWindows: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .createTable('rate_limit_windows')
      .addColumn('key', 'varchar(200)', (c) => c.primaryKey())
      // JSON object: allowed hits per second (epoch seconds) inside the window. Replaced by
      // rate_limit_budgets (0022).
      .addColumn('hits', 'text', (c) => c.notNull())
      .addColumn('refused', 'integer', (c) => c.notNull().defaultTo(0))
      // Not indexed: every request rewrites its budget's row, which then stays a cheap in-page
      // update; the minutely prune scans a table of a few rows per account.
      .addColumn('last_at_ms', 'bigint', (c) => c.notNull())
      .execute();
  },
};

/**
 * Each account's number of containers and shipments, kept by triggers on both engines, so the
 * total of an unfiltered list is one row read instead of a count that grows with the table
 * (PostgreSQL counts by visiting every row). Triggers, not store code, so every insert path
 * (engine, seeding, future imports) keeps them true.
 */
const accountRecordCounts: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .createTable('account_record_counts')
      .addColumn('account_id', 'varchar(36)', (c) => c.primaryKey())
      .addColumn('containers', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('shipments', 'bigint', (c) => c.notNull().defaultTo(0))
      .execute();
    await sql`INSERT INTO account_record_counts (account_id, containers, shipments)
      SELECT a.id,
        (SELECT count(*) FROM containers c WHERE c.account_id = a.id),
        (SELECT count(*) FROM shipments s WHERE s.account_id = a.id)
      FROM accounts a`.execute(db);
    const tables = ['containers', 'shipments'] as const;
    if (storeKindOf(db) === 'postgres') {
      await sql`CREATE FUNCTION account_record_counts_keep() RETURNS trigger AS $$
        BEGIN
          IF TG_OP = 'INSERT' THEN
            IF TG_TABLE_NAME = 'containers' THEN
              INSERT INTO account_record_counts (account_id, containers) VALUES (NEW.account_id, 1)
                ON CONFLICT (account_id) DO UPDATE
                SET containers = account_record_counts.containers + 1;
            ELSE
              INSERT INTO account_record_counts (account_id, shipments) VALUES (NEW.account_id, 1)
                ON CONFLICT (account_id) DO UPDATE
                SET shipments = account_record_counts.shipments + 1;
            END IF;
            RETURN NEW;
          END IF;
          IF TG_TABLE_NAME = 'containers' THEN
            UPDATE account_record_counts SET containers = containers - 1
              WHERE account_id = OLD.account_id;
          ELSE
            UPDATE account_record_counts SET shipments = shipments - 1
              WHERE account_id = OLD.account_id;
          END IF;
          RETURN OLD;
        END $$ LANGUAGE plpgsql`.execute(db);
      for (const table of tables) {
        await sql`CREATE TRIGGER ${sql.raw(`${table}_counted`)}
          AFTER INSERT OR DELETE ON ${sql.table(table)}
          FOR EACH ROW EXECUTE FUNCTION account_record_counts_keep()`.execute(db);
      }
      return;
    }
    for (const table of tables) {
      await sql`CREATE TRIGGER ${sql.raw(`${table}_counted_insert`)} AFTER INSERT ON ${sql.table(table)}
        BEGIN
          INSERT INTO account_record_counts (account_id, ${sql.raw(table)}) VALUES (NEW.account_id, 1)
            ON CONFLICT (account_id) DO UPDATE SET ${sql.raw(table)} = ${sql.raw(table)} + 1;
        END`.execute(db);
      await sql`CREATE TRIGGER ${sql.raw(`${table}_counted_delete`)} AFTER DELETE ON ${sql.table(table)}
        BEGIN
          UPDATE account_record_counts SET ${sql.raw(table)} = ${sql.raw(table)} - 1
            WHERE account_id = OLD.account_id;
        END`.execute(db);
    }
  },
};

/**
 * On PostgreSQL, records' creation and change times become `timestamptz` (time arithmetic,
 * range scans and zone-correct comparisons in the database; dialect.ts reads them back as the
 * ISO text SQLite keeps, so rows keep one shape). Every `created_at` / `updated_at` column the
 * schema has so far; they only ever hold the service's own ISO instants. SQLite keeps ISO text,
 * whose order is time order.
 */
const nativeTimestamps: Migration = {
  async up(db: AnyDb) {
    if (storeKindOf(db) !== 'postgres') return;
    const { rows } = await sql<{ table_name: string; column_name: string }>`
      SELECT table_name, column_name FROM information_schema.columns
      WHERE table_schema = current_schema()
        AND column_name IN ('created_at', 'updated_at')
        AND data_type = 'character varying'
      ORDER BY table_name, column_name`.execute(db);
    const byTable = new Map<string, string[]>();
    for (const row of rows)
      byTable.set(row.table_name, [...(byTable.get(row.table_name) ?? []), row.column_name]);
    for (const [table, columns] of byTable) {
      const changes = columns.map(
        (column) =>
          sql`ALTER COLUMN ${sql.ref(column)} TYPE timestamptz USING ${sql.ref(column)}::timestamptz`,
      );
      await sql`ALTER TABLE ${sql.table(table)} ${sql.join(changes)}`.execute(db);
    }
  },
};

/** Yes/no columns, 0/1 integers on SQLite; `boolean` on PostgreSQL since migration 0014. */
const BOOLEAN_COLUMNS: ReadonlyArray<readonly [table: string, column: string]> = [
  ['accounts', 'routing_enabled'],
  ['tracking_requests', 'is_retrying'],
  ['containers', 'availability_known'],
  ['containers', 'available_for_pickup'],
  ['raw_events', 'estimated'],
  ['webhooks', 'active'],
  ['webhook_delivery_attempts', 'succeeded'],
];

/**
 * On PostgreSQL, yes/no columns become `boolean`: the database refuses a 2 or a -1 and a reader
 * of the schema (or a report in SQL) sees what they mean. dialect.ts reads them back as the 0/1
 * SQLite keeps, and the 0/1 the store writes are valid boolean input, so rows keep one shape.
 */
const nativeBooleans: Migration = {
  async up(db: AnyDb) {
    if (storeKindOf(db) !== 'postgres') return;
    for (const [table, column] of BOOLEAN_COLUMNS) {
      const { rows } = await sql<{ column_default: string | null }>`
        SELECT column_default FROM information_schema.columns
        WHERE table_schema = current_schema() AND table_name = ${table}
          AND column_name = ${column} AND data_type = 'integer'`.execute(db);
      // Already boolean (a database migrated before): nothing to do.
      if (rows.length === 0) continue;
      const hadDefault = rows[0]?.column_default != null;
      const ref = sql.ref(column);
      await sql`ALTER TABLE ${sql.table(table)}
        ALTER COLUMN ${ref} DROP DEFAULT,
        ALTER COLUMN ${ref} TYPE boolean USING ${ref} <> 0`.execute(db);
      if (hadDefault)
        await sql`ALTER TABLE ${sql.table(table)} ALTER COLUMN ${ref} SET DEFAULT false`.execute(
          db,
        );
    }
  },
};

/**
 * Custom field values a tracking request stages for the shipment and containers it will create
 * (`initial_custom_fields`), checked at creation and kept as JSON until the request resolves.
 */
const initialCustomFields: Migration = {
  async up(db: AnyDb) {
    // Idempotent like 0013 and 0014: a migration run again over a done schema changes nothing.
    const tables = await db.introspection.getTables();
    const requests = tables.find((table) => table.name === 'tracking_requests');
    if (requests?.columns.some((column) => column.name === 'initial_custom_fields')) return;
    await db.schema
      .alterTable('tracking_requests')
      .addColumn('initial_custom_fields', 'text')
      .execute();
  },
};

/**
 * Attributes the real service's records carry: the first ETD and destination ETA a line gave,
 * and a container's milestones at the port of loading (empty out, full in, loaded, departed).
 */
const realApiAttributes: Migration = {
  async up(db: AnyDb) {
    const tables = await db.introspection.getTables();
    const has = (table: string, column: string) =>
      tables.some((t) => t.name === table && t.columns.some((c) => c.name === column));
    const add: [table: string, column: string][] = [
      ['shipments', 'pol_original_etd_at'],
      ['shipments', 'destination_original_eta_at'],
      ['containers', 'empty_out_at'],
      ['containers', 'pol_full_in_at'],
      ['containers', 'pol_vessel_loaded_at'],
      ['containers', 'pol_vessel_departed_at'],
    ];
    for (const [table, column] of add) {
      if (!has(table, column)) {
        await db.schema.alterTable(table).addColumn(column, 'varchar(32)').execute();
      }
    }
  },
};

/**
 * Truckers (a Quayside extension): a party's roles, SCAC and contacts, and the trucker a
 * container is assigned to. Idempotent like 0016.
 */
const truckers: Migration = {
  async up(db: AnyDb) {
    const tables = await db.introspection.getTables();
    const has = (table: string, column: string) =>
      tables.some((t) => t.name === table && t.columns.some((c) => c.name === column));
    if (!has('parties', 'roles')) {
      await db.schema
        .alterTable('parties')
        .addColumn('roles', 'text', (c) => c.notNull().defaultTo('[]'))
        .execute();
    }
    if (!has('parties', 'scac')) {
      await db.schema.alterTable('parties').addColumn('scac', 'varchar(4)').execute();
    }
    if (!has('parties', 'contacts')) {
      await db.schema
        .alterTable('parties')
        .addColumn('contacts', 'text', (c) => c.notNull().defaultTo('[]'))
        .execute();
    }
    if (!has('containers', 'trucker_id')) {
      await db.schema
        .alterTable('containers')
        .addColumn('trucker_id', 'varchar(36)', (c) =>
          c.references('parties.id').onDelete('set null'),
        )
        .execute();
    }
  },
};

/**
 * The kinds of number each line is tracked by (the reference data rewrites it on start), and
 * the carrier's or terminal's own name of a place outside the reference data on a milestone.
 */
const lineNumberKinds: Migration = {
  async up(db: AnyDb) {
    const tables = await db.introspection.getTables();
    const has = (table: string, column: string) =>
      tables.some((t) => t.name === table && t.columns.some((c) => c.name === column));
    if (!has('shipping_lines', 'tracks_by')) {
      await db.schema
        .alterTable('shipping_lines')
        .addColumn('tracks_by', 'text', (c) =>
          c.notNull().defaultTo('["bill_of_lading","booking_number","container"]'),
        )
        .execute();
    }
    if (!has('transport_events', 'location_name')) {
      await db.schema.alterTable('transport_events').addColumn('location_name', 'text').execute();
    }
  },
};

/**
 * What a delivery order stated, kept with its document (a Quayside extension set on upload), so
 * every desktop can tell when a later change makes the order wrong; and the pickup number a
 * terminal feed gives for a box, which the order carries.
 */
const deliveryOrders: Migration = {
  async up(db: AnyDb) {
    const tables = await db.introspection.getTables();
    const has = (table: string, column: string) =>
      tables.some((t) => t.name === table && t.columns.some((c) => c.name === column));
    if (!has('documents', 'delivery_order')) {
      await db.schema.alterTable('documents').addColumn('delivery_order', 'text').execute();
    }
    if (!has('containers', 'pickup_number')) {
      await db.schema.alterTable('containers').addColumn('pickup_number', 'text').execute();
    }
  },
};

/** Who a delivery order was emailed to and when (JSON), set by POST /documents/{id}/send. */
const deliveryOrderEmails: Migration = {
  async up(db: AnyDb) {
    const tables = await db.introspection.getTables();
    const has = tables.some(
      (t) => t.name === 'documents' && t.columns.some((c) => c.name === 'emailed'),
    );
    if (!has) await db.schema.alterTable('documents').addColumn('emailed', 'text').execute();
  },
};

/**
 * PostgreSQL: a counter of commits that changed the rendered tables (row-versions.ts,
 * StoreVersion). Each statement that changes rows of them adds one to its connection's own row
 * (keyed by the backend's process id): no two running transactions ever write the same row, so
 * the counter adds no lock wait, and no deadlock, between writers. The sum over the rows moves
 * with every such commit, whichever instance made it, and with nothing else. An instance keeps
 * what it read while the sum it finds is the one it read under. SQLite needs none: one process
 * owns the file and data_version tells it of others' commits (db.ts).
 */
const renderedVersions: Migration = {
  async up(db: AnyDb) {
    if (storeKindOf(db) !== 'postgres') return;
    // Row 0 holds the counts of connections that have ended (foldRenderedVersions).
    await sql`CREATE TABLE IF NOT EXISTS rendered_versions (backend integer PRIMARY KEY, n bigint NOT NULL)`.execute(
      db,
    );
    await sql`INSERT INTO rendered_versions (backend, n) VALUES (0, 0)
      ON CONFLICT (backend) DO NOTHING`.execute(db);
    const bump = sql.raw(
      `INSERT INTO rendered_versions AS v (backend, n) VALUES (pg_backend_pid(), 1)
         ON CONFLICT (backend) DO UPDATE SET n = v.n + 1`,
    );
    // A statement that changed no row (an update that matched nothing) leaves kept reads alone.
    await sql`CREATE OR REPLACE FUNCTION rendered_versions_bump() RETURNS trigger AS $$
      BEGIN
        IF EXISTS (SELECT 1 FROM changed) THEN ${bump}; END IF;
        RETURN NULL;
      END $$ LANGUAGE plpgsql`.execute(db);
    await sql`CREATE OR REPLACE FUNCTION rendered_versions_bump_always() RETURNS trigger AS $$
      BEGIN ${bump}; RETURN NULL; END $$ LANGUAGE plpgsql`.execute(db);
    for (const table of ['containers', 'shipments', 'transport_events', 'raw_events']) {
      // PostgreSQL allows a transition table only on a trigger for one kind of change.
      for (const [op, rows] of [
        ['INSERT', 'NEW'],
        ['UPDATE', 'NEW'],
        ['DELETE', 'OLD'],
      ] as const) {
        const name = sql.raw(`${table}_versioned_${op.toLowerCase()}`);
        await sql`DROP TRIGGER IF EXISTS ${name} ON ${sql.table(table)}`.execute(db);
        await sql`CREATE TRIGGER ${name}
          AFTER ${sql.raw(op)} ON ${sql.table(table)}
          REFERENCING ${sql.raw(rows)} TABLE AS changed
          FOR EACH STATEMENT EXECUTE FUNCTION rendered_versions_bump()`.execute(db);
      }
      const name = sql.raw(`${table}_versioned_truncate`);
      await sql`DROP TRIGGER IF EXISTS ${name} ON ${sql.table(table)}`.execute(db);
      await sql`CREATE TRIGGER ${name}
        AFTER TRUNCATE ON ${sql.table(table)}
        FOR EACH STATEMENT EXECUTE FUNCTION rendered_versions_bump_always()`.execute(db);
    }
  },
};

/**
 * PostgreSQL: the shared request budgets as two arrays (epoch seconds and hits in each) in
 * `rate_limit_budgets`, counted by one PL/pgSQL function, `rate_limit_take`
 * (store/rate-limit-windows.ts). The JSON object of `rate_limit_windows` was turned into rows and
 * back twice on every take: 276 µs of the server's CPU a take against 103 µs now, measured one
 * after another on one connection. The old table is left as it is, for instances of the previous
 * version still running beside new ones while they are replaced (each side keeps its own budget
 * for that minute). SQLite needs neither (its budgets live in process memory).
 */
const rateLimitArrays: Migration = {
  async up(db: AnyDb) {
    if (storeKindOf(db) !== 'postgres') return;
    await sql`CREATE TABLE IF NOT EXISTS rate_limit_budgets (
      key varchar(200) PRIMARY KEY,
      seconds bigint[] NOT NULL,
      counts bigint[] NOT NULL,
      last_at_ms bigint NOT NULL
    )`.execute(db);
    // The row is locked while it is read and rewritten, so concurrent takes on one budget (from
    // any instance) run one after another, each on what the previous one left. A second holds
    // at most one entry; the entries need not be in order (instances' clocks may differ a little).
    await sql`CREATE OR REPLACE FUNCTION rate_limit_take(
        p_key text, p_limit bigint, p_cutoff_ms bigint, p_now_ms bigint, p_count bigint,
        OUT granted bigint, OUT oldest_s bigint, OUT used bigint)
      LANGUAGE plpgsql AS $$
      DECLARE
        now_s bigint := floor(p_now_ms / 1000.0);
        old_s bigint[];
        old_c bigint[];
        new_s bigint[] := '{}';
        new_c bigint[] := '{}';
        at int := 0;
        total bigint := 0;
      BEGIN
        SELECT seconds, counts INTO old_s, old_c FROM rate_limit_budgets
          WHERE key = p_key FOR UPDATE;
        IF NOT FOUND THEN
          INSERT INTO rate_limit_budgets (key, seconds, counts, last_at_ms)
            VALUES (p_key, '{}', '{}', p_now_ms) ON CONFLICT (key) DO NOTHING;
          SELECT seconds, counts INTO old_s, old_c FROM rate_limit_budgets
            WHERE key = p_key FOR UPDATE;
        END IF;
        FOR i IN 1..coalesce(array_length(old_s, 1), 0) LOOP
          IF old_s[i] * 1000 > p_cutoff_ms THEN
            new_s := new_s || old_s[i];
            new_c := new_c || old_c[i];
            total := total + old_c[i];
            IF old_s[i] = now_s THEN at := coalesce(array_length(new_s, 1), 0); END IF;
          END IF;
        END LOOP;
        granted := greatest(0, least(p_count, p_limit - total));
        IF granted > 0 THEN
          IF at > 0 THEN new_c[at] := new_c[at] + granted;
          ELSE new_s := new_s || now_s; new_c := new_c || granted;
          END IF;
        END IF;
        used := total + granted;
        SELECT min(x) INTO oldest_s FROM unnest(new_s) AS x;
        UPDATE rate_limit_budgets SET seconds = new_s, counts = new_c, last_at_ms = p_now_ms
          WHERE key = p_key;
      END $$`.execute(db);
  },
};

/**
 * A take may first give back hits an instance took ahead and did not use (SharedWindowLimiter
 * asks for the rest of a second's expected requests in one statement and returns what is left
 * with its next one), so the window counts only hits that were granted to requests. One home for
 * the rule: `rate_limit_take` (0022), still called by instances of the previous version, becomes
 * this function with nothing to give back.
 */
const rateLimitGiveBack: Migration = {
  async up(db: AnyDb) {
    if (storeKindOf(db) !== 'postgres') return;
    await sql`CREATE OR REPLACE FUNCTION rate_limit_give_back_and_take(
        p_key text, p_limit bigint, p_cutoff_ms bigint, p_now_ms bigint, p_count bigint,
        p_back_s bigint, p_back bigint,
        OUT granted bigint, OUT oldest_s bigint, OUT used bigint)
      LANGUAGE plpgsql AS $$
      DECLARE
        now_s bigint := floor(p_now_ms / 1000.0);
        old_s bigint[];
        old_c bigint[];
        new_s bigint[] := '{}';
        new_c bigint[] := '{}';
        c bigint;
        at int := 0;
        total bigint := 0;
      BEGIN
        SELECT seconds, counts INTO old_s, old_c FROM rate_limit_budgets
          WHERE key = p_key FOR UPDATE;
        IF NOT FOUND THEN
          INSERT INTO rate_limit_budgets (key, seconds, counts, last_at_ms)
            VALUES (p_key, '{}', '{}', p_now_ms) ON CONFLICT (key) DO NOTHING;
          SELECT seconds, counts INTO old_s, old_c FROM rate_limit_budgets
            WHERE key = p_key FOR UPDATE;
        END IF;
        FOR i IN 1..coalesce(array_length(old_s, 1), 0) LOOP
          c := old_c[i];
          IF old_s[i] = p_back_s THEN c := greatest(0, c - p_back); END IF;
          IF old_s[i] * 1000 > p_cutoff_ms AND c > 0 THEN
            new_s := new_s || old_s[i];
            new_c := new_c || c;
            total := total + c;
            IF old_s[i] = now_s THEN at := coalesce(array_length(new_s, 1), 0); END IF;
          END IF;
        END LOOP;
        granted := greatest(0, least(p_count, p_limit - total));
        IF granted > 0 THEN
          IF at > 0 THEN new_c[at] := new_c[at] + granted;
          ELSE new_s := new_s || now_s; new_c := new_c || granted;
          END IF;
        END IF;
        used := total + granted;
        SELECT min(x) INTO oldest_s FROM unnest(new_s) AS x;
        UPDATE rate_limit_budgets SET seconds = new_s, counts = new_c, last_at_ms = p_now_ms
          WHERE key = p_key;
      END $$`.execute(db);
    await sql`CREATE OR REPLACE FUNCTION rate_limit_take(
        p_key text, p_limit bigint, p_cutoff_ms bigint, p_now_ms bigint, p_count bigint,
        OUT granted bigint, OUT oldest_s bigint, OUT used bigint)
      LANGUAGE sql AS $$
        SELECT * FROM rate_limit_give_back_and_take(p_key, p_limit, p_cutoff_ms, p_now_ms,
          p_count, NULL, 0)
      $$`.execute(db);
  },
};

/** Ordered by name; add new migrations with increasing prefixes. */
export const migrations: Record<string, Migration> = {
  '0001_initial': initial,
  '0002_tracking_engine': trackingEngine,
  '0003_webhook_delivery': webhookDelivery,
  '0004_route_map': routeMap,
  '0005_account_identity': accountIdentity,
  '0006_documents': documents,
  '0007_line_subscriptions': lineSubscriptions,
  '0008_custom_fields_parties': customFieldsParties,
  '0009_work_leases': workLeases,
  '0010_callback_receipts': callbackReceipts,
  '0011_rate_limit_windows': rateLimitWindows,
  '0012_account_record_counts': accountRecordCounts,
  '0013_native_timestamps': nativeTimestamps,
  '0014_native_booleans': nativeBooleans,
  '0015_initial_custom_fields': initialCustomFields,
  '0016_real_api_attributes': realApiAttributes,
  '0017_truckers': truckers,
  '0018_line_number_kinds': lineNumberKinds,
  '0019_delivery_orders': deliveryOrders,
  '0020_delivery_order_emails': deliveryOrderEmails,
  '0021_rendered_versions': renderedVersions,
  '0022_rate_limit_arrays': rateLimitArrays,
  '0023_rate_limit_give_back': rateLimitGiveBack,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};
