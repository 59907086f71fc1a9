/**
 * Schema of the desktop cache, versioned with `PRAGMA user_version`. Each entry upgrades the
 * schema by one version inside one transaction; never edit a shipped entry, append a new one.
 */
export const MIGRATIONS: readonly string[] = [
  // 1: the first schema.
  `
  CREATE TABLE shipments (
    id TEXT PRIMARY KEY,
    bill_of_lading TEXT NOT NULL,
    line_scac TEXT,
    line_name TEXT,
    customer_name TEXT,
    ref_numbers TEXT NOT NULL,
    pol_locode TEXT,
    pod_locode TEXT,
    pod_name TEXT,
    vessel_name TEXT,
    voyage_number TEXT,
    pol_atd_at TEXT,
    pod_eta_at TEXT,
    pod_ata_at TEXT,
    pod_timezone TEXT,
    updated_at TEXT,
    hash TEXT NOT NULL,
    json TEXT NOT NULL,
    synced_at TEXT NOT NULL
  ) STRICT;

  CREATE TABLE terminals (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    json TEXT NOT NULL
  ) STRICT;

  -- The integer key doubles as the full-text index's rowid.
  CREATE TABLE containers (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    shipment_id TEXT,
    number TEXT NOT NULL,
    ref_numbers TEXT NOT NULL,
    current_status TEXT NOT NULL,
    pod_terminal_id TEXT,
    pod_arrived_at TEXT,
    pod_discharged_at TEXT,
    availability_known INTEGER NOT NULL CHECK (availability_known IN (0, 1)),
    available_for_pickup INTEGER CHECK (available_for_pickup IN (0, 1)),
    ready INTEGER NOT NULL CHECK (ready IN (0, 1)),
    holds_count INTEGER NOT NULL CHECK (holds_count >= 0),
    fees_amount REAL,
    fees_currency TEXT,
    lfd TEXT,
    lfd_source TEXT CHECK (lfd_source IN ('line', 'terminal', 'rail')),
    pickup_appointment_at TEXT,
    picked_up_at TEXT,
    empty_returned_at TEXT,
    terminal_checked_at TEXT,
    updated_at TEXT,
    pod_timezone TEXT,
    hash TEXT NOT NULL,
    json TEXT NOT NULL,
    first_seen_at TEXT NOT NULL,
    synced_at TEXT NOT NULL,
    -- Set when the container changed and its events are not fetched yet; cleared with the events.
    events_stale INTEGER NOT NULL DEFAULT 1 CHECK (events_stale IN (0, 1))
  ) STRICT;
  CREATE INDEX containers_shipment ON containers (shipment_id);
  CREATE INDEX containers_lfd ON containers (lfd);
  CREATE INDEX containers_status ON containers (current_status);
  CREATE INDEX containers_events_stale ON containers (events_stale) WHERE events_stale = 1;

  CREATE TABLE transport_events (
    id TEXT PRIMARY KEY,
    container_id TEXT NOT NULL,
    shipment_id TEXT,
    event TEXT NOT NULL,
    timestamp TEXT,
    timezone TEXT,
    location_locode TEXT,
    data_source TEXT NOT NULL,
    created_at TEXT NOT NULL,
    json TEXT NOT NULL
  ) STRICT;
  CREATE INDEX transport_events_container ON transport_events (container_id);

  CREATE TABLE route_maps (
    container_id TEXT PRIMARY KEY,
    geojson TEXT NOT NULL,
    fetched_at TEXT NOT NULL,
    etag TEXT,
    completed INTEGER NOT NULL CHECK (completed IN (0, 1))
  ) STRICT;

  CREATE TABLE alerts (
    id INTEGER PRIMARY KEY,
    dedupe_key TEXT NOT NULL UNIQUE,
    kind TEXT NOT NULL,
    container_id TEXT,
    shipment_id TEXT,
    title TEXT NOT NULL,
    body TEXT NOT NULL,
    created_at TEXT NOT NULL,
    read_at TEXT,
    notified_at TEXT
  ) STRICT;
  CREATE INDEX alerts_unread ON alerts (created_at) WHERE read_at IS NULL;

  CREATE TABLE sync_state (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
  ) STRICT;

  CREATE VIRTUAL TABLE container_search USING fts5(
    number, bill_of_lading, ref_numbers, vessel, customer,
    tokenize = 'unicode61'
  );
  `,
  // 2: a container's transport events as one row (the list in display order) instead of one row
  // per event. Events are only ever written and read as a container's whole history, and a
  // random-UUID index over 200k event rows made every sync write touch hundreds of index pages.
  // Keyed by the container's integer key, so new containers append instead of landing at random.
  `
  CREATE TABLE container_events (
    container_seq INTEGER PRIMARY KEY,
    event_count INTEGER NOT NULL CHECK (event_count >= 0),
    json TEXT NOT NULL
  ) STRICT;

  INSERT INTO container_events (container_seq, event_count, json)
    SELECT c.seq, count(*),
      json_group_array(json(e.json)
        ORDER BY e.timestamp IS NULL, e.timestamp DESC, e.created_at DESC, e.id)
    FROM transport_events e JOIN containers c ON c.id = e.container_id
    GROUP BY c.seq;

  DROP TABLE transport_events;
  `,
  // 3: each last free day as a calendar day of its own zone (src/shared/container.ts): the list
  // of deadlines, and the instants the board's calendar views compare with. Filled for existing
  // rows from their stored JSON right after this step (see migrate.ts).
  `
  ALTER TABLE containers ADD COLUMN lfd_deadlines TEXT;
  ALTER TABLE containers ADD COLUMN lfd_first_due_at INTEGER;
  ALTER TABLE containers ADD COLUMN lfd_first_end_at INTEGER;
  ALTER TABLE containers ADD COLUMN lfd_last_end_at INTEGER;
  ALTER TABLE containers ADD COLUMN appointment_day_at INTEGER;
  CREATE INDEX containers_lfd_first_due ON containers (lfd_first_due_at);
  CREATE INDEX containers_lfd_last_end ON containers (lfd_last_end_at);
  `,
  // 4: custom fields. The account's definitions (with their options), and the values of
  // shipments and containers, one row per record and api_slug, with the projections the board
  // sorts (`sort_key`), searches (`search_text`, lower case) and filters options on (`choices`,
  // option values framed by U+001F). The search index gains a column for the values, so it is
  // made again and filled right after this step (see migrate.ts). The next run is a
  // full walk (cursors forgotten), which brings the values of records that did not change.
  `
  CREATE TABLE custom_field_definitions (
    id TEXT PRIMARY KEY,
    entity_type TEXT NOT NULL,
    api_slug TEXT NOT NULL,
    display_name TEXT NOT NULL,
    data_type TEXT NOT NULL,
    options TEXT NOT NULL,
    json TEXT NOT NULL
  ) STRICT;
  CREATE INDEX custom_field_definitions_slug ON custom_field_definitions (api_slug);

  CREATE TABLE custom_field_values (
    id TEXT PRIMARY KEY,
    entity_type TEXT NOT NULL CHECK (entity_type IN ('shipment', 'container')),
    entity_id TEXT NOT NULL,
    definition_id TEXT,
    api_slug TEXT NOT NULL,
    data_type TEXT NOT NULL,
    value TEXT NOT NULL,
    display_value TEXT NOT NULL,
    sort_key ANY NOT NULL,
    search_text TEXT NOT NULL,
    choices TEXT
  ) STRICT;
  CREATE UNIQUE INDEX custom_field_values_slot
    ON custom_field_values (entity_id, entity_type, api_slug);

  DROP TABLE container_search;
  CREATE VIRTUAL TABLE container_search USING fts5(
    number, bill_of_lading, ref_numbers, vessel, customer, custom_fields,
    tokenize = 'unicode61'
  );

  DELETE FROM sync_state
    WHERE key IN ('shipments_cursor', 'containers_cursor', 'last_full_walk_at');
  `,
  // 5: indexes that answer counts without reading the rows: all events (a sum over this index
  // instead of every history row; the status line and each sync's result show it), and the
  // board's total for a line (shipments by line, then their containers with their status, the
  // filter every board query has unless completed boxes are shown).
  `
  CREATE INDEX container_events_count ON container_events (event_count);
  CREATE INDEX shipments_line ON shipments (line_scac);
  DROP INDEX containers_shipment;
  CREATE INDEX containers_shipment_status ON containers (shipment_id, current_status);
  `,
  // 6: the boxes out of the terminal (picked up, maybe not yet returned), whose empty-return
  // free time the morning watch follows: found without reading every container. A line's
  // shipments with their ids in the index, so that counting a line's containers reads no
  // shipment row (100k containers: 7 ms to 1.7 ms).
  `
  CREATE INDEX containers_picked_up ON containers (picked_up_at) WHERE picked_up_at IS NOT NULL;
  DROP INDEX shipments_line;
  CREATE INDEX shipments_line ON shipments (line_scac, id);
  `,
  // 7: a board window (the 100 rows in view) found from the indexes alone for its most common
  // question: one line's boxes in LFD or ETA order. The ids are sorted before any row is read,
  // but every matching row used to be looked up in the table for its number, id and LFD: a
  // line at 100k containers, 10k lookups, 15-18 ms; from these indexes, 2 ms.
  `
  DROP INDEX containers_shipment_status;
  CREATE INDEX containers_shipment_window
    ON containers (shipment_id, current_status, number, id, lfd_first_end_at);
  DROP INDEX shipments_line;
  CREATE INDEX shipments_line ON shipments (line_scac, id, pod_eta_at);
  `,
  // 8: records carry attributes the cache now keeps and shows (a box's dates at the port of
  // loading, delivery, the inland facility's holds and fees, the line's LFD, the first ETD and
  // destination ETA): the next sync reads every record again instead of only changed ones.
  `
  DELETE FROM sync_state
    WHERE key IN ('shipments_cursor', 'containers_cursor', 'last_full_walk_at');
  `,
  // 9: the D&D invoice received for a container (amount, currency, invoice date), entered by the
  // user to set beside its statement; its 30-day dispute window raises a reminder.
  `
  CREATE TABLE received_invoices (
    container_id TEXT PRIMARY KEY,
    amount REAL NOT NULL,
    currency TEXT NOT NULL,
    invoice_date TEXT NOT NULL,
    entered_at TEXT NOT NULL
  ) STRICT;
  CREATE INDEX received_invoices_date ON received_invoices (invoice_date);
  `,
  // 10: truckers. The account's parties with the trucker role (the assign menus and the
  // board's column read them offline), and each container's assigned trucker, projected from
  // the stored record (a service that already sent the relationship needs no new walk).
  `
  CREATE TABLE truckers (
    id TEXT PRIMARY KEY,
    company_name TEXT NOT NULL,
    scac TEXT,
    contacts TEXT NOT NULL,
    json TEXT NOT NULL
  ) STRICT;
  ALTER TABLE containers ADD COLUMN trucker_id TEXT;
  UPDATE containers SET trucker_id = json_extract(json, '$.relationships.trucker.data.id');
  CREATE INDEX containers_trucker ON containers (trucker_id) WHERE trucker_id IS NOT NULL;
  `,
  // 11: delivery orders made for containers: the latest per container, with what it said (the
  // LFD, terminal, appointment and holds), so a later change that makes it wrong is alerted.
  `
  CREATE TABLE delivery_orders (
    container_id TEXT PRIMARY KEY,
    document_id TEXT NOT NULL,
    trucker_id TEXT NOT NULL,
    trucker_name TEXT NOT NULL,
    facts TEXT NOT NULL,
    made_at TEXT NOT NULL
  ) STRICT;
  `,
  // 12: the hash of each stored event history, so a sync tells an unchanged history from the
  // hash alone instead of reading its whole text back (a history stored before has none and is
  // written once more). Ahead of the text: a column after it is reached only through the text's
  // overflow pages, so the table is made again rather than altered.
  `
  CREATE TABLE container_events_hashed (
    container_seq INTEGER PRIMARY KEY,
    event_count INTEGER NOT NULL CHECK (event_count >= 0),
    hash TEXT,
    json TEXT NOT NULL
  ) STRICT;
  INSERT INTO container_events_hashed (container_seq, event_count, json)
    SELECT container_seq, event_count, json FROM container_events;
  DROP TABLE container_events;
  ALTER TABLE container_events_hashed RENAME TO container_events;
  CREATE INDEX container_events_count ON container_events (event_count);
  `,
];
