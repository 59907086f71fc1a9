/**
 * What the service read from one document: each number with its kind, source page and
 * confidence; numbers with a wrong check digit shown with the reason and never offered for
 * tracking. The trackable ones not on the board yet are pre-selected; one already tracked links
 * to its record and shows its live last free day and ETA beside the ones the document states.
 * One click tracks the selection.
 */
import { useEffect, useRef, useState } from 'react';
import { DateTime } from 'luxon';
import type { TrackNumberOutcome } from '../../shared/bridge';
import type { BoardRow } from '../../shared/desktop';
import { lfdSourceLabel, rowHeadlineDeadline } from '../../shared/container';
import { formatDate, formatLocalDate } from '../../shared/date-style';
import { normaliseIdentifier } from '../../shared/find-link';
import {
  DOCUMENT_TYPE_LABELS,
  type DocumentSummary,
  type ExtractedNumber,
} from '../../shared/documents';
import { quayside } from '../bridge';
import { useAsync } from '../hooks/use-async';
import { describeFailure } from '../hooks/use-bridge';
import { useDataVersion } from '../hooks/data-version';

const KIND_LABELS: Record<ExtractedNumber['kind'], string> = {
  container: 'Container',
  bill_of_lading: 'Bill of lading',
  booking_number: 'Booking',
};

export const documentTypeLabel = (doc: DocumentSummary): string =>
  doc.documentType ? (DOCUMENT_TYPE_LABELS[doc.documentType] ?? doc.documentType) : 'Not read yet';

/** A number of the document that is on the board already. */
interface Tracked {
  kind: 'container' | 'shipment';
  id: string;
  number: string;
  /** The container's board row (live LFD and ETA); null for a shipment. */
  row: BoardRow | null;
}

/** Which of `numbers` the board has, by an exact match (never a partial one). */
async function trackedOnBoard(numbers: readonly string[]): Promise<Map<string, Tracked>> {
  const found = new Map<string, Tracked>();
  for (const value of numbers) {
    const target = await quayside.findRecord({ q: value });
    if (target.kind === 'board') continue;
    if (normaliseIdentifier(target.number) !== normaliseIdentifier(value)) continue;
    const row =
      target.kind === 'container'
        ? ((
            await quayside.listContainers({ search: target.number, limit: 5, showCompleted: true })
          ).rows.find((r) => r.id === target.id) ?? null)
        : null;
    found.set(value, { ...target, row });
  }
  return found;
}

/** A stated calendar day ("Thu 3 Dec"): the document gives no zone, so none is shown. */
const statedDay = (date: string) => {
  const day = DateTime.fromISO(date, { zone: 'utc' });
  return day.isValid ? day.toFormat('ccc d LLL') : date;
};

function LiveDates({ row, stated }: { row: BoardRow; stated: DocumentSummary['statedDates'] }) {
  const deadline = rowHeadlineDeadline(row);
  const differs = Boolean(deadline && stated?.lastFreeDay && stated.lastFreeDay !== deadline.date);
  return (
    <span className="help" data-testid="live-dates">
      {' '}
      Live:{' '}
      {deadline
        ? `${lfdSourceLabel(deadline.source)} ${formatLocalDate(deadline.date, deadline.zone)}`
        : 'no LFD yet'}
      {row.etaAt ? ` · ETA ${formatDate(row.etaAt, row.podTimezone)}` : ''}
      {differs ? <strong> (the document says otherwise)</strong> : null}
    </span>
  );
}

/** A number on the board already: a link to its record and, for a box, its live dates. */
function AlreadyTracked({
  found,
  stated,
}: {
  found: Tracked;
  stated: DocumentSummary['statedDates'];
}) {
  const view = found.kind === 'container' ? 'containers' : 'shipments';
  return (
    <span data-testid="already-tracked">
      Already tracked: <a href={`#/${view}/${encodeURIComponent(found.id)}`}>open {found.number}</a>
      {found.row ? <LiveDates row={found.row} stated={stated} /> : null}
    </span>
  );
}

export function ExtractionPanel({ document: doc }: { document: DocumentSummary }) {
  const trackable = doc.numbers.filter((n) => !n.problem);
  const dataVersion = useDataVersion();
  const tracked = useAsync(
    () => trackedOnBoard(trackable.map((n) => n.value)),
    `${doc.id}|${trackable.map((n) => n.value).join(',')}`,
    dataVersion,
  );
  const [selected, setSelected] = useState<ReadonlySet<string>>(
    () => new Set(trackable.map((n) => n.value)),
  );
  // A number found on the board is unticked once, when found; the user may tick it again.
  const unticked = useRef(new Set<string>());
  useEffect(() => {
    const found = [...(tracked.value?.keys() ?? [])].filter((v) => !unticked.current.has(v));
    if (found.length === 0) return;
    for (const value of found) unticked.current.add(value);
    setSelected((previous) => new Set([...previous].filter((v) => !found.includes(v))));
  }, [tracked.value]);
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

  const stated = doc.statedDates;
  return (
    <div className="extraction" aria-label={`Numbers in ${doc.fileName}`} role="group">
      {stated?.lastFreeDay || stated?.eta ? (
        <p className="help" data-testid="stated-dates">
          The {documentTypeLabel(doc).toLowerCase()} says:{' '}
          {[
            stated.lastFreeDay ? `last free day ${statedDay(stated.lastFreeDay)}` : null,
            stated.eta ? `ETA ${statedDay(stated.eta)}` : null,
          ]
            .filter(Boolean)
            .join(' · ')}
        </p>
      ) : null}
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
                ) : tracked.value?.has(n.value) && !outcome.get(n.value) ? (
                  <AlreadyTracked found={tracked.value.get(n.value)!} stated={stated} />
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
