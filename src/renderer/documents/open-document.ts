/**
 * Opens a cached document: Electron hands it to the OS viewer; in browser mode the tab gets it
 * from Quayside's own server (admitted by the launch page's cookie, as the event stream is).
 */
import { quayside } from '../bridge';

export async function openDocument(id: string): Promise<void> {
  const result = await quayside.openDocument({ id });
  if (!result.opened) window.open(result.url, '_blank', 'noopener');
}
