import { useEffect, useState } from 'react';
import { isBridgeRejection } from '../../shared/bridge-errors';
import { describeFailure } from './use-bridge';

export interface AsyncState<T> {
  value: T | null;
  error: string | null;
  loading: boolean;
}

/**
 * Runs `load` whenever `key` changes and keeps the last value while the next one loads, so a
 * refresh never blanks the view (no layout shift). A stale answer never overwrites a newer one.
 */
export function useAsync<T>(load: () => Promise<T>, key: string): AsyncState<T> {
  const [state, setState] = useState<AsyncState<T>>({ value: null, error: null, loading: true });
  useEffect(() => {
    let current = true;
    setState((previous) => ({ ...previous, loading: true }));
    load().then(
      (value) => {
        if (current) setState({ value, error: null, loading: false });
      },
      (failure: unknown) => {
        // Replaced by a newer call (whose answer is on its way): nothing went wrong.
        if (isBridgeRejection(failure) && failure.code === 'superseded') return;
        if (current)
          setState((previous) => ({
            ...previous,
            error: describeFailure(failure),
            loading: false,
          }));
      },
    );
    return () => {
      current = false;
    };
    // `key` names everything `load` depends on; `load` itself is a fresh closure each render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
  return state;
}
