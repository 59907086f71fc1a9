/**
 * A spreadsheet of numbers for the Track form: dropped or picked here (apart from the documents
 * drop zone, which uploads scans to the service to be read), read by main, shown as a preview
 * where rows with problems are marked and left out, then tracked one request per number with
 * the row's line, customer and references. The outcomes join the form's Submitted list.
 */
import { useState } from 'react';
import type { REQUEST_TYPES } from '../../shared/bridge';
import { type InferredNumber } from '../../shared/bridge';
import {
  MAX_SPREADSHEET_BYTES,
  type SpreadsheetImport as Sheet,
  type SpreadsheetRow,
} from '../../shared/spreadsheet-import';
import { quayside } from '../bridge';
import { DropZone } from '../components/DropZone';
import { toBase64 } from '../documents/uploads';
import { describeFailure } from '../hooks/use-bridge';
import { describeOutcome, type SubmittedRequest } from '../lib/track-outcome';
import { countOf } from '../../shared/words';
import './spreadsheet-import.css';
import { TableScroll } from '../components/TableScroll';

const TYPE_LABELS: Record<(typeof REQUEST_TYPES)[number], string> = {
  container: 'Container',
  bill_of_lading: 'Bill of lading',
  booking_number: 'Booking',
};

/** The bridge's infer call takes this many numbers at a time. */
const INFER_BATCH = 50;

/** Sends the rows, detecting the line (and kind) of those the sheet does not give. */
async function trackRows(
  rows: readonly SpreadsheetRow[],
  onProgress: (done: number) => void,
): Promise<SubmittedRequest[]> {
  const inferred = new Map<string, InferredNumber>();
  const unknown = rows.filter((row) => !row.scac || !row.requestType).map((row) => row.number);
  for (let start = 0; start < unknown.length; start += INFER_BATCH) {
    for (const each of await quayside.inferNumbers({
      numbers: unknown.slice(start, start + INFER_BATCH),
    }))
      inferred.set(each.number, each);
  }
  const results: SubmittedRequest[] = [];
  for (const row of rows) {
    const guess = inferred.get(row.number);
    const scac = row.scac ?? guess?.scac ?? null;
    const requestType = row.requestType ?? guess?.requestType ?? null;
    if (!scac || !requestType) {
      results.push({
        number: row.number,
        request: null,
        error: 'The line could not be told from the number; add a Line column with its SCAC.',
      });
    } else {
      try {
        const outcome = await quayside.createTrackingRequest({
          requestType,
          number: row.number,
          scac,
          refNumbers: row.refNumbers,
          ...(row.customer ? { customer: row.customer } : {}),
        });
        results.push(
          outcome.ok
            ? { number: row.number, request: outcome.request, error: null }
            : {
                number: row.number,
                request: null,
                error: outcome.message,
                duplicate: outcome.duplicate,
              },
        );
      } catch (failure) {
        results.push({ number: row.number, request: null, error: describeFailure(failure) });
      }
    }
    onProgress(results.length);
  }
  return results;
}

