/**
 * The morning worklist (the app's default view): what to act on today, most urgent first, each
 * section with its terminals and ramps as sub-headings, read in each place's calendar day. Main sorts the boxes into sections with the shared worklist rules
 * (src/shared/worklist.ts); this view only lays them out.
 */
import {
  WORKLIST_SECTIONS,
  WORKLIST_SECTION_LABELS,
  type WorklistSection,
} from '../../shared/worklist';
import { formatLocalDate } from '../../shared/date-style';
import { countOf, formatCount } from '../../shared/words';
import { quayside } from '../bridge';
import { CostCell, LfdCell } from '../board/columns';
import { DEFAULT_COST_TABLES } from '../../shared/cost-clock';
import { CostSummary } from '../components/CostSummary';
import { useSettings } from '../hooks/use-settings';
import { useAsync } from '../hooks/use-async';
import { useDataVersion } from '../hooks/data-version';
import { useNow } from '../hooks/use-now';
import { useSyncStatus } from '../hooks/use-sync-status';
import { FirstSyncNotice, stillLoading } from '../components/FirstSyncNotice';
import { navigate } from '../lib/navigation';
import '../worklist.css';

const placeId = (section: WorklistSection, place: string) =>
  `worklist-${section}-${place.replace(/[^A-Za-z0-9]+/g, '-')}`;

export function WorklistView() {
  const dataVersion = useDataVersion();
  const now = useNow();
  const settings = useSettings();
  // Reload on new data and once a (app-clock) minute, so sections follow the day as it turns.
  const worklist = useAsync(
    () => quayside.getWorklist(),
    'worklist',
    `${dataVersion}-${Math.floor(now / 60_000)}-${JSON.stringify(settings?.costs ?? null)}`,
  );
  const status = useSyncStatus().value;
  const loading = stillLoading(status);
  // Until the sync status is known a first launch cannot be told from an empty day: no counts.
  const list = loading || !status ? null : worklist.value;
  const total = list ? Object.values(list.counts).reduce((sum, n) => sum + n, 0) : null;

  return (
    <section className="worklist" aria-label="Worklist">
      <div className="worklist__summary" role="status" data-testid="worklist-summary">
        {list ? (
          WORKLIST_SECTIONS.map((section) => (
            <span
              key={section}
              className={`chip worklist__count worklist__count--${section}`}
              data-section={section}
            >
              {WORKLIST_SECTION_LABELS[section]}: {formatCount(list.counts[section])}
            </span>
          ))
        ) : (
          <span className="muted">{loading ? 'Loading your containers…' : 'Loading…'}</span>
        )}
        {list ? <CostSummary cost={list.cost} /> : null}
        <span className="spacer" />
        <a href="#/containers">Open the board</a>
      </div>
      {worklist.error ? (
        <p role="alert" className="error-banner">
          Could not load the worklist: {worklist.error}
        </p>
      ) : null}
      {loading ? <FirstSyncNotice status={status} /> : null}
      {total === 0 ? (
        <div className="empty-state">
          <h2>Nothing to act on today</h2>
          <p>No box is due, blocked, overdue or arriving in the next days.</p>
        </div>
      ) : null}
      {list?.sections.map((group) => (
        <section
          key={group.section}
          className={`worklist__section worklist__section--${group.section} panel`}
          aria-label={WORKLIST_SECTION_LABELS[group.section]}
          data-section={group.section}
        >
          <h2 className="worklist__section-title">
            {WORKLIST_SECTION_LABELS[group.section]}{' '}
            <span className="muted small">
              (
              {countOf(
                group.places.reduce((n, p) => n + p.items.length, 0),
                'container',
              )}
              )
            </span>
          </h2>
          {group.places.map((place) => (
            <section
              key={place.name}
              className="worklist__place"
              aria-labelledby={placeId(group.section, place.name)}
            >
              <h3 id={placeId(group.section, place.name)} className="worklist__place-title">
                {place.name}{' '}
                <span className="muted small">
                  {formatLocalDate(place.today, place.zone)} ·{' '}
                  {countOf(place.items.length, 'container')}
                </span>
              </h3>
              <table className="data-table worklist__table">
                <thead>
                  <tr>
                    <th scope="col">Container</th>
                    <th scope="col">Why</th>
                    <th scope="col">Next action</th>
                    <th scope="col">LFD</th>
                    <th scope="col">Customer</th>
                    <th scope="col">Cost</th>
                  </tr>
                </thead>
                <tbody>
                  {place.items.map((item) => (
                    <tr key={item.row.id} data-testid="worklist-row">
                      <td>
                        <a
                          className="mono strong"
                          href={`#/containers/${encodeURIComponent(item.row.id)}`}
                          onClick={(event) => {
                            event.preventDefault();
                            navigate('containers', item.row.id);
                          }}
                        >
                          {item.row.number}
                        </a>
                        <div className="muted small">{item.row.lineScac ?? ''}</div>
                      </td>
                      <td data-testid="worklist-reason">{item.reason}</td>
                      <td data-testid="worklist-action">{item.nextAction}</td>
                      <td>
                        <LfdCell row={item.row} now={now} />
                      </td>
                      <td>{item.row.customer ?? '—'}</td>
                      <td>
                        <CostCell
                          row={item.row}
                          now={now}
                          costs={settings?.costs ?? DEFAULT_COST_TABLES}
                        />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </section>
          ))}
        </section>
      ))}
    </section>
  );
}
