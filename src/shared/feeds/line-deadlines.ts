/**
 * Carrier import deadlines: DCSA Track & Trace 2.2 has no last-free-day concept, yet several lines
 * publish one (the line's LFD, `pickup_lfd_line`). Quayside reads it from a small vendor extension
 * served beside the carrier's DCSA endpoints:
 *
 *   GET {carrierBaseUrl}/x-import-deadlines/{equipmentReference}
 *       -> 200 LineImportDeadlines | 404 (the line publishes none for this box)
 *
 * Same authentication as the carrier's DCSA endpoints.
 */
import { Type, type Static } from 'typebox';

export const LineImportDeadlines = Type.Object({
  equipmentReference: Type.String({ pattern: '^[A-Z]{4}[0-9]{7}$' }),
  /** Last free day per the line, UTC ISO 8601, or null when withdrawn. */
  lastFreeDay: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  /** Where the LFD applies: the port of discharge or the inland destination (UN/LOCODE). */
  locode: Type.String({ pattern: '^[A-Z]{2}[A-Z2-9]{3}$' }),
  updatedDateTime: Type.String({ format: 'date-time' }),
});

export type LineImportDeadlines = Static<typeof LineImportDeadlines>;