export function SpreadsheetImport({
  onSubmitted,
}: {
  onSubmitted: (results: SubmittedRequest[]) => void;
}) {
  const [reading, setReading] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [sheet, setSheet] = useState<Sheet | null>(null);
  const [sent, setSent] = useState<number | null>(null);
  const [outcome, setOutcome] = useState<string | null>(null);

  const trackable = sheet?.rows.filter((row) => row.problems.length === 0) ?? [];
  const excluded = (sheet?.rows.length ?? 0) - trackable.length;

  const readFile = async (file: File | undefined) => {
    if (!file || reading || sent !== null) return;
    setError(null);
    setOutcome(null);
    setSheet(null);
    if (file.size > MAX_SPREADSHEET_BYTES) {
      return setError(
        `${file.name} is larger than ${MAX_SPREADSHEET_BYTES / 1024 / 1024} MB: split it into smaller sheets.`,
      );
    }
    setReading(file.name);
    try {
      const bytes = new Uint8Array(await file.arrayBuffer());
      setSheet(
        await quayside.readTrackingSpreadsheet({
          fileName: file.name.slice(0, 255) || 'spreadsheet',
          dataBase64: toBase64(bytes),
        }),
      );
    } catch (failure) {
      setError(describeFailure(failure));
    } finally {
      setReading(null);
    }
  };

  const submit = async () => {
    if (!trackable.length) return;
    setSent(0);
    setError(null);
    try {
      const results = await trackRows(trackable, setSent);
      onSubmitted(results);
      setOutcome(describeOutcome(results));
      setSheet(null);
    } catch (failure) {
      setError(`Could not detect the lines: ${describeFailure(failure)}`);
    } finally {
      setSent(null);
    }
  };

  return (
    <section className="panel drop-panel sheet-import" aria-label="Spreadsheet of numbers">
      <DropZone
        testId="spreadsheet-drop-zone"
        buttonText="Choose spreadsheet…"
        pickerLabel="Choose spreadsheet"
        accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
        disabled={reading !== null || sent !== null}
        onFiles={(files) => void readFile(files[0])}
        status={
          <>
            {reading ? <p role="status">Reading {reading}…</p> : null}
            {error ? (
              <p role="alert" className="save-state--error">
                {error}
              </p>
            ) : null}
            {outcome ? <p role="status">{outcome}</p> : null}
          </>
        }
      >
        <p>
          Or drop a spreadsheet (CSV or XLSX) with a column of container, B/L or booking numbers;
          Line, Customer and PO or Reference columns are taken along. You check the rows before
          anything is tracked.
        </p>
      </DropZone>

      {sheet ? (
        <div className="sheet-import__preview">
          <h3>
            {sheet.fileName}: {countOf(sheet.rows.length, 'number')}
            {excluded ? `, ${excluded} left out (marked)` : ''}
          </h3>
          {sheet.problems.length ? (
            <ul className="problems">
              {sheet.problems.map((problem) => (
                <li key={problem}>{problem}</li>
              ))}
            </ul>
          ) : null}
          <TableScroll label="Spreadsheet rows" className="sheet-import__table">
            <table className="data-table" aria-label="Spreadsheet rows">
              <thead>
                <tr>
                  <th scope="col">Row</th>
                  <th scope="col">Number</th>
                  <th scope="col">Type</th>
                  <th scope="col">Line</th>
                  <th scope="col">Customer</th>
                  <th scope="col">References</th>
                  <th scope="col">Problems</th>
                </tr>
              </thead>
              <tbody>
                {sheet.rows.map((row) => {
                  const bad = row.problems.length > 0;
                  return (
                    <tr
                      key={`${row.number}-${row.sourceRows[0]}`}
                      data-testid="spreadsheet-row"
                      className={bad ? 'sheet-import__row--excluded' : undefined}
                      aria-invalid={bad || undefined}
                    >
                      <td>{row.sourceRows.join(', ')}</td>
                      <td className="mono">{row.number || '—'}</td>
                      <td>{row.requestType ? TYPE_LABELS[row.requestType] : 'Detect'}</td>
                      <td>{row.scac ?? (row.lineText || 'Detect')}</td>
                      <td>{row.customer ?? ''}</td>
                      <td>{row.refNumbers.join(', ')}</td>
                      <td className="sheet-import__problems">
                        {bad ? `Left out: ${row.problems.join(' ')}` : ''}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </TableScroll>
          <div className="settings__actions">
            <button
              type="button"
              disabled={trackable.length === 0 || sent !== null}
              onClick={() => void submit()}
            >
              {sent !== null
                ? `Submitting ${sent} of ${trackable.length}…`
                : `Track ${countOf(trackable.length, 'number')}`}
            </button>
            <button
              type="button"
              className="secondary"
              disabled={sent !== null}
              onClick={() => setSheet(null)}
            >
              Clear
            </button>
          </div>
        </div>
      ) : null}
    </section>
  );
}
