import { useEffect, useMemo, useState, type FormEvent, type ReactNode } from 'react';
import {
  TrackCustomFields,
  setTrackCustomFields,
  trackCustomFieldValues,
  useTrackCustomFields,
} from '../custom-fields/TrackCustomFields';
import { REQUEST_TYPES, type InferredNumber, type TrackingRequestRow } from '../../shared/bridge';
import { quayside } from '../bridge';
import { RequestStatus } from '../components/RequestStatus';
import { DocumentDropZone } from '../documents/DocumentDropZone';
import { useAsync } from '../hooks/use-async';
import { describeFailure } from '../hooks/use-bridge';
import { useDataVersion } from '../hooks/data-version';
import { normalizeNumber } from '../../shared/iso6346';
import { planNumbers, resolveScac, trackInputProblems } from '../lib/track-input';
import { SpreadsheetImport } from '../track/SpreadsheetImport';
import '../lib/track.css';

type RequestType = (typeof REQUEST_TYPES)[number];

const TYPE_LABELS: Record<RequestType, string> = {
  container: 'Container number',
  bill_of_lading: 'Bill of lading',
  booking_number: 'Booking number',
};

interface Submitted {
  number: string;
  request: TrackingRequestRow | null;
  error: string | null;
  /** Refused as already tracked (a duplicate found when it was sent). */
  duplicate?: boolean;
  /** Never sent: the form set it aside (a typo) and kept it in the box to fix. */
  setAside?: boolean;
}

/** The line service tells at most this many numbers' lines per question. */
const INFER_BATCH = 50;

/** The container on the board under a number (its container or bill of lading number). */
async function findOnBoard(number: string): Promise<{ id: string; number: string } | null> {
  const found = await quayside.listContainers({ search: number, limit: 5, showCompleted: true });
  const match = found.rows.find((row) => row.number === number || row.billOfLading === number);
  return match ? { id: match.id, number: match.number } : null;
}

/**
 * A duplicate points at the container already on the board instead of a bare refusal: one
 * refused when sent, or one the service fails as a duplicate after taking it.
 */
function AlreadyTracked({ number, fallback }: { number: string; fallback: ReactNode }) {
  const dataVersion = useDataVersion();
  const existing = useAsync(() => findOnBoard(number), number, dataVersion);
  if (!existing.value) return <>{fallback}</>;
  return (
    <span>
      Already tracked:{' '}
      <a href={`#/containers/${encodeURIComponent(existing.value.id)}`}>
        open {existing.value.number}
      </a>
    </span>
  );
}

const splitList = (value: string) =>
  value
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);

/** One number per line (commas and spaces between numbers work too for containers). */
function parseNumbers(text: string, type: RequestType): string[] {
  const parts = type === 'container' ? text.split(/[\n,;\t ]+/) : text.split(/[\n,;\t]+/);
  return [...new Set(parts.map((part) => normalizeNumber(part)).filter(Boolean))];
}

