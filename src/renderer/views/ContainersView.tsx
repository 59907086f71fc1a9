import { useCallback, useMemo, useState } from 'react';
import { downloadBlob } from '../lib/download';
import type { ColumnSizingState, VisibilityState } from '@tanstack/react-table';
import {
  BOARD_VIEWS,
  CUSTOM_FIELD_COLUMN_PREFIX,
  customFieldColumnKey,
  type BoardView,
  type CustomFieldColumn,
  type ContainerQuery,
  type BoardRow,
  type LfdDueFilter,
  TRUCKER_NONE,
} from '../../shared/desktop';
import { TruckerAssign } from '../board/TruckerAssign';
import { quayside } from '../bridge';
import { BoardTable, type BoardDensity, type BoardSort } from '../board/BoardTable';
import { BOARD_COLUMN_DEFS, customFieldColumnDefs } from '../board/columns';
import {
  CustomFieldFilters,
  customFieldFilters,
  type CustomFieldFilterState,
} from '../custom-fields/CustomFieldFilters';
import { useBoardPages } from '../board/use-board-pages';
import { useAsync } from '../hooks/use-async';
import { describeFailure } from '../hooks/use-bridge';
import { useDataVersion } from '../hooks/data-version';
import { appNow, useNow } from '../hooks/use-now';
import { DateTime } from 'luxon';
import { useStoredState } from '../hooks/use-stored-state';
import { statusLabel } from '../lib/format';
import { countOf, formatCount } from '../../shared/words';
import { CostSummary } from '../components/CostSummary';
import { SavedViewsBar } from '../board/SavedViewsBar';
import { useSettings } from '../hooks/use-settings';
import { useSyncStatus } from '../hooks/use-sync-status';
import { FirstSyncNotice, stillLoading } from '../components/FirstSyncNotice';
import { navigate } from '../lib/navigation';

export const VIEW_LABELS: Record<BoardView, string> = {
  needs_action_today: 'Needs action today',
  lfd_next_3_days: 'LFD in next 3 days',
  on_hold: 'On hold',
  ready_for_pickup: 'Ready for pickup',
  arriving_this_week: 'Arriving this week',
  at_sea: 'At sea',
};

/** LFD filters by calendar day of each deadline's own zone (the shared LFD rule). */
const LFD_WINDOWS: Record<'any' | LfdDueFilter, string> = {
  any: 'Any LFD',
  overdue: 'Overdue',
  today: 'Due today',
  by_tomorrow: 'Due by tomorrow',
  next_3_days: 'Next 3 days',
  next_7_days: 'Next 7 days',
};
type LfdWindow = keyof typeof LFD_WINDOWS;

interface Filters {
  view: BoardView | null;
  search: string;
  status: string;
  line: string;
  pod: string;
  terminal: string;
  /** A customer's name, as the board shows it; empty for any. */
  customer?: string;
  /** A trucker's id, `none` (TRUCKER_NONE) for boxes without one, empty for any. */
  trucker?: string;
  lfd: LfdWindow;
  holds: 'any' | 'yes' | 'no';
  ready: 'any' | 'yes' | 'no';
  /** Completed (empty returned) containers are hidden unless this is on. */
  showCompleted?: boolean;
}

const NO_FILTERS: Filters = {
  view: null,
  search: '',
  status: '',
  line: '',
  pod: '',
  terminal: '',
  customer: '',
  trucker: '',
  lfd: 'any',
  holds: 'any',
  ready: 'any',
  showCompleted: false,
};

const FILTERS_KEY = 'quayside.board.filters';

/** Opens the board on `search` alone the next time it shows (a find link naming no one record). */
export function showBoardSearch(search: string): void {
  try {
    window.localStorage.setItem(FILTERS_KEY, JSON.stringify({ ...NO_FILTERS, search }));
  } catch {
    // Storage disabled: the board opens with its last filters.
  }
}

/** The filters as a bridge query (main applies the LFD windows on its own clock). */
function toQuery(
  filters: Filters,
  sort: BoardSort,
  custom: { state: CustomFieldFilterState; shown: readonly CustomFieldColumn[] },
): ContainerQuery {
  const query: ContainerQuery = { sort };
  const customFields = customFieldFilters(custom.state, custom.shown);
  if (customFields.length > 0) query.customFields = customFields;
  if (filters.view) query.view = filters.view;
  if (filters.search.trim()) query.search = filters.search.trim();
  if (filters.status) query.status = [filters.status];
  if (filters.line) query.line = [filters.line];
  if (filters.pod) query.pod = [filters.pod];
  if (filters.terminal) query.terminal = [filters.terminal];
  if (filters.customer) query.customer = [filters.customer];
  if (filters.trucker) query.trucker = [filters.trucker];
  // A filter stored by an older version (an hour window) reads as "any".
  if (filters.lfd !== 'any' && filters.lfd in LFD_WINDOWS) query.lfdDue = filters.lfd;
  if (filters.holds !== 'any') query.hasHolds = filters.holds === 'yes';
  if (filters.ready !== 'any') query.ready = filters.ready === 'yes';
  if (filters.showCompleted) query.showCompleted = true;
  return query;
}

