import { useEffect, useState } from 'react';
import type { BridgeEvent, BridgeEventPayload } from '../../shared/bridge';
import { isBridgeRejection } from '../../shared/bridge-errors';
import { quayside } from '../bridge';

/** Subscribes to a push event for the lifetime of the component. */
export function useBridgeEvent<E extends BridgeEvent>(
  event: E,
  listener: (payload: BridgeEventPayload<E>) => void,
): void {
  useEffect(() => quayside.on(event, listener), [event, listener]);
}

/** Loads a value once through the bridge and keeps it current from a push event. */
export function useBridgeValue<E extends BridgeEvent>(
  load: () => Promise<BridgeEventPayload<E>>,
  event: E,
): { value: BridgeEventPayload<E> | null; error: string | null } {
  const [value, setValue] = useState<BridgeEventPayload<E> | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let cancelled = false;
    load().then(
      (loaded) => {
        if (!cancelled) setValue(loaded);
      },
      (failure: unknown) => {
        if (!cancelled) setError(describeFailure(failure));
      },
    );
    const unsubscribe = quayside.on(event, (payload) => setValue(payload));
    return () => {
      cancelled = true;
      unsubscribe();
    };
  }, [load, event]);
  return { value, error };
}

export function describeFailure(failure: unknown): string {
  if (isBridgeRejection(failure)) return failure.message;
  if (failure instanceof Error) return failure.message;
  return 'Something went wrong.';
}
