import {
  deadlineMissedByAppointment,
  deadlinesThatCount,
  eventHistory,
  hasLeftTerminal,
  holdDescription,
  holdLabel,
  isActiveHold,
  lfdCountdown,
  lfdSourceLabel,
  nextDeadline,
  rowHeadlineDeadline,
  rowPlaceZone,
} from '../../shared/container';
import { useState } from 'react';
import type { BoardRow, ContainerDetail } from '../../shared/desktop';
import { TruckerAssign } from '../board/TruckerAssign';
import { quayside } from '../bridge';
import { LfdCell, ReadinessCell } from '../board/columns';
import { ChargesSection } from '../charges/ChargesSection';
import { useAsync } from '../hooks/use-async';
import { useDataVersion } from '../hooks/data-version';
import { useNow } from '../hooks/use-now';
import {
  STALE_AFTER_MS,
  formatDateTime,
  formatLocalDate,
  formatMoney,
  formatRelative,
  humanize,
  statusLabel,
} from '../lib/format';
import { navigate } from '../lib/navigation';
import { RouteMap } from '../map/RouteMap';
import {
  CustomFieldsPanel,
  RefreshNowButton,
  useOffline,
} from '../custom-fields/CustomFieldsPanel';
import { describeFailure } from '../hooks/use-bridge';

const SOURCE_LABELS: Record<string, string> = {
  shipping_line: 'Shipping line',
  terminal: 'Terminal',
  ais: 'AIS',
};

export function ContainerDetailView({ id }: { id: string }) {
  const dataVersion = useDataVersion();
  const detail = useAsync(() => quayside.getContainerDetail({ id }), id, dataVersion);

  if (detail.error && !detail.value) {
    return (
      <p role="alert" className="error-banner">
        Could not load this container: {detail.error}
      </p>
    );
  }
  if (!detail.value) {
    if (detail.loading) return <p aria-busy="true">Loading container…</p>;
    return (
      <div className="empty-state">
        <h2>Container not found</h2>
        <p>It may have been removed from the cache.</p>
      </div>
    );
  }
  return <Detail detail={detail.value} dataVersion={dataVersion} />;
}

