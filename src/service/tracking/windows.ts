/** The tracking engine's time rules: retries, re-checks and the windows after which it stops. */
export const HOUR = 3600_000;
export const DAY = 24 * HOUR;

export const MAX_RETRIES = 14;
/** Doubling delays from this base add up to a day over MAX_RETRIES retries. */
export const RETRY_BASE_MS = Math.round(DAY / (2 ** MAX_RETRIES - 1));
export const AWAITING_RECHECK_MS = DAY;
export const AWAITING_LIMIT_MS = 7 * DAY;
export const ARRIVAL_WINDOW_MS = 56 * DAY;
export const NO_UPDATES_WINDOW_MS = 56 * DAY;
export const FULL_OUT_WINDOW_MS = 28 * DAY;
/** The SCAC of the test numbers (TEST-TR-SUCCEEDED, TEST-TR-FAILED), never polled. */
export const TEST_SCAC = 'TEST';
/** A carrier subscription silent this long no longer stands in for polling. */
export const SUBSCRIPTION_QUIET_MS = 12 * HOUR;
