/**
 * Opens a cached document: Electron hands it to the OS viewer; in browser mode the tab gets it
 * from Quayside's own server (with the launch token, as the event stream does).
 */
import { quayside } from '../bridge';
import { currentLaunchToken } from '../bridge/http-bridge';

export async function openDocument(id: string): Promise<void> {
  const result = await quayside.openDocument({ id });
  if (!result.opened) {
    window.open(
      `${result.url}?token=${encodeURIComponent(currentLaunchToken())}`,
      '_blank',
      'noopener',
    );
  }
}
