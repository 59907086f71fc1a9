import { appClockKind, useNow } from '../hooks/use-now';
import { formatShortDateTime } from '../lib/format';

/**
 * Says which time the views follow: in demo mode the simulated world's, "Simulated time · 600× ·
 * 24 Nov 05:30 PST" (paused while the world's service is down); with any other service real
 * time, "Real time · 24 Nov 05:30 PST" (each place's dates in its own zone).
 */
export function ClockBadge() {
  // Ten simulated minutes pass every real second at 600×: refresh often enough to read.
  const now = useNow(1_000);
  const { simulated, running, speed } = appClockKind();
  if (!simulated)
    return (
      <span
        className="clock-badge"
        data-testid="clock-badge"
        title="Countdowns, the worklist's day and alerts follow real time, each place in its own time zone."
      >
        Real time · {formatShortDateTime(new Date(now).toISOString())}
      </span>
    );
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
