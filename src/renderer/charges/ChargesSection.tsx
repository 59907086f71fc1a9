/**
 * A container's D&D statement (src/shared/charges/statement.ts) from the local cache, so it works
 * offline: free time, each charged day with its facts, the days to dispute and why, the invoice
 * fields 46 CFR 541.6 requires, the received invoice beside it, and CSV / PDF exports.
 */
import { useState, type FormEvent } from 'react';
import { statementCsv, statementFileName } from '../../shared/charges/export';
import {
  DISPUTE_REMINDER_DAYS,
  DISPUTE_WINDOW_DAYS,
  type ChargeSection,
  type ChargesStatement,
  type ContainerCharges,
} from '../../shared/charges/statement';
import { quayside } from '../bridge';
import { useAsync } from '../hooks/use-async';
import { describeFailure } from '../hooks/use-bridge';
import { downloadBlob } from '../lib/download';
import { formatLocalDate, formatMoney } from '../lib/format';

const TITLES = { demurrage: 'Demurrage', detention: 'Detention (per diem)' } as const;

function Days({ section }: { section: ChargeSection }) {
  if (section.days.length === 0) return <p className="muted">No day charged.</p>;
  return (
    <table className="simple charges-days" aria-label={`${TITLES[section.kind]} days`}>
      <thead>
        <tr>
          <th scope="col">Day</th>
          <th scope="col">#</th>
          <th scope="col" className="num">
            Amount
          </th>
          <th scope="col">What happened</th>
        </tr>
      </thead>
      <tbody>
        {section.days.map((day) => (
          <tr
            key={day.date}
            className={day.dispute ? 'charges-day--disputed' : undefined}
            data-date={day.date}
          >
            <th scope="row">{formatLocalDate(day.date, section.zone)}</th>
            <td title={`Rate from charged day ${day.tier}`}>{day.dayNumber}</td>
            <td className="num">{formatMoney(day.amount, section.currency)}</td>
            <td>
              {day.dispute ? (
                <span className="chip chip--danger" title={day.dispute.evidence.join('\n')}>
                  Dispute: {day.dispute.reasons.join('; ')}
                </span>
              ) : null}{' '}
              <span className="muted small">{day.facts.join(' · ')}</span>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Section({ section }: { section: ChargeSection }) {
  return (
    <div className="charges-section" role="group" aria-label={TITLES[section.kind]}>
      <h4>
        {TITLES[section.kind]} <span className="muted small">billed by {section.billedBy}</span>
      </h4>
      <p className="small">
        Free time{' '}
        {section.freeTimeStart ? formatLocalDate(section.freeTimeStart, section.zone) : '?'} to{' '}
        {section.freeTimeEnd ? formatLocalDate(section.freeTimeEnd, section.zone) : '?'}
        {section.freeDays !== null ? ` (${section.freeDays} days)` : ''}. {section.tariffRule}.
      </p>
      {section.notes.map((note) => (
        <p key={note} className="muted small">
          {note}
        </p>
      ))}
      <Days section={section} />
      <p>
        <strong>{formatMoney(section.total, section.currency)}</strong>{' '}
        <span className="muted small">
          {section.totalSource === 'terminal'
            ? `as the terminal reports (tariff estimate ${formatMoney(section.estimate, section.currency)})`
            : 'tariff estimate'}
        </span>
      </p>
      {section.disputes.length ? (
        <ul className="charges-disputes" aria-label={`${TITLES[section.kind]} disputes`}>
          {section.disputes.map((run) => (
            <li key={`${run.from}-${run.reason}`}>
              <strong>{run.summary}</strong>: {formatMoney(run.amount, section.currency)}
              <span className="muted small"> ({run.evidence.join('; ')})</span>
            </li>
          ))}
        </ul>
      ) : null}
      <details>
        <summary>Invoice contents required by 46 CFR 541.6</summary>
        <table className="simple">
          <tbody>
            {section.invoiceFields.map((field) => (
              <tr key={field.key}>
                <th scope="row">{field.label}</th>
                <td className={field.value === null ? 'muted' : undefined}>
                  {field.value ?? 'Must be stated on the invoice'}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </div>
  );
}

function InvoiceForm({
  containerId,
  charges,
  onSaved,
}: {
  containerId: string;
  charges: ContainerCharges;
  onSaved: () => void;
}) {
  const s = charges.statement;
  const [amount, setAmount] = useState(charges.invoice?.amount.toString() ?? '');
  const [currency, setCurrency] = useState(charges.invoice?.currency ?? s.total?.currency ?? 'USD');
  const [date, setDate] = useState(charges.invoice?.date ?? '');
  const [message, setMessage] = useState<string | null>(null);

  const save = async (invoice: { amount: number; currency: string; date: string } | null) => {
    try {
      await quayside.setReceivedInvoice({ containerId, invoice });
      setMessage(invoice ? 'Invoice saved.' : 'Invoice removed.');
      onSaved();
    } catch (failure) {
      setMessage(`Could not save: ${describeFailure(failure)}`);
    }
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const value = Number(amount);
    if (!Number.isFinite(value) || value < 0 || !/^\d{4}-\d{2}-\d{2}$/.test(date)) {
      setMessage('Enter the amount and the invoice date.');
      return;
    }
    void save({ amount: value, currency: currency.trim().toUpperCase(), date });
  };

  return (
    <form className="charges-invoice" onSubmit={onSubmit} aria-label="Received invoice">
      <h4>Received invoice</h4>
      <label>
        Amount{' '}
        <input
          type="number"
          min="0"
          step="0.01"
          value={amount}
          onChange={(e) => setAmount(e.target.value)}
        />
      </label>{' '}
      <label>
        Currency{' '}
        <input
          size={4}
          maxLength={3}
          value={currency}
          onChange={(e) => setCurrency(e.target.value)}
        />
      </label>{' '}
      <label>
        Invoice date <input type="date" value={date} onChange={(e) => setDate(e.target.value)} />
      </label>{' '}
      <button type="submit">Save invoice</button>{' '}
      {charges.invoice ? (
        <button type="button" className="secondary" onClick={() => void save(null)}>
          Remove
        </button>
      ) : null}
      {s.invoice ? (
        <p className="small" role="status">
          Dispute by <strong>{s.invoice.disputeBy}</strong> ({DISPUTE_WINDOW_DAYS} days from the
          invoice;{' '}
          {s.invoice.daysLeft >= 0 ? `${s.invoice.daysLeft} days left` : 'the window has closed'}; a
          reminder comes {DISPUTE_REMINDER_DAYS} days before).
          {s.invoice.difference !== null
            ? ` The invoice is ${formatMoney(Math.abs(s.invoice.difference), s.invoice.currency)} ${s.invoice.difference >= 0 ? 'above' : 'below'} this statement.`
            : ''}
        </p>
      ) : (
        <p className="muted small">
          Enter the invoice when it arrives: the {DISPUTE_WINDOW_DAYS}-day dispute window gets a
          reminder.
        </p>
      )}
      {message ? <p className="small">{message}</p> : null}
    </form>
  );
}

async function exportPdf(s: ChargesStatement) {
  // pdf-lib is loaded only when a PDF is asked for.
  const { statementPdf } = await import('../../shared/charges/pdf');
  const bytes = await statementPdf(s);
  downloadBlob(
    new Blob([bytes as Uint8Array<ArrayBuffer>], { type: 'application/pdf' }),
    statementFileName(s, 'pdf'),
  );
}

export function ChargesSection({
  containerId,
  dataVersion,
}: {
  containerId: string;
  dataVersion: number;
}) {
  const [saved, setSaved] = useState(0);
  const charges = useAsync(
    () => quayside.getContainerCharges({ id: containerId }),
    `charges-${containerId}`,
    `${dataVersion}-${saved}`,
  );
  const [exportState, setExportState] = useState<string | null>(null);
  const value = charges.value;
  const s = value?.statement;

  const onCsv = () => {
    if (!s) return;
    downloadBlob(
      new Blob([statementCsv(s)], { type: 'text/csv;charset=utf-8' }),
      statementFileName(s, 'csv'),
    );
    setExportState('Exported CSV');
  };
  const onPdf = async () => {
    if (!s) return;
    setExportState('Making the PDF…');
    try {
      await exportPdf(s);
      setExportState('Exported PDF');
    } catch (failure) {
      setExportState(`Export failed: ${describeFailure(failure)}`);
    }
  };

  return (
    <section aria-labelledby="charges-heading" className="panel charges">
      <h3 id="charges-heading">Charges</h3>
      {charges.error ? (
        <p role="alert" className="error-banner">
          Could not work out the charges: {charges.error}
        </p>
      ) : !s ? (
        <p className="muted" aria-busy={charges.loading}>
          {charges.loading ? 'Working out the charges…' : 'No charges for this container.'}
        </p>
      ) : (
        <>
          <div className="toolbar" role="toolbar" aria-label="Charges exports">
            <button type="button" onClick={onCsv}>
              Export CSV
            </button>{' '}
            <button type="button" onClick={() => void onPdf()}>
              Export PDF
            </button>{' '}
            {exportState ? (
              <span className="muted small" role="status">
                {exportState}
              </span>
            ) : null}
          </div>
          {!s.demurrage && !s.detention ? (
            <p className="muted">
              No free time known yet: no last free day and no pickup reported.
            </p>
          ) : null}
          {s.demurrage ? <Section section={s.demurrage} /> : null}
          {s.detention ? <Section section={s.detention} /> : null}
          {s.total ? (
            <p>
              Statement total <strong>{formatMoney(s.total.amount, s.total.currency)}</strong>
              {s.disputed && s.disputed.amount > 0 ? (
                <>
                  {' '}
                  · to dispute{' '}
                  <strong className="danger">
                    {formatMoney(s.disputed.amount, s.disputed.currency)}
                  </strong>
                </>
              ) : null}
            </p>
          ) : null}
          <InvoiceForm
            key={`${value.invoice?.date ?? ''}-${value.invoice?.amount ?? ''}`}
            containerId={containerId}
            charges={value}
            onSaved={() => setSaved((n) => n + 1)}
          />
        </>
      )}
    </section>
  );
}