export function TrackView() {
  const dataVersion = useDataVersion();
  const [type, setType] = useState<RequestType>('container');
  const [numbers, setNumbers] = useState('');
  const [scac, setScac] = useState('');
  const [refs, setRefs] = useState('');
  const [tags, setTags] = useState('');
  const [submitting, setSubmitting] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  const [submitted, setSubmitted] = useState<Submitted[]>([]);
  const [tick, setTick] = useState(0);
  const customFields = useTrackCustomFields();
  const lines = useAsync(() => quayside.listShippingLines(), 'lines');

  const parsed = useMemo(() => parseNumbers(numbers, type), [numbers, type]);
  // What stops the form (lengths, list sizes); a mistyped number only sets itself aside.
  const problems = useMemo(
    () => trackInputProblems({ numbers: parsed, refs: splitList(refs), tags: splitList(tags) }),
    [parsed, refs, tags],
  );
  const plan = useMemo(() => planNumbers(parsed, type), [parsed, type]);
  const setAside = plan.flatMap((p) => (p.status === 'set-aside' ? [p] : []));
  const recognised = plan.filter((p) => p.status === 'recognise');
  const sendable = plan.length - setAside.length;
  // A SCAC, or a line's name ("Hapag-Lloyd", "msc") mapped to its SCAC.
  const scacUpper = resolveScac(scac, lines.value ?? []) ?? '';
  const knownLine = lines.value?.find((line) => line.scac === scacUpper);

  // Follow the submitted requests' status live: refresh on every sync and every few seconds.
  const pendingIds = submitted.flatMap((entry) => (entry.request ? [entry.request.id] : []));
  useEffect(() => {
    if (pendingIds.length === 0) return undefined;
    const timer = window.setInterval(() => setTick((value) => value + 1), 3000);
    return () => window.clearInterval(timer);
  }, [pendingIds.length]);
  const statuses = useAsync(
    () =>
      pendingIds.length ? quayside.listTrackingRequests({ limit: 200 }) : Promise.resolve(null),
    pendingIds.join(','),
    `${dataVersion}|${tick}`,
  );
  const latest = new Map(statuses.value?.rows.map((row) => [row.id, row]) ?? []);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setFormError(null);
    if (parsed.length === 0) return setFormError('Enter at least one number.');
    if (problems.length) return setFormError('Fix the problems listed under Numbers first.');
    if (sendable === 0)
      return setFormError('None of these numbers can be tracked: the reasons are under Numbers.');
    // No line chosen: the service tells each number's line (a mixed pasted list works).
    const detect = scac.trim() === '';
    if (!detect && !/^[A-Z]{4}$/.test(scacUpper))
      return setFormError('Choose the shipping line (4-letter SCAC or its name).');
    const custom = trackCustomFieldValues(customFields);
    if (!custom.ok) return setFormError(custom.message);
    let customFieldProblem: string | null = null;
    setSubmitting(true);
    const results: Submitted[] = setAside.map((p) => ({
      number: p.number,
      request: null,
      error: p.reason,
      setAside: true,
    }));
    // The line service says each number's line, and for a number that is not a container
    // number whether it is a bill of lading or a booking.
    const toInfer = plan.filter(
      (p) => p.status === 'recognise' || (detect && p.status === 'ready'),
    );
    const inferred = new Map<string, InferredNumber>();
    try {
      for (let i = 0; i < toInfer.length; i += INFER_BATCH) {
        const batch = toInfer.slice(i, i + INFER_BATCH).map((p) => p.number);
        for (const each of await quayside.inferNumbers({ numbers: batch }))
          inferred.set(each.number, each);
      }
    } catch (failure) {
      setSubmitting(false);
      return setFormError(`Could not detect the lines: ${describeFailure(failure)}`);
    }
    for (const planned of plan) {
      if (planned.status === 'set-aside') continue;
      const { number } = planned;
      const guess = inferred.get(number);
      // The chosen type, unless the line service is asked (detecting, or not a container number).
      const chosen = planned.status === 'ready' ? planned.requestType : null;
      const requestType = chosen && !detect ? chosen : (guess?.requestType ?? chosen);
      if (!requestType) {
        results.push({
          number,
          request: null,
          error:
            'Not a container number, and not recognised as a bill of lading or booking; choose its request type above.',
        });
        continue;
      }
      const lineScac = detect ? guess?.scac : scacUpper;
      if (!lineScac) {
        results.push({
          number,
          request: null,
          error: 'The line could not be told from the number; choose it above.',
        });
        continue;
      }
      try {
        const result = await quayside.createTrackingRequest({
          requestType,
          number,
          scac: lineScac,
          refNumbers: splitList(refs),
          tags: splitList(tags),
        });
        if (result.ok && custom.values.length > 0) {
          customFieldProblem ??= await setTrackCustomFields(result.request.id, custom.values);
        }
        results.push(
          result.ok
            ? { number, request: result.request, error: null }
            : { number, request: null, error: result.message, duplicate: result.duplicate },
        );
      } catch (failure) {
        results.push({ number, request: null, error: describeFailure(failure) });
      }
    }
    setSubmitted((previous) => [...results, ...previous]);
    setSubmitting(false);
    if (customFieldProblem) setFormError(customFieldProblem);
    // What was not tracked stays in the box to fix and send again; a duplicate is done.
    setNumbers(
      results
        .filter((entry) => !entry.request && !entry.duplicate)
        .map((entry) => entry.number)
        .join('\n'),
    );
  };

  return (
    <section className="track" aria-label="Track">
      <DocumentDropZone />
      <SpreadsheetImport
        onSubmitted={(rows) => setSubmitted((previous) => [...rows, ...previous])}
      />
      <form className="settings" onSubmit={onSubmit} aria-label="New tracking request" noValidate>
        <fieldset>
          <legend>What to track</legend>
          <label>
            Request type
            <select value={type} onChange={(e) => setType(e.target.value as RequestType)}>
              {REQUEST_TYPES.map((value) => (
                <option key={value} value={value}>
                  {TYPE_LABELS[value]}
                </option>
              ))}
            </select>
          </label>
          <label>
            Numbers (one per line; paste many at once)
            <textarea
              rows={4}
              maxLength={20_000}
              value={numbers}
              onChange={(e) => setNumbers(e.target.value)}
              aria-invalid={problems.length > 0 || setAside.length > 0}
              aria-describedby="number-help"
              spellCheck={false}
            />
          </label>
          <div id="number-help" className="help" aria-live="polite">
            {problems.length ? (
              <ul className="problems">
                {problems.map((problem) => (
                  <li key={problem}>{problem}</li>
                ))}
              </ul>
            ) : setAside.length || recognised.length ? (
              <>
                {`${sendable} of ${parsed.length} will be tracked.`}
                <ul className="problems" aria-label="Numbers set aside or recognised">
                  {setAside.map((p) => (
                    <li key={p.number}>
                      <span className="mono">{p.number}</span> set aside: {p.reason}
                    </li>
                  ))}
                  {recognised.map((p) => (
                    <li key={p.number} className="problems__note">
                      <span className="mono">{p.number}</span> is not a container number: it is
                      tracked as the bill of lading or booking its line recognises.
                    </li>
                  ))}
                </ul>
              </>
            ) : parsed.length > 1 ? (
              `${parsed.length} requests will be created.`
            ) : type === 'container' ? (
              'ISO 6346: 4 letters, 6 digits and a check digit.'
            ) : (
              ''
            )}
          </div>
          <label>
            Shipping line (SCAC)
            <input
              list="shipping-lines"
              value={scac}
              onChange={(e) => setScac(e.target.value)}
              maxLength={80}
              placeholder="Type a SCAC or line name"
              autoComplete="off"
            />
          </label>
          <datalist id="shipping-lines">
            {lines.value?.map((line) => (
              <option key={line.scac} value={line.scac}>
                {line.name}
              </option>
            ))}
          </datalist>
          <div className="help">
            {knownLine
              ? `${knownLine.scac}: ${knownLine.name}`
              : lines.error
                ? `Shipping lines unavailable: ${lines.error}`
                : scacUpper.length === 4
                  ? 'Not a line we know; the request will say if it is wrong.'
                  : scac.trim()
                    ? 'Several lines match; type more of the name or the SCAC.'
                    : 'Leave empty to detect the line of each number.'}
          </div>
          <label>
            References (comma separated)
            <input value={refs} maxLength={2_200} onChange={(e) => setRefs(e.target.value)} />
          </label>
          <label>
            Tags (comma separated)
            <input value={tags} maxLength={2_200} onChange={(e) => setTags(e.target.value)} />
          </label>
        </fieldset>
        <TrackCustomFields state={customFields} disabled={submitting} />
        <div className="settings__actions">
          <button type="submit" disabled={submitting}>
            {submitting ? 'Submitting…' : sendable > 1 ? `Track ${sendable} numbers` : 'Track'}
          </button>
          {formError ? (
            <span role="alert" className="save-state--error">
              {formError}
            </span>
          ) : null}
        </div>
      </form>

      {submitted.length ? (
        <section aria-label="Submitted requests" className="panel">
          <h2>Submitted</h2>
          <ul className="submitted">
            {submitted.map((entry, index) => {
              const row = entry.request ? (latest.get(entry.request.id) ?? entry.request) : null;
              return (
                <li key={`${entry.number}-${index}`} data-testid="submitted-request">
                  <span className="mono">{entry.number}</span>{' '}
                  {row?.failedReason === 'duplicate' || entry.duplicate ? (
                    <AlreadyTracked
                      number={entry.number}
                      fallback={
                        row ? (
                          <RequestStatus row={row} />
                        ) : (
                          <span className="save-state--error">Not sent: {entry.error}</span>
                        )
                      }
                    />
                  ) : row ? (
                    <RequestStatus row={row} />
                  ) : (
                    <span className="save-state--error">
                      {entry.setAside ? 'Set aside' : 'Not sent'}: {entry.error}
                    </span>
                  )}
                </li>
              );
            })}
          </ul>
        </section>
      ) : null}
    </section>
  );
}
