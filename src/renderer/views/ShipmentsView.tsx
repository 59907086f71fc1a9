import { useState } from 'react';
import { countOf, formatCount } from '../../shared/words';
import { quayside } from '../bridge';
import { useAsync } from '../hooks/use-async';
import { useDataVersion } from '../hooks/data-version';
import { formatDate } from '../lib/format';
import { navigate } from '../lib/navigation';
import { TableScroll } from '../components/TableScroll';

const PAGE = 200;

export function ShipmentsView() {
  const dataVersion = useDataVersion();
  const [search, setSearch] = useState('');
  const [offset, setOffset] = useState(0);
  const list = useAsync(
    () => quayside.listShipments({ search: search.trim() || undefined, offset, limit: PAGE }),
    `${search}|${offset}`,
    dataVersion,
  );
  const total = list.value?.total ?? 0;

  return (
    <section aria-label="Shipments">
      <div className="filters">
        <input
          type="search"
          aria-label="Filter shipments"
          placeholder="BL, vessel, customer…"
          value={search}
          onChange={(e) => {
            setSearch(e.target.value);
            setOffset(0);
          }}
        />
        <span role="status" className="muted">
          {list.value ? countOf(total, 'shipment') : ''}
        </span>
      </div>
      {list.error ? (
        <p role="alert" className="error-banner">
          Could not load shipments: {list.error}
        </p>
      ) : null}
      {list.value && list.value.rows.length === 0 ? (
        <div className="empty-state">
          <h2>{search ? 'No shipments match' : 'No shipments yet'}</h2>
        </div>
      ) : list.value ? (
        <TableScroll label="Shipments">
          <table className="data-table" aria-label="Shipments">
            <thead>
              <tr>
                <th scope="col">Bill of lading</th>
                <th scope="col">Line</th>
                <th scope="col">Customer</th>
                <th scope="col">POL → POD</th>
                <th scope="col">Vessel / voyage</th>
                <th scope="col">ETA / ATA</th>
                <th scope="col" className="num">
                  Containers
                </th>
              </tr>
            </thead>
            <tbody>
              {list.value.rows.map((row) => (
                <tr
                  key={row.id}
                  className="clickable"
                  onClick={() => navigate('shipments', row.id)}
                >
                  <td>
                    <a href={`#/shipments/${encodeURIComponent(row.id)}`} className="mono">
                      {row.billOfLading}
                    </a>
                  </td>
                  <td>{row.lineScac ?? '—'}</td>
                  <td>{row.customer ?? '—'}</td>
                  <td className="mono">
                    {row.polLocode ?? '?'} → {row.podLocode ?? '?'}
                  </td>
                  <td>{[row.vessel, row.voyage].filter(Boolean).join(' / ') || '—'}</td>
                  <td>
                    {row.ataAt
                      ? `ATA ${formatDate(row.ataAt)}`
                      : row.etaAt
                        ? `ETA ${formatDate(row.etaAt)}`
                        : '—'}
                  </td>
                  <td className="num">{row.containers}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      ) : (
        <p aria-busy="true">Loading shipments…</p>
      )}
      {total > PAGE ? (
        <div className="pager">
          <button
            type="button"
            className="secondary"
            disabled={offset === 0}
            onClick={() => setOffset(Math.max(0, offset - PAGE))}
          >
            Previous
          </button>
          <span>
            {offset + 1}–{Math.min(offset + PAGE, total)} of {formatCount(total)}
          </span>
          <button
            type="button"
            className="secondary"
            disabled={offset + PAGE >= total}
            onClick={() => setOffset(offset + PAGE)}
          >
            Next
          </button>
        </div>
      ) : null}
    </section>
  );
}
