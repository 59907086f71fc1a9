/**
 * A customer's pass-through D&D statement for a date range, from the cache: each of its
 * containers' charged days in the range summed, totals per currency; exported as CSV.
 */
import { useState, type FormEvent } from 'react';
import { DateTime } from 'luxon';
import type { PassThroughStatement } from '../../shared/charges/statement';
import { passThroughCsv } from '../../shared/charges/export';
import { quayside } from '../bridge';
import { describeFailure } from '../hooks/use-bridge';
import { appNow } from '../hooks/use-now';
import { downloadBlob } from '../lib/download';
import { formatMoney } from '../lib/format';

export function CustomerChargesPanel({ customer }: { customer: string }) {
  const month = DateTime.fromMillis(appNow());
  const [from, setFrom] = useState(month.startOf('month').toISODate() ?? '');
  const [to, setTo] = useState(month.endOf('month').toISODate() ?? '');
  const [statement, setStatement] = useState<PassThroughStatement | null>(null);
  const [message, setMessage] = useState<string | null>(null);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setMessage('Working it out…');
    try {
      setStatement(await quayside.getCustomerCharges({ customer, from, to }));
      setMessage(null);
    } catch (failure) {
      setMessage(`Could not work it out: ${describeFailure(failure)}`);
    }
  };

  return (
    <section aria-labelledby="pass-through-heading" className="panel">
      <h3 id="pass-through-heading">Charges to pass through to {customer}</h3>
      <form onSubmit={(e) => void onSubmit(e)} aria-label="Pass-through range">
        <label>
          From <input type="date" value={from} onChange={(e) => setFrom(e.target.value)} />
        </label>{' '}
        <label>
          To <input type="date" value={to} onChange={(e) => setTo(e.target.value)} />
        </label>{' '}
        <button type="submit">Show statement</button>{' '}
        {statement ? (
          <button
            type="button"
            className="secondary"
            onClick={() =>
              downloadBlob(
                new Blob([passThroughCsv(statement)], { type: 'text/csv;charset=utf-8' }),
                `pass-through-${customer.replace(/[^A-Za-z0-9]+/g, '-')}-${from}-${to}.csv`,
              )
            }
          >
            Export CSV
          </button>
        ) : null}
      </form>
      {message ? (
        <p className="small" role="status">
          {message}
        </p>
      ) : null}
      {statement && statement.lines.length === 0 ? (
        <p className="muted">No charged day in this range.</p>
      ) : null}
      {statement && statement.lines.length > 0 ? (
        <table className="simple" aria-label="Pass-through statement">
          <thead>
            <tr>
              <th scope="col">Container</th>
              <th scope="col">Days</th>
              <th scope="col" className="num">
                Demurrage
              </th>
              <th scope="col" className="num">
                Detention
              </th>
              <th scope="col" className="num">
                To dispute
              </th>
              <th scope="col" className="num">
                Total
              </th>
            </tr>
          </thead>
          <tbody>
            {statement.lines.map((l) => (
              <tr key={`${l.containerId}-${l.currency}`}>
                <th scope="row">
                  <a href={`#/containers/${encodeURIComponent(l.containerId)}`} className="mono">
                    {l.containerNumber ?? '—'}
                  </a>
                </th>
                <td>{l.days}</td>
                <td className="num">{formatMoney(l.demurrage, l.currency)}</td>
                <td className="num">{formatMoney(l.detention, l.currency)}</td>
                <td className="num">{formatMoney(l.disputed, l.currency)}</td>
                <td className="num">{formatMoney(l.total, l.currency)}</td>
              </tr>
            ))}
            {statement.totals.map((t) => (
              <tr key={t.currency}>
                <th scope="row">Total {t.currency}</th>
                <td />
                <td className="num">{formatMoney(t.demurrage, t.currency)}</td>
                <td className="num">{formatMoney(t.detention, t.currency)}</td>
                <td className="num">{formatMoney(t.disputed, t.currency)}</td>
                <td className="num strong">{formatMoney(t.total, t.currency)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      <p className="muted small">
        Each charged day of the range at the tariff, for every container of this customer in the
        cache.
      </p>
    </section>
  );
}