/**
 * The useful columns fit the window; the rest are one click away in the Columns menu. The
 * appointment column is among them: an appointment after free time is flagged in the LFD cell,
 * and the worklist lists the boxes that still need one.
 */
const DEFAULT_HIDDEN: VisibilityState = {
  appointment: false,
  customer: false,
  updated: false,
  discharged: false,
  vessel: false,
  billOfLading: false,
  terminalChecked: false,
};

export function ContainersView() {
  const dataVersion = useDataVersion();
  const now = useNow();
  const [filters, setFilters] = useStoredState<Filters>(FILTERS_KEY, NO_FILTERS);
  const [sort, setSort] = useStoredState<BoardSort>('quayside.board.sort', {
    column: 'lfd',
    direction: 'asc',
  });
  const [sizing, setSizing] = useStoredState<ColumnSizingState>('quayside.board.columnSizing', {});
  const [visibility, setVisibility] = useStoredState<VisibilityState>(
    'quayside.board.columnVisibility',
    DEFAULT_HIDDEN,
  );
  const [density, setDensity] = useStoredState<BoardDensity>(
    'quayside.board.density',
    'comfortable',
  );
  const [exportState, setExportState] = useState<string | null>(null);
  const [customFilterState, setCustomFilterState] = useStoredState<CustomFieldFilterState>(
    'quayside.board.customFieldFilters',
    {},
  );

  const facets = useAsync(() => quayside.getBoardFacets(), 'facets', dataVersion);
  // Custom field columns are hidden until chosen in the Columns menu.
  const customFields = facets.value?.customFields;
  const fieldsKey = JSON.stringify(customFields ?? []);
  // The fields as of their last change, not each facets answer: what the table's columns and
  // visibility are made from, so both stay the same objects between renders (every prop of the
  // board table does: a cost or count arriving re-renders this view, never the table's rows).
  const stableFields = useMemo(() => JSON.parse(fieldsKey) as CustomFieldColumn[], [fieldsKey]);
  const columns = useMemo(
    () => [...BOARD_COLUMN_DEFS, ...customFieldColumnDefs(stableFields)],
    [stableFields],
  );
  const shownFields = (customFields ?? []).filter(
    (field) => visibility[customFieldColumnKey(field.slug)] === true,
  );
  const tableVisibility = useMemo(
    () => ({
      ...Object.fromEntries(stableFields.map((field) => [customFieldColumnKey(field.slug), false])),
      ...visibility,
    }),
    [stableFields, visibility],
  );

  // A sort on a custom field that is gone falls back to the LFD.
  const knownSort =
    !sort.column.startsWith(CUSTOM_FIELD_COLUMN_PREFIX) ||
    (customFields ?? []).some((field) => customFieldColumnKey(field.slug) === sort.column);
  const effectiveSort: BoardSort =
    knownSort || !customFields ? sort : { column: 'lfd', direction: 'asc' };
  const query = toQuery(filters, effectiveSort, {
    state: customFilterState,
    shown: shownFields,
  });
  const pages = useBoardPages(query, dataVersion);
  const syncStatus = useSyncStatus().value;
  const counts = useAsync(() => quayside.getViewCounts(), 'counts', dataVersion);
  const settings = useSettings();
  const queryKey = JSON.stringify({ ...query, sort: undefined });
  const viewCost = useAsync(
    () => quayside.getViewCost({ ...query, sort: undefined }),
    `cost-${queryKey}`,
    `${dataVersion}-${JSON.stringify(settings?.costs ?? null)}-${Math.floor(now / 60_000)}`,
  );

  const update = (change: Partial<Filters>) => setFilters({ ...filters, ...change });
  const onOpen = useCallback((row: { id: string }) => navigate('containers', row.id), []);
  // Rows ticked for a bulk action, by id (kept across scrolling and syncs; cleared after use).
  const [selected, setSelected] = useState<ReadonlySet<string>>(() => new Set());
  const onSelect = useCallback((row: BoardRow, on: boolean) => {
    setSelected((previous) => {
      const next = new Set(previous);
      if (on) next.add(row.id);
      else next.delete(row.id);
      return next;
    });
  }, []);
  const truckers = facets.value?.truckers ?? [];
  const [bulkMessage, setBulkMessage] = useState<string | null>(null);

  /** Downloads the current view as CSV or .xlsx, named with the app's date (simulated in demo mode). */
  const onExport = async (format: 'csv' | 'xlsx') => {
    setExportState('Exporting…');
    try {
      const all: ContainerQuery = {
        ...query,
        offset: undefined,
        limit: undefined,
        customFieldColumns: shownFields.map((field) => field.slug),
      };
      let blob: Blob;
      let rows: number;
      if (format === 'csv') {
        const csv = await quayside.exportContainersCsv(all);
        blob = new Blob([csv.csv], { type: 'text/csv;charset=utf-8' });
        rows = csv.rows;
      } else {
        const xlsx = await quayside.exportContainersXlsx(all);
        const bytes = Uint8Array.from(atob(xlsx.base64), (c) => c.charCodeAt(0));
        blob = new Blob([bytes], {
          type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        });
        rows = xlsx.rows;
      }
      downloadBlob(
        blob,
        `containers-${filters.view ?? 'all'}-${DateTime.fromMillis(appNow()).toISODate()}.${format}`,
      );
      setExportState(`Exported ${countOf(rows, 'row')}`);
    } catch (failure) {
      setExportState(`Export failed: ${describeFailure(failure)}`);
    }
  };

  const facetOptions = (name: 'status' | 'line' | 'pod' | 'terminal' | 'customer') =>
    (facets.value?.[name] ?? []).map((facet) => (
      <option key={facet.value} value={facet.value}>
        {name === 'status' ? statusLabel(facet.value) : facet.value} ({formatCount(facet.count)})
      </option>
    ));
  // The view and the "Show completed" switch are choices of what to see, not filters to clear.
  const filterPart = (f: Filters) => JSON.stringify({ ...f, view: null, showCompleted: null });
  const filtered =
    filterPart(filters) !== filterPart(NO_FILTERS) || (query.customFields?.length ?? 0) > 0;

  return (
    <section className="board-view" aria-label="Container board">
      <div className="views" role="toolbar" aria-label="Board views">
        <button
          type="button"
          className="view-chip"
          aria-pressed={filters.view === null}
          onClick={() => update({ view: null })}
        >
          All containers
        </button>
        {BOARD_VIEWS.map((view) => (
          <button
            key={view}
            type="button"
            className={`view-chip view-chip--${view}`}
            aria-pressed={filters.view === view}
            onClick={() => update({ view })}
          >
            {VIEW_LABELS[view]}
            <span className="badge" aria-label={countOf(counts.value?.[view] ?? 0, 'container')}>
              {counts.value ? formatCount(counts.value[view]) : '…'}
            </span>
          </button>
        ))}
      </div>

      <SavedViewsBar
        views={settings?.savedViews ?? []}
        current={{
          filters: { ...filters, lfd: filters.lfd in LFD_WINDOWS ? filters.lfd : 'any' },
          sort,
          columns: Object.fromEntries(
            Object.entries(visibility).filter(([id]) =>
              /^([A-Za-z]{1,40}|cf:[a-z][a-z0-9_]{0,62})$/.test(id),
            ),
          ),
        }}
        onApply={(view) => {
          setFilters({ ...NO_FILTERS, ...view.filters });
          setSort(view.sort);
          setVisibility({ ...DEFAULT_HIDDEN, ...view.columns });
        }}
      />

      <div className="filters" role="search" aria-label="Board filters">
        <input
          type="search"
          aria-label="Filter containers"
          placeholder="Container, BL, reference, vessel…"
          value={filters.search}
          onChange={(event) => update({ search: event.target.value })}
        />
        <select
          aria-label="Status"
          value={filters.status}
          onChange={(e) => update({ status: e.target.value })}
        >
          <option value="">Any status</option>
          {facetOptions('status')}
        </select>
        <select
          aria-label="Line"
          value={filters.line}
          onChange={(e) => update({ line: e.target.value })}
        >
          <option value="">Any line</option>
          {facetOptions('line')}
        </select>
        <select
          aria-label="POD"
          value={filters.pod}
          onChange={(e) => update({ pod: e.target.value })}
        >
          <option value="">Any POD</option>
          {facetOptions('pod')}
        </select>
        <select
          aria-label="Terminal"
          value={filters.terminal}
          onChange={(e) => update({ terminal: e.target.value })}
        >
          <option value="">Any terminal</option>
          {facetOptions('terminal')}
        </select>
        <select
          aria-label="Customer"
          value={filters.customer ?? ''}
          onChange={(e) => update({ customer: e.target.value })}
        >
          <option value="">Any customer</option>
          {facetOptions('customer')}
        </select>
        <select
          aria-label="Trucker filter"
          value={filters.trucker ?? ''}
          onChange={(e) => update({ trucker: e.target.value })}
        >
          <option value="">Any trucker</option>
          <option value={TRUCKER_NONE}>No trucker</option>
          {truckers.map((trucker) => (
            <option key={trucker.id} value={trucker.id}>
              {trucker.companyName}
            </option>
          ))}
        </select>
        <select
          aria-label="LFD window"
          value={filters.lfd}
          onChange={(e) => update({ lfd: e.target.value as LfdWindow })}
        >
          {Object.entries(LFD_WINDOWS).map(([id, label]) => (
            <option key={id} value={id}>
              {label}
            </option>
          ))}
        </select>
        <select
          aria-label="Holds"
          value={filters.holds}
          onChange={(e) => update({ holds: e.target.value as Filters['holds'] })}
        >
          <option value="any">Holds: any</option>
          <option value="yes">On hold</option>
          <option value="no">No holds</option>
        </select>
        <select
          aria-label="Readiness"
          value={filters.ready}
          onChange={(e) => update({ ready: e.target.value as Filters['ready'] })}
        >
          <option value="any">Ready: any</option>
          <option value="yes">Ready</option>
          <option value="no">Not ready</option>
        </select>
        <CustomFieldFilters
          fields={shownFields}
          state={customFilterState}
          onChange={setCustomFilterState}
        />
        <label className="inline show-completed">
          <input
            type="checkbox"
            checked={filters.showCompleted === true}
            onChange={(e) => update({ showCompleted: e.target.checked })}
          />
          Show completed
        </label>
        {filtered ? (
          <button
            type="button"
            className="secondary"
            onClick={() => {
              setFilters({
                ...NO_FILTERS,
                view: filters.view,
                showCompleted: filters.showCompleted,
              });
              setCustomFilterState({});
            }}
          >
            Clear filters
          </button>
        ) : null}
      </div>

      <div className="board-meta">
        <span role="status" aria-live="polite" data-testid="board-count">
          {pages.total === null ? 'Loading…' : countOf(pages.total, 'container')}
        </span>
        <CostSummary cost={viewCost.value} />
        {exportState ? <span className="muted">{exportState}</span> : null}
        {bulkMessage ? (
          <span className="muted" role="status" data-testid="bulk-message">
            {bulkMessage}
          </span>
        ) : null}
        <span className="spacer" />
        <details className="columns-menu">
          <summary>Columns</summary>
          <fieldset aria-label="Visible columns">
            {columns.map((def) => (
              <label key={def.id} className="inline">
                <input
                  type="checkbox"
                  checked={tableVisibility[def.id ?? ''] !== false}
                  disabled={def.id === 'number'}
                  onChange={(e) =>
                    setVisibility({ ...visibility, [def.id ?? '']: e.target.checked })
                  }
                />
                {def.meta?.label}
              </label>
            ))}
            <button type="button" className="secondary" onClick={() => setSizing({})}>
              Fit widths to content
            </button>
            <label className="inline">
              <input
                type="checkbox"
                checked={density === 'compact'}
                onChange={(e) => setDensity(e.target.checked ? 'compact' : 'comfortable')}
              />
              Compact rows
            </label>
          </fieldset>
        </details>
        <button type="button" onClick={() => void onExport('csv')}>
          Export CSV
        </button>
        <button type="button" className="secondary" onClick={() => void onExport('xlsx')}>
          Export Excel
        </button>
      </div>

      {selected.size > 0 ? (
        <div className="bulk-bar" role="region" aria-label="Bulk actions">
          <span data-testid="selected-count">{countOf(selected.size, 'container')} selected</span>
          <TruckerAssign
            truckers={truckers}
            target={{ containerIds: [...selected] }}
            label="Assign trucker"
            onAssigned={(message) => {
              setBulkMessage(message);
              setSelected(new Set());
            }}
          />
          <button type="button" className="secondary" onClick={() => setSelected(new Set())}>
            Clear selection
          </button>
        </div>
      ) : null}

      {pages.error ? (
        <p role="alert" className="error-banner">
          Could not load containers: {pages.error}
        </p>
      ) : null}
      {stillLoading(syncStatus) ? <FirstSyncNotice status={syncStatus} /> : null}
      {pages.total === 0 && stillLoading(syncStatus) ? null : pages.total === 0 ? (
        <div className="empty-state">
          <h2>{filtered || filters.view ? 'No containers match' : 'No containers yet'}</h2>
          <p>
            {filtered || filters.view
              ? 'Try another view or clear the filters.'
              : 'Track a container, bill of lading or booking to fill the board.'}
          </p>
        </div>
      ) : (
        <BoardTable
          total={pages.total}
          rowAt={pages.rowAt}
          ensureRange={pages.ensureRange}
          onRowsShown={pages.onRowsShown}
          sort={effectiveSort}
          onSortChange={setSort}
          columnSizing={sizing}
          onColumnSizingChange={setSizing}
          columnVisibility={tableVisibility}
          columns={columns}
          density={density}
          costs={settings?.costs}
          now={now}
          onOpen={onOpen}
          selected={selected}
          onSelect={onSelect}
        />
      )}
    </section>
  );
}
