/**
 * Opens a cached document: Electron hands it to the OS viewer; in browser mode the tab gets it
 * from Quayside's own server (admitted by the launch page's cookie, as the event stream is).
 */
import { quayside } from '../bridge';

/** Call in the click handler itself (before any await): see the tab below. */
export async function openDocument(id: string): Promise<void> {
  // Browser mode opens the tab within the click, then points it at the file: a tab opened only
  // after main has answered is blocked once the click's user activation has lapsed, which a
  // busy machine's slow answer is enough for; the user would see nothing happen.
  const tab = window.quayside ? null : window.open('', '_blank');
  try {
    const result = await quayside.openDocument({ id });
    if (result.opened) {
      tab?.close();
      return;
    }
    const url = new URL(result.url, window.location.href).href;
    if (!tab) {
      window.open(url, '_blank', 'noopener');
      return;
    }
    // The file's tab gets no handle on this page (what 'noopener' gives a tab opened at once).
    tab.opener = null;
    tab.location.href = url;
  } catch (failure) {
    tab?.close();
    throw failure;
  }
}
