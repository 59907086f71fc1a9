/**
 * Environment variables the tracking service reads, named once for both sides: the service reads
 * them, the desktop sets them for the embedded service it starts (main never imports the service).
 */

/** The key that seals secret columns (base64 of 32 bytes); else `secret.key` in the data folder. */
export const SECRET_KEY_ENV = 'QUAYSIDE_SECRET_KEY';
