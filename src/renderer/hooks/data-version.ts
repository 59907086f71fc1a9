import { createContext, useContext } from 'react';

/** Counts `dataChanged` pushes: views put it in their load keys to reload after each sync. */
export const DataVersionContext = createContext(0);

export function useDataVersion(): number {
  return useContext(DataVersionContext);
}
