import { useEffect, useState } from 'react';

/** State kept in localStorage under `key` (column choices and widths survive restarts). */
export function useStoredState<T>(
  key: string,
  initial: T,
): [T, (value: T | ((old: T) => T)) => void] {
  const [value, setValue] = useState<T>(() => {
    try {
      const stored = window.localStorage.getItem(key);
      return stored === null ? initial : (JSON.parse(stored) as T);
    } catch {
      return initial;
    }
  });
  useEffect(() => {
    try {
      window.localStorage.setItem(key, JSON.stringify(value));
    } catch {
      // Storage full or disabled: the choice lasts for this session only.
    }
  }, [key, value]);
  return [value, setValue];
}
