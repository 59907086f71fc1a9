import { appClockKind, useNow } from '../hooks/use-now';
import { formatShortDateTime } from '../lib/format';

/**
 * Says, in demo mode, that the app's time is the simulated world's: "Simulated time · 600× ·
 * 24 Nov 05:30 PST" (paused while the world's service is down). Nothing with a real service.
 */
export function ClockBadge() {
  // Ten simulated minutes pass every real second at 600×: refresh often enough to read.
  const now = useNow(1_000);
  const { simulated, running, speed } = appClockKind();
  if (!simulated) return null;
  const pace = running ? `${Number(speed.toPrecision(4)).toLocaleString('en-US')}×` : 'paused';
  return (
    <span
      className="clock-badge"
      data-testid="clock-badge"
      title="The built-in demo runs on a simulated clock, faster than real time; countdowns and alerts follow it."
    >
      Simulated time · {pace} · {formatShortDateTime(new Date(now).toISOString())}
    </span>
  );
}
