/**
 * How often each kind of record is synced, in words for Settings and the connection test. The
 * sync engine (src/main/sync/engine.ts and its steps, strategy/history.ts) follows these cadences.
 */

/** How long the slow walk of finished shipments takes to go round the whole account once. */
export const HISTORY_CYCLE_HOURS = 24;

export const SYNC_CADENCE = {
  /** A service whose records carry `updated_at` (Quayside's own). */
  incremental: [
    'Shipments and containers: every sync, only those changed since the last one.',
    'Transport events: when their container changes.',
    'A full walk every 6 hours notices records removed on the service.',
  ],
  /** A Terminal49-compatible service: no `updated_at` on shipments and containers. */
  activeFirst: [
    'Shipments still tracked and their containers: every sync.',
    'Transport events: only for containers whose content changed.',
    'New tracking requests: every sync (the only list filtered by update time).',
    `Finished shipments: a slow walk in slices, once round every ${HISTORY_CYCLE_HOURS} hours.`,
  ],
} as const;
