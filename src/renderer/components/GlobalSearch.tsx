import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { countOf } from '../../shared/words';
import type { BoardRow, ShipmentListRow } from '../../shared/desktop';
import { quayside } from '../bridge';
import { describeFailure } from '../hooks/use-bridge';
import { statusLabel } from '../lib/format';
import { navigate } from '../lib/navigation';

interface Hit {
  key: string;
  kind: 'Container' | 'Shipment';
  title: string;
  detail: string;
  open(): void;
}

const containerHit = (row: BoardRow): Hit => ({
  key: `c-${row.id}`,
  kind: 'Container',
  title: row.number,
  detail: [statusLabel(row.status), row.billOfLading, row.lineScac, row.customer]
    .filter(Boolean)
    .join(' · '),
  open: () => navigate('containers', row.id),
});

const shipmentHit = (row: ShipmentListRow): Hit => ({
  key: `s-${row.id}`,
  kind: 'Shipment',
  title: row.billOfLading,
  detail: [row.lineScac, row.customer, countOf(row.containers, 'container')]
    .filter(Boolean)
    .join(' · '),
  open: () => navigate('shipments', row.id),
});

/** Ctrl+K search over the local cache: containers and shipments by number, BL, reference, vessel. */
export function GlobalSearch() {
  const [open, setOpen] = useState(false);
  const [text, setText] = useState('');
  const [hits, setHits] = useState<Hit[]>([]);
  const [active, setActive] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const listId = useId();

  useEffect(() => {
    const onKey = (event: globalThis.KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'k') {
        event.preventDefault();
        setOpen(true);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  useEffect(() => {
    if (open) input.current?.focus();
  }, [open]);

  useEffect(() => {
    const query = text.trim();
    if (!open || query === '') {
      setHits([]);
      return undefined;
    }
    let current = true;
    const timer = window.setTimeout(() => {
      Promise.all([
        quayside.listContainers({ search: query, limit: 8 }),
        quayside.listShipments({ search: query, limit: 5 }),
      ]).then(
        ([containers, shipments]) => {
          if (!current) return;
          setHits([...containers.rows.map(containerHit), ...shipments.rows.map(shipmentHit)]);
          setActive(0);
          setError(null);
        },
        (failure: unknown) => {
          if (current) setError(describeFailure(failure));
        },
      );
    }, 120);
    return () => {
      current = false;
      window.clearTimeout(timer);
    };
  }, [text, open]);

  const close = () => {
    setOpen(false);
    setText('');
  };
  const choose = (hit: Hit | undefined) => {
    if (!hit) return;
    hit.open();
    close();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      setActive((value) => Math.min(value + 1, hits.length - 1));
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      setActive((value) => Math.max(value - 1, 0));
    } else if (event.key === 'Enter') {
      event.preventDefault();
      choose(hits[active]);
    } else if (event.key === 'Escape') {
      close();
    }
  };

  return (
    <>
      <button
        type="button"
        className="search-trigger"
        onClick={() => setOpen(true)}
        aria-keyshortcuts="Control+K"
      >
        Search <kbd>Ctrl K</kbd>
      </button>
      {open ? (
        <div
          className="search-overlay"
          onMouseDown={(event) => event.target === event.currentTarget && close()}
        >
          <div role="dialog" aria-modal="true" aria-label="Search" className="search-dialog">
            <input
              ref={input}
              type="search"
              role="combobox"
              aria-label="Search containers and shipments"
              aria-expanded={hits.length > 0}
              aria-controls={listId}
              aria-activedescendant={hits[active] ? `${listId}-${hits[active].key}` : undefined}
              placeholder="Container, BL, reference, vessel, customer…"
              value={text}
              onChange={(event) => setText(event.target.value)}
              onKeyDown={onKeyDown}
            />
            {error ? <p className="save-state--error">{error}</p> : null}
            <ul id={listId} role="listbox" aria-label="Results" className="search-results">
              {hits.map((hit, index) => (
                <li
                  key={hit.key}
                  id={`${listId}-${hit.key}`}
                  role="option"
                  aria-selected={index === active}
                  onMouseEnter={() => setActive(index)}
                  onClick={() => choose(hit)}
                >
                  <span className="search-results__kind">{hit.kind}</span>
                  <span className="mono strong">{hit.title}</span>
                  <span className="muted">{hit.detail}</span>
                </li>
              ))}
              {text.trim() && hits.length === 0 && !error ? (
                <li className="muted">No matches in the local cache.</li>
              ) : null}
            </ul>
          </div>
        </div>
      ) : null}
    </>
  );
}
