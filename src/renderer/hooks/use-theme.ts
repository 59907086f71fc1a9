import { useEffect } from 'react';
import type { Theme } from '../../shared/settings';

/** Applies the chosen theme to the document; `system` follows the OS and its changes. */
export function useTheme(theme: Theme | undefined): void {
  useEffect(() => {
    const media = window.matchMedia('(prefers-color-scheme: dark)');
    const apply = () => {
      const dark = theme === 'dark' || (theme !== 'light' && media.matches);
      document.documentElement.dataset.theme = dark ? 'dark' : 'light';
    };
    apply();
    media.addEventListener('change', apply);
    return () => media.removeEventListener('change', apply);
  }, [theme]);
}
