import { useEffect, useState } from 'react';
import { timeAt, type ClockReading } from '../../shared/clock';
import { quayside } from '../bridge';

/**
 * The app's time, which runs faster than the wall clock while the built-in simulated world is
 * shown: main reports its time and speed, and the renderer extrapolates between reports.
 */
let reference: ClockReading = { at: Date.now(), realAt: Date.now(), speed: 1 };
/** Whether the app's time is the built-in simulated world's, and whether that world runs. */
let simulation = { simulated: false, running: true };

export function appNow(): number {
  return timeAt(reference, Date.now());
}

/** What the time badge shows: simulated or real time, its speed, and whether it runs. */
export function appClockKind(): { simulated: boolean; running: boolean; speed: number } {
  return { ...simulation, speed: reference.speed };
}

/** Asks main for its clock again (on start, and after each sync run). */
export async function refreshAppClock(): Promise<void> {
  try {
    const clock = await quayside.getClock();
    reference = { at: Date.parse(clock.now), realAt: Date.now(), speed: clock.speed };
    simulation = { simulated: clock.simulated, running: clock.running };
  } catch {
    // Keep the last known reference: countdowns stay roughly right.
  }
}

/** The app's current time, refreshed every `intervalMs` real milliseconds. */
export function useNow(intervalMs = 30_000): number {
  const [now, setNow] = useState(appNow);
  useEffect(() => {
    let cancelled = false;
    void refreshAppClock().then(() => {
      if (!cancelled) setNow(appNow());
    });
    const unsubscribe = quayside.on('syncStatus', () => {
      void refreshAppClock().then(() => {
        if (!cancelled) setNow(appNow());
      });
    });
    const timer = window.setInterval(() => setNow(appNow()), intervalMs);
    return () => {
      cancelled = true;
      unsubscribe();
      window.clearInterval(timer);
    };
  }, [intervalMs]);
  return now;
}
