/**
 * Alert texts write instants in the location's own zone (a dispatcher reads an LFD in the
 * terminal's local time), in the app's one date style (src/shared/date-style.ts).
 */
import { DateTime } from 'luxon';
import { formatDateTime } from '../../shared/date-style';

/** e.g. "3 Feb 2026 17:00 EST"; "none" for a missing value. Unknown zones fall back to UTC. */
export function formatInZone(
  iso: string | null | undefined,
  timeZone: string | null | undefined,
): string {
  if (!iso) return 'none';
  const known = timeZone && DateTime.local().setZone(timeZone).isValid;
  return formatDateTime(iso, known ? timeZone : 'UTC');
}
