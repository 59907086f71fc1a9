/**
 * Files the desktop shells read at run time from the app folder: the repository root in a
 * checkout, `app.asar` inside an installed app.
 */
import { join } from 'node:path';
import { APP_ROOT } from '../native/app-root';
import type { OverlayLabel } from './desktop/attention';

/** The icons rendered from build/icon.svg by `npm run icons`. */
export const APP_ICON_ICO = join(APP_ROOT, 'build', 'icon.ico');

/** A square PNG of the app icon; sizes: 16, 24, 32, 48, 64, 128, 256, 512, 1024. */
export function appIconPng(size: 16 | 24 | 32 | 48 | 64 | 128 | 256 | 512 | 1024): string {
  return join(APP_ROOT, 'build', 'icons', `${size}x${size}.png`);
}

/** The Windows taskbar overlay showing a count. */
export function badgeOverlayPng(label: OverlayLabel): string {
  return join(APP_ROOT, 'build', 'badges', `${label.replace('+', 'plus')}.png`);
}
