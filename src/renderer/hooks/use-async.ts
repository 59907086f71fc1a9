import { useEffect, useRef, useState } from 'react';
import { isBridgeRejection } from '../../shared/bridge-errors';
import { describeFailure } from './use-bridge';

export interface AsyncState<T> {
  value: T | null;
  error: string | null;
  loading: boolean;
}

/**
 * Runs `load` whenever `key` (what is loaded) or `version` (how fresh: the data version, a
 * clock tick) changes, and keeps the last value while the next one loads, so a refresh never
 * blanks the view (no layout shift). A stale answer never overwrites a newer one, and an answer
 * for an earlier key is never shown.
 *
 * An answer for the current key is shown as soon as it is newer than the one shown, even while
 * a later call (the data changed again meanwhile) is still out: during a first sync the data
 * version moves every few hundred milliseconds, and on a busy machine an answer can take
 * longer than that; a view that waited for the newest answer showed "Loading…" all along.
 */
export function useAsync<T>(
  load: () => Promise<T>,
  key: string,
  version: string | number = '',
): AsyncState<T> {
  const [state, setState] = useState<AsyncState<T>>({ value: null, error: null, loading: true });
  const calls = useRef({ key, started: 0, shown: 0 });
  useEffect(() => {
    if (calls.current.key !== key) calls.current = { key, started: 0, shown: 0 };
    const call = ++calls.current.started;
    const calledFor = calls.current;
    const current = () => calls.current === calledFor;
    setState((previous) => ({ ...previous, loading: true }));
    load().then(
      (value) => {
        if (!current() || call <= calledFor.shown) return;
        calledFor.shown = call;
        setState({ value, error: null, loading: call !== calledFor.started });
      },
      (failure: unknown) => {
        // Replaced by a newer call (whose answer is on its way): nothing went wrong.
        if (isBridgeRejection(failure) && failure.code === 'superseded') return;
        // Only the latest call's failure is shown; an earlier one's is overtaken by it.
        if (!current() || call !== calledFor.started) return;
        calledFor.shown = call;
        setState((previous) => ({
          ...previous,
          error: describeFailure(failure),
          loading: false,
        }));
      },
    );
    // `key` and `version` name everything `load` depends on; `load` itself is a fresh closure
    // each render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, version]);
  return state;
}
