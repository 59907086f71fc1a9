import { useEffect, useState } from 'react';
import type { SyncStatus } from '../../shared/bridge';
import { timeAt, type ClockReading } from '../../shared/clock';
import { sameBesideProgress } from '../../shared/sync-status';
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

let asking: Promise<void> | undefined;

/** Asks main for its clock again; calls made while one is on its way share its answer. */
function refreshAppClock(): Promise<void> {
  asking ??= quayside
    .getClock()
    .then((clock) => {
      reference = { at: Date.parse(clock.now), realAt: Date.now(), speed: clock.speed };
      simulation = { simulated: clock.simulated, running: clock.running };
    })
    .catch(() => {
      // Keep the last known reference: countdowns stay roughly right.
    })
    .finally(() => (asking = undefined));
  return asking;
}

/** Hooks to tell when the clock was asked for again. */
const clockListeners = new Set<() => void>();
let stopWatchingSync: (() => void) | undefined;
/** The last sync status seen: a change in more than its progress (a run began or ended) may move the clock. */
let lastStatus: SyncStatus | undefined;

/**
 * Asks for the clock on start and whenever the sync status changes in more than its progress
 * (a run began or ended, the source changed), then tells every hook: one watcher and one request
 * for the whole window, however many views show the time.
 */
function watchClock(listener: () => void): () => void {
  clockListeners.add(listener);
  const tellAll = () => clockListeners.forEach((tell) => tell());
  if (!stopWatchingSync) {
    stopWatchingSync = quayside.on('syncStatus', (status) => {
      if (lastStatus && sameBesideProgress(lastStatus, status)) return;
      lastStatus = status;
      void refreshAppClock().then(tellAll);
    });
  }
  void refreshAppClock().then(listener);
  return () => {
    clockListeners.delete(listener);
    if (clockListeners.size > 0) return;
    stopWatchingSync?.();
    stopWatchingSync = undefined;
    lastStatus = undefined;
  };
}

/** The app's current time, refreshed every `intervalMs` real milliseconds. */
export function useNow(intervalMs = 30_000): number {
  const [now, setNow] = useState(appNow);
  useEffect(() => {
    let mounted = true;
    const stopWatching = watchClock(() => {
      if (mounted) setNow(appNow());
    });
    const timer = window.setInterval(() => setNow(appNow()), intervalMs);
    return () => {
      mounted = false;
      stopWatching();
      window.clearInterval(timer);
    };
  }, [intervalMs]);
  return now;
}
