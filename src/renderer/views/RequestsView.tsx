import { useState } from 'react';
import { quayside } from '../bridge';
import { RequestStatus } from '../components/RequestStatus';
import { useAsync } from '../hooks/use-async';
import { useDataVersion } from '../hooks/data-version';
import { formatShortDateTime, humanize } from '../lib/format';
import { formatCount } from '../../shared/words';
import { TableScroll } from '../components/TableScroll';

const PAGE = 200;

export function RequestsView() {
  const dataVersion = useDataVersion();
  const [offset, setOffset] = useState(0);
  const list = useAsync(
    () => quayside.listTrackingRequests({ offset, limit: PAGE }),
    `${offset}`,
    dataVersion,
  );
  const total = list.value?.total ?? 0;
  return (
    <section aria-label="Tracking requests">
      {list.error ? (
        <p role="alert" className="error-banner">
          Could not load tracking requests: {list.error}
        </p>
      ) : null}
      {list.value && list.value.rows.length === 0 ? (
        <div className="empty-state">
          <h2>No tracking requests yet</h2>
          <p>
            Start one from <a href="#/track">Track</a>.
          </p>
        </div>
      ) : list.value ? (
        <TableScroll label="Tracking requests">
          <table className="data-table" aria-label="Tracking requests">
            <thead>
              <tr>
                <th scope="col">Number</th>
                <th scope="col">Type</th>
                <th scope="col">Line</th>
                <th scope="col">Status</th>
                <th scope="col">References / tags</th>
                <th scope="col">Created</th>
              </tr>
            </thead>
            <tbody>
              {list.value.rows.map((row) => (
                <tr key={row.id}>
                  <td className="mono">{row.number}</td>
                  <td>{humanize(row.requestType)}</td>
                  <td>{row.scac}</td>
                  <td>
                    <RequestStatus row={row} />
                  </td>
                  <td>
                    {[...row.refNumbers, ...row.tags.map((tag) => `#${tag}`)].join(', ') || '—'}
                  </td>
                  <td>{formatShortDateTime(row.createdAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      ) : list.loading ? (
        <p aria-busy="true">Loading tracking requests…</p>
      ) : null}
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
