/**
 * App-wide keys: `?` shows the keyboard help, `/` jumps to the board's filter, `Esc` goes back
 * from a container or shipment detail. Keys typed into a field stay with the field.
 */
import { useEffect, useRef, useState } from 'react';
import { navigate, parseRoute } from '../lib/navigation';
import './keyboard-help.css';

export const SHORTCUTS: readonly { keys: string; does: string }[] = [
  { keys: '?', does: 'Show this help' },
  { keys: '/', does: 'Filter the container board' },
  { keys: 'Esc', does: 'Back from a container or shipment detail; close this help' },
  { keys: 'Ctrl K', does: 'Search everything' },
  { keys: '↑ ↓, Page Up/Down', does: 'Move between board rows' },
  { keys: 'Enter', does: 'Open the focused row' },
];

const FILTER_SELECTOR = 'input[aria-label="Filter containers"]';

const typingIn = (target: EventTarget | null): boolean =>
  target instanceof HTMLElement &&
  (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));

/** Focuses the board's filter once the board is on screen (it may still be mounting). */
function focusFilter(attempts = 20): void {
  const input = document.querySelector<HTMLInputElement>(FILTER_SELECTOR);
  if (input) {
    input.focus();
    input.select();
  } else if (attempts > 0) window.setTimeout(() => focusFilter(attempts - 1), 50);
}

export function KeyboardShortcuts() {
  const [helpOpen, setHelpOpen] = useState(false);
  const dialog = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.ctrlKey || event.metaKey || event.altKey) return;
      if (event.key === 'Escape') {
        if (helpOpen) {
          event.preventDefault();
          setHelpOpen(false);
          return;
        }
        // A field (the search box, a filter) and other dialogs keep their own Escape.
        if (
          event.defaultPrevented ||
          typingIn(event.target) ||
          document.querySelector('[aria-modal="true"]')
        )
          return;
        const route = parseRoute(window.location.hash);
        if (route.id && (route.view === 'containers' || route.view === 'shipments')) {
          event.preventDefault();
          if (window.history.length > 1) window.history.back();
          else navigate(route.view);
        }
        return;
      }
      if (typingIn(event.target)) return;
      if (event.key === '?') {
        event.preventDefault();
        setHelpOpen((open) => !open);
      } else if (event.key === '/') {
        event.preventDefault();
        const route = parseRoute(window.location.hash);
        if (route.view !== 'containers' || route.id) navigate('containers');
        focusFilter();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [helpOpen]);

  useEffect(() => {
    if (helpOpen) dialog.current?.focus();
  }, [helpOpen]);

  if (!helpOpen) return null;
  return (
    <div className="search-overlay" onClick={() => setHelpOpen(false)}>
      <div
        ref={dialog}
        className="search-dialog keyboard-help"
        role="dialog"
        aria-modal="true"
        aria-label="Keyboard shortcuts"
        tabIndex={-1}
        onClick={(event) => event.stopPropagation()}
      >
        <h2>Keyboard shortcuts</h2>
        <table className="data-table">
          <tbody>
            {SHORTCUTS.map((shortcut) => (
              <tr key={shortcut.keys}>
                <th scope="row">
                  <kbd>{shortcut.keys}</kbd>
                </th>
                <td>{shortcut.does}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <button type="button" className="secondary" onClick={() => setHelpOpen(false)}>
          Close
        </button>
      </div>
    </div>
  );
}