function Detail({ detail, dataVersion }: { detail: ContainerDetail; dataVersion: number }) {
  const now = useNow();
  const { row, container, shipment, holds, fees, events } = detail;
  const a = container.attributes;
  const zone = row.podTimezone;
  // The pickup happens where the box is: at the ramp once it went by rail.
  const pickupZone = rowPlaceZone(row);
  const map = useAsync(
    () => quayside.getRouteMap({ containerId: row.id }),
    `map-${row.id}`,
    dataVersion,
  );
  const itemFees = fees.filter((fee) => fee.type !== 'total');
  const references = [
    ...new Set([...(a.ref_numbers ?? []), ...(shipment?.attributes.ref_numbers ?? [])]),
  ];
  const stale = row.terminalCheckedAt
    ? now - Date.parse(row.terminalCheckedAt) > STALE_AFTER_MS
    : false;

  const s = shipment?.attributes;
  const polZone = s?.pol_timezone;
  const departedPol = a.pol_vessel_departed_at ?? s?.pol_atd_at ?? null;
  // Dates a record may lack (a cache written before they were kept): missing is "not known".
  const keyDates: [string, string | null, string | null | undefined][] = [
    ['Empty out', a.empty_out_at ?? null, polZone],
    ['Full in at POL', a.pol_full_in_at ?? null, polZone],
    ['Loaded at POL', a.pol_vessel_loaded_at ?? null, polZone],
    [departedPol ? 'Departed POL' : 'ETD POL', departedPol ?? s?.pol_etd_at ?? null, polZone],
    ['Original ETD POL', s?.pol_original_etd_at ?? null, polZone],
    [row.ataAt ? 'Arrived POD' : 'ETA POD', row.ataAt ?? row.etaAt, zone],
    ['Discharged', row.dischargedAt, zone],
    ['Pickup appointment', row.pickupAppointmentAt, pickupZone],
    ['Picked up', a.pod_full_out_at, zone],
    [
      s?.destination_ata_at ? 'Arrived destination' : 'Destination ETA',
      s?.destination_ata_at ?? s?.destination_eta_at ?? null,
      s?.destination_timezone,
    ],
    ['Original destination ETA', s?.destination_original_eta_at ?? null, s?.destination_timezone],
    ['Delivered', a.delivered_at ?? null, a.final_destination_timezone ?? zone],
    ['Empty returned', a.empty_terminated_at, a.empty_terminated_timezone],
  ];
  const inlandHolds = a.ind_facility_holds ?? [];
  const inlandFees = a.ind_facility_fees ?? [];

  const history = eventHistory(
    events.map((event) => event.attributes),
    {
      port: { name: row.terminalName ?? row.podName, zone: row.podTimezone },
      ramp: {
        name: row.location.kind === 'terminal' ? null : row.location.name,
        zone: row.destinationTimezone,
      },
    },
  );
  const driving = rowHeadlineDeadline(row);
  const next = nextDeadline(row.deadlines, now, row.location.kind);
  const counting = deadlinesThatCount(row.deadlines, row.location.kind);
  const leftTerminal = hasLeftTerminal(row.status);
  const lateFor = leftTerminal
    ? null
    : deadlineMissedByAppointment(row.pickupAppointmentAt, row.deadlines, row.location.kind);

  return (
    <article className="detail" aria-label={`Container ${row.number}`}>
      <header className="detail__header">
        <button type="button" className="secondary" onClick={() => window.history.back()}>
          ← Back
        </button>
        <h2 className="detail__title mono">{row.number || '—'}</h2>
        <span className={`status status--${row.status}`}>{statusLabel(row.status)}</span>
        <ReadinessCell row={row} />
        <RefreshNowButton containerId={row.id} />
      </header>
      <dl className="facts">
        <dt>Line</dt>
        <dd>
          {shipment?.attributes.shipping_line_name
            ? `${shipment.attributes.shipping_line_name} (${row.lineScac ?? ''})`
            : (row.lineScac ?? '—')}
        </dd>
        <dt>Bill of lading</dt>
        <dd>
          {row.shipmentId ? (
            <a href={`#/shipments/${encodeURIComponent(row.shipmentId)}`} className="mono">
              {row.billOfLading ?? 'Shipment'}
            </a>
          ) : (
            '—'
          )}
        </dd>
        <dt>Customer</dt>
        <dd>{row.customer ?? '—'}</dd>
        <dt>References</dt>
        <dd>{references.length ? references.join(', ') : '—'}</dd>
        <dt>Vessel / voyage</dt>
        <dd>{[row.vessel, row.voyage].filter(Boolean).join(' / ') || '—'}</dd>
        <dt>POD / terminal</dt>
        <dd>
          {[row.podName ?? row.podLocode, row.terminalName].filter(Boolean).join(' · ') || '—'}
        </dd>
        {row.location.kind !== 'terminal' ? (
          <>
            <dt>{row.location.kind === 'rail' ? 'On rail to' : 'At ramp'}</dt>
            <dd>{row.location.name}</dd>
          </>
        ) : null}
        <dt>Equipment</dt>
        <dd>
          {[
            a.equipment_length ? `${a.equipment_length}'` : null,
            a.equipment_type,
            a.equipment_height === 'high_cube' ? 'high cube' : null,
          ]
            .filter(Boolean)
            .join(' ') || '—'}
        </dd>
        <dt>Terminal checked</dt>
        <dd className={stale ? 'stale' : undefined}>
          {row.terminalCheckedAt
            ? `${formatRelative(row.terminalCheckedAt, now)}${stale ? ' (stale)' : ''}`
            : 'never'}
        </dd>
      </dl>

      <div className="detail__grid">
        <section aria-labelledby="dates-heading" className="panel">
          <h3 id="dates-heading">Key dates</h3>
          <table className="simple">
            <tbody>
              {keyDates
                .filter(([, value]) => value)
                .map(([label, value, tz]) => (
                  <tr key={label}>
                    <th scope="row">{label}</th>
                    <td>{formatDateTime(value, tz)}</td>
                  </tr>
                ))}
            </tbody>
          </table>
          {driving ? (
            <p>
              <LfdCell row={row} now={now} />
            </p>
          ) : null}
          {lateFor ? (
            <p role="alert" className="error-banner">
              The pickup appointment ({formatDateTime(row.pickupAppointmentAt, pickupZone)}) is
              after free time ends ({lfdSourceLabel(lateFor.source)}{' '}
              {formatLocalDate(lateFor.date, lateFor.zone)}).
            </p>
          ) : null}
        </section>

        <section aria-labelledby="deadlines-heading" className="panel">
          <h3 id="deadlines-heading">Import deadlines</h3>
          {row.deadlines.length ? (
            <table className="simple" aria-label="Last free days">
              <tbody>
                {row.deadlines.map((d) => {
                  const past = now >= d.endsAt;
                  return (
                    <tr
                      key={d.source ?? 'lfd'}
                      className={d === driving ? 'binding' : undefined}
                      data-testid="deadline"
                    >
                      <th scope="row">{lfdSourceLabel(d.source)}</th>
                      <td>
                        {formatLocalDate(d.date, d.zone)}{' '}
                        <span className="muted small">({d.zone})</span>{' '}
                        <span className={past ? 'lfd--overdue' : undefined}>
                          {leftTerminal ? '' : lfdCountdown(d.date, d.zone, now)}
                        </span>
                        {leftTerminal ? null : d === driving && past ? (
                          <span className="chip chip--danger">Passed, charges running</span>
                        ) : d === next ? (
                          <span className="chip chip--warn">
                            {d === driving ? 'Acts first' : 'Next deadline'}
                          </span>
                        ) : past ? (
                          <span className="chip chip--muted">Passed</span>
                        ) : null}
                        {counting.includes(d) ? null : (
                          <span className="muted small"> (no longer counts here)</span>
                        )}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          ) : (
            <p className="muted">No last free day reported.</p>
          )}
          <p className="muted small">Free time runs through the end of each day, in its zone.</p>
        </section>

        <section aria-labelledby="holds-heading" className="panel">
          <h3 id="holds-heading">Holds and fees</h3>
          {holds.length ? (
            <ul className="chips" aria-label="Holds">
              {holds.map((hold) => (
                <li
                  key={hold.name}
                  className={`chip ${isActiveHold(hold) ? 'chip--danger' : 'chip--warn'}`}
                  title={hold.description ?? holdDescription(hold.name)}
                >
                  {holdLabel(hold.name)}
                  {isActiveHold(hold) ? '' : ' (pending)'}
                </li>
              ))}
            </ul>
          ) : (
            <p className="muted">No holds.</p>
          )}
          {holds.length ? (
            <ul className="hold-notes small">
              {holds.map((hold) => (
                <li key={hold.name}>
                  <strong>{holdLabel(hold.name)}</strong>: {holdDescription(hold.name)}
                  {hold.description ? <span className="muted"> ({hold.description})</span> : null}
                </li>
              ))}
            </ul>
          ) : null}
          {itemFees.length ? (
            <table className="simple">
              <tbody>
                {itemFees.map((fee, index) => (
                  <tr key={`${fee.type}-${index}`}>
                    <th scope="row">{humanize(fee.type)}</th>
                    <td className="num">{formatMoney(fee.amount, fee.currency_code)}</td>
                  </tr>
                ))}
                <tr>
                  <th scope="row">Total</th>
                  <td className="num strong">{formatMoney(row.feesAmount, row.feesCurrency)}</td>
                </tr>
              </tbody>
            </table>
          ) : (
            <p className="muted">No fees.</p>
          )}
        </section>
      </div>

      {inlandHolds.length || inlandFees.length ? (
        <section aria-labelledby="inland-heading" className="panel">
          <h3 id="inland-heading">Rail facility holds and fees</h3>
          {inlandHolds.length ? (
            <ul className="chips" aria-label="Rail facility holds">
              {inlandHolds.map((hold, index) => (
                <li
                  key={`${hold.name}-${index}`}
                  className="chip chip--danger"
                  title={hold.description ?? holdDescription(hold.name)}
                >
                  {holdLabel(hold.name)}
                  {hold.status && hold.status !== 'hold' ? ` (${humanize(hold.status)})` : ''}
                </li>
              ))}
            </ul>
          ) : (
            <p className="muted">No holds at the rail facility.</p>
          )}
          {inlandFees.length ? (
            <table className="simple" aria-label="Rail facility fees">
              <tbody>
                {inlandFees.map((fee, index) => (
                  <tr key={`${fee.type ?? fee.description ?? 'fee'}-${index}`}>
                    <th scope="row">{humanize(fee.type ?? fee.description ?? 'fee')}</th>
                    <td className="num">{formatMoney(fee.amount, fee.currency_code ?? null)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : null}
        </section>
      ) : null}

      <TruckerPanel row={row} dataVersion={dataVersion} />

      <ChargesSection containerId={row.id} dataVersion={dataVersion} />

      <CustomFieldsPanel entityType="container" id={row.id} />

      <section aria-labelledby="map-heading" className="panel">
        <h3 id="map-heading">Route</h3>
        {map.error ? (
          <p role="alert" className="error-banner">
            Could not load the route: {map.error}
          </p>
        ) : map.value && map.value.geojson.features.length === 0 ? (
          <div className="route-map__placeholder">
            The tracking service has no route for this container yet.
          </div>
        ) : map.value ? (
          <>
            <RouteMap key={row.id} geojson={map.value.geojson} />
            <p className="muted small">Route as of {formatDateTime(map.value.fetchedAt)}</p>
          </>
        ) : map.loading ? (
          <div className="route-map__placeholder" aria-busy="true">
            Loading route…
          </div>
        ) : (
          <div className="route-map__placeholder">No route map for this container yet.</div>
        )}
      </section>

      <section aria-labelledby="events-heading" className="panel">
        <h3 id="events-heading">Events</h3>
        {history.length ? (
          <ol className="timeline" aria-label="Event timeline">
            {history.map(({ event, label, estimated, place, zone: eventZone }, index) => (
              <li
                key={`${index}-${event.timestamp ?? ''}`}
                className={
                  estimated ? 'timeline__item timeline__item--estimated' : 'timeline__item'
                }
                data-testid="timeline-event"
                data-at={event.timestamp ?? undefined}
              >
                <span className="timeline__when">{formatDateTime(event.timestamp, eventZone)}</span>
                <span className="timeline__what">
                  {label}
                  <span className={`chip ${estimated ? 'chip--muted' : 'chip--ok'}`}>
                    {estimated ? 'Estimated' : 'Actual'}
                  </span>
                </span>
                <span className="timeline__where muted">
                  {place}
                  {event.voyage_number ? ` · voyage ${event.voyage_number}` : ''}
                  {event.data_source
                    ? ` · ${SOURCE_LABELS[event.data_source] ?? event.data_source}`
                    : ''}
                </span>
              </li>
            ))}
          </ol>
        ) : (
          <p className="muted">No events yet.</p>
        )}
      </section>
      <p>
        <button type="button" className="secondary" onClick={() => navigate('alerts', row.id)}>
          Alerts for this container
        </button>
      </p>
    </article>
  );
}

/** The box's trucker: shown, and assigned for this box or every box of its shipment. */
function TruckerPanel({ row, dataVersion }: { row: BoardRow; dataVersion: number }) {
  const truckers = useAsync(() => quayside.listTruckers(), 'truckers', dataVersion);
  const [wholeShipment, setWholeShipment] = useState(false);
  const list = truckers.value ?? [];
  const assigned = list.find((t) => t.id === row.truckerId);
  const contact = assigned?.contacts[0];
  return (
    <section aria-labelledby="trucker-heading" className="panel">
      <h3 id="trucker-heading">Trucker</h3>
      <p data-testid="detail-trucker">
        {assigned
          ? `${assigned.companyName}${assigned.scac ? ` (${assigned.scac})` : ''}`
          : row.truckerId
            ? 'Assigned to a trucker this desktop has not synced yet'
            : 'No trucker assigned'}
        {contact
          ? ` · ${[contact.name, contact.email, contact.phone].filter(Boolean).join(', ')}`
          : ''}
      </p>
      {/* The choice starts from what is assigned when the panel opens; the outcome stays shown. */}
      <TruckerAssign
        key={String(wholeShipment)}
        truckers={list}
        current={row.truckerId}
        target={
          wholeShipment && row.shipmentId
            ? { shipmentId: row.shipmentId }
            : { containerIds: [row.id] }
        }
      />
      {row.shipmentId ? (
        <label className="inline">
          <input
            type="checkbox"
            checked={wholeShipment}
            onChange={(e) => setWholeShipment(e.target.checked)}
          />
          Every container of this shipment
        </label>
      ) : null}
      <DeliveryOrderButton containerId={row.id} assigned={Boolean(row.truckerId)} />
    </section>
  );
}

/**
 * Makes the delivery order for the assigned trucker: kept as a document of the shipment and
 * emailed to the trucker when the service has an outgoing mail server; else saved and opened
 * (browser mode: offered as a download) for the user to send.
 */
function DeliveryOrderButton({
  containerId,
  assigned,
}: {
  containerId: string;
  assigned: boolean;
}) {
  const offline = useOffline();
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<{
    text: string;
    failed: boolean;
    download?: { url: string; fileName: string };
  } | null>(null);
  const make = async () => {
    setBusy(true);
    setOutcome(null);
    try {
      const made = await quayside.makeDeliveryOrder({ containerId });
      if (!made.ok) setOutcome({ text: made.message, failed: true });
      else {
        setOutcome({
          text: `Delivery order ${made.fileName} kept with the shipment's documents. ${made.message}`,
          failed: false,
          ...(made.open.opened
            ? {}
            : { download: { url: made.open.url, fileName: made.fileName } }),
        });
      }
    } catch (failure) {
      setOutcome({ text: describeFailure(failure), failed: true });
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="inline">
      <button
        type="button"
        onClick={() => void make()}
        disabled={busy || offline || !assigned}
        title={
          !assigned
            ? 'Assign a trucker first'
            : offline
              ? 'The tracking service is offline'
              : undefined
        }
      >
        {busy ? 'Making delivery order…' : 'Make delivery order'}
      </button>
      {outcome ? (
        <span
          role={outcome.failed ? 'alert' : 'status'}
          className={outcome.failed ? 'error' : ''}
          data-testid="delivery-order-outcome"
        >
          {outcome.text}{' '}
          {outcome.download ? (
            <a href={outcome.download.url} download={outcome.download.fileName}>
              Download {outcome.download.fileName}
            </a>
          ) : null}
        </span>
      ) : null}
    </div>
  );
}
