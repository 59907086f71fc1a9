/**
 * What the service read from one document: each number with its kind, source page and
 * confidence; numbers with a wrong check digit shown with the reason and never offered for
 * tracking. The trackable ones are pre-selected; one click tracks the selection.
 */
import { useState } from 'react';
import type { TrackNumberOutcome } from '../../shared/bridge';
import {
  DOCUMENT_TYPE_LABELS,
  type DocumentSummary,
  type ExtractedNumber,
} from '../../shared/documents';
import { quayside } from '../bridge';
import { describeFailure } from '../hooks/use-bridge';

const KIND_LABELS: Record<ExtractedNumber['kind'], string> = {
  container: 'Container',
  bill_of_lading: 'Bill of lading',
  booking_number: 'Booking',
};

export const documentTypeLabel = (doc: DocumentSummary): string =>
  doc.documentType ? (DOCUMENT_TYPE_LABELS[doc.documentType] ?? doc.documentType) : 'Not read yet';

export function ExtractionPanel({ document: doc }: { document: DocumentSummary }) {
  const trackable = doc.numbers.filter((n) => !n.problem);
  const [selected, setSelected] = useState<ReadonlySet<string>>(
    () => new Set(trackable.map((n) => n.value)),
  );
  const [scac, setScac] = useState('');
  const [busy, setBusy] = useState(false);
  const [results, setResults] = useState<TrackNumberOutcome[]>([]);
  const [error, setError] = useState<string | null>(null);

  if (doc.extractionStatus === 'failed') {
    return (
      <p role="alert" className="save-state--error">
        The document could not be read: {doc.extractionError ?? 'no reason given'}
      </p>
    );
  }
  if (doc.numbers.length === 0) {
    return <p className="help">No container, bill of lading or booking number found.</p>;
  }

  const toggle = (value: string) =>
    setSelected((previous) => {
      const next = new Set(previous);
      if (next.has(value)) next.delete(value);
      else next.add(value);
      return next;
    });
  const line = doc.carrierScac ?? scac.trim().toUpperCase();
  const outcome = new Map(results.map((r) => [r.number, r]));

  const track = async () => {
    setError(null);
    if (!/^[A-Z]{4}$/.test(line)) return setError('Enter the shipping line (4-letter SCAC).');
    setBusy(true);
    try {
      const answer = await quayside.trackDocumentNumbers({
        id: doc.id,
        numbers: [...selected],
        ...(doc.carrierScac ? {} : { scac: line }),
      });
      setResults(answer.results);
    } catch (failure) {
      setError(describeFailure(failure));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="extraction" aria-label={`Numbers in ${doc.fileName}`} role="group">
      <table className="data-table">
        <thead>
          <tr>
            <th scope="col">Track</th>
            <th scope="col">Number</th>
            <th scope="col">Kind</th>
            <th scope="col">Page</th>
            <th scope="col">Confidence</th>
            <th scope="col">Note</th>
          </tr>
        </thead>
        <tbody>
          {doc.numbers.map((n) => (
            <tr key={`${n.kind}-${n.value}`} data-testid="extracted-number">
              <td>
                <input
                  type="checkbox"
                  aria-label={`Track ${n.value}`}
                  checked={!n.problem && selected.has(n.value)}
                  disabled={Boolean(n.problem)}
                  onChange={() => toggle(n.value)}
                />
              </td>
              <td className="mono">{n.value}</td>
              <td>{KIND_LABELS[n.kind]}</td>
              <td>{n.page}</td>
              <td>{n.problem ? '—' : `${Math.round(n.confidence * 100)}%`}</td>
              <td>
                {n.problem ? (
                  <span className="save-state--error">{n.problem}</span>
                ) : outcome.get(n.value) ? (
                  <span
                    className={outcome.get(n.value)!.ok ? 'save-state--ok' : 'save-state--error'}
                  >
                    {outcome.get(n.value)!.message}
                  </span>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="settings__actions">
        {doc.carrierScac ? (
          <span className="help">Shipping line: {doc.carrierScac}</span>
        ) : (
          <label>
            Shipping line (SCAC)
            <input
              value={scac}
              maxLength={4}
              onChange={(e) => setScac(e.target.value)}
              autoComplete="off"
            />
          </label>
        )}
        <button type="button" disabled={busy || selected.size === 0} onClick={() => void track()}>
          {busy ? 'Tracking…' : `Track ${selected.size} selected`}
        </button>
        {error ? (
          <span role="alert" className="save-state--error">
            {error}
          </span>
        ) : null}
      </div>
    </div>
  );
}
