import { useCallback } from 'react';
import type { SyncStatus } from '../../shared/bridge';
import { quayside } from '../bridge';
import { useBridgeValue } from './use-bridge';

/** The header's connection state, kept current by main's `syncStatus` pushes. */
export function useSyncStatus(): { value: SyncStatus | null; error: string | null } {
  const load = useCallback(() => quayside.getSyncStatus(), []);
  return useBridgeValue(load, 'syncStatus');
}
