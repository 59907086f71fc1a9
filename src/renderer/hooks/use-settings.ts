import { useCallback } from 'react';
import type { Settings } from '../../shared/settings';
import { quayside } from '../bridge';
import { useBridgeValue } from './use-bridge';

/** The app's settings, kept current by the `settingsChanged` push (null while loading). */
export function useSettings(): Settings | null {
  const load = useCallback(() => quayside.getSettings(), []);
  return useBridgeValue(load, 'settingsChanged').value;
}
