/**
 * Formats instants for alert texts in the location's own time zone (a dispatcher reads an LFD
 * in the terminal's local time). Luxon is not installed, so this uses Intl directly.
 */
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      weekday: 'short',
      month: 'short',
      day: 'numeric',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
      timeZoneName: 'short',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** e.g. "Tue, Feb 3, 2026, 17:00 EST"; "none" for a missing value. Unknown zones fall back to UTC. */
export function formatInZone(
  iso: string | null | undefined,
  timeZone: string | null | undefined,
): string {
  if (!iso) return 'none';
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return iso;
  try {
    return formatter(timeZone || 'UTC').format(t);
  } catch {
    return formatter('UTC').format(t);
  }
}

/** "3 h", "26 h", "2 days" — rough time left, for titles. */
export function formatDuration(ms: number): string {
  const hours = Math.max(0, Math.round(ms / 3_600_000));
  return hours <= 48 ? `${hours} h` : `${Math.round(hours / 24)} days`;
}
