import { SYNC_CADENCE } from '../../shared/sync-cadence';

/** What each kind of record's sync cadence is, for both kinds of service (read-only). */
export function SyncCadenceNote() {
  return (
    <div className="muted" aria-label="Sync cadence">
      <p>With a Quayside service (records carry change stamps):</p>
      <ul>
        {SYNC_CADENCE.incremental.map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
      <p>With a Terminal49-compatible service (no change stamps):</p>
      <ul>
        {SYNC_CADENCE.activeFirst.map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
    </div>
  );
}
