import { quayside } from '../bridge';
import { ShipmentDocuments } from '../documents/ShipmentDocuments';
import { LfdCell, notReadyReason } from '../board/columns';
import { useAsync } from '../hooks/use-async';
import { useDataVersion } from '../hooks/data-version';
import { useNow } from '../hooks/use-now';
import { formatDateTime, statusLabel } from '../lib/format';
import { CustomerChargesPanel } from '../charges/CustomerChargesPanel';
import { CustomFieldsPanel } from '../custom-fields/CustomFieldsPanel';
import { TableScroll } from '../components/TableScroll';

export function ShipmentDetailView({ id }: { id: string }) {
  const dataVersion = useDataVersion();
  const now = useNow();
  const detail = useAsync(() => quayside.getShipmentDetail({ id }), id, dataVersion);
  if (detail.error && !detail.value) {
    return (
      <p role="alert" className="error-banner">
        Could not load this shipment: {detail.error}
      </p>
    );
  }
  if (!detail.value) {
    return detail.loading ? (
      <p aria-busy="true">Loading shipment…</p>
    ) : (
      <div className="empty-state">
        <h2>Shipment not found</h2>
      </div>
    );
  }
  const s = detail.value.shipment.attributes;
  return (
    <article className="detail" aria-label={`Shipment ${s.bill_of_lading_number}`}>
      <header className="detail__header">
        <button type="button" className="secondary" onClick={() => window.history.back()}>
          ← Back
        </button>
        <h2 className="detail__title mono">{s.bill_of_lading_number}</h2>
        <span>{s.shipping_line_name ?? '—'}</span>
      </header>
      <dl className="facts">
        <dt>Customer</dt>
        <dd>{s.customer_name ?? '—'}</dd>
        <dt>References</dt>
        <dd>{s.ref_numbers?.join(', ') || '—'}</dd>
        <dt>Tags</dt>
        <dd>{(s.tags ?? []).join(', ') || '—'}</dd>
        <dt>Route</dt>
        <dd>
          {s.port_of_lading_name ?? s.port_of_lading_locode ?? '?'} →{' '}
          {s.port_of_discharge_name ?? s.port_of_discharge_locode ?? '?'}
          {s.destination_name ? ` → ${s.destination_name}` : ''}
        </dd>
        <dt>Vessel / voyage</dt>
        <dd>{[s.pod_vessel_name, s.pod_voyage_number].filter(Boolean).join(' / ') || '—'}</dd>
        <dt>Departed POL</dt>
        <dd>{formatDateTime(s.pol_atd_at ?? s.pol_etd_at, s.pol_timezone)}</dd>
        <dt>{s.pod_ata_at ? 'Arrived POD' : 'ETA POD'}</dt>
        <dd>{formatDateTime(s.pod_ata_at ?? s.pod_eta_at, s.pod_timezone)}</dd>
      </dl>
      <h3>Containers</h3>
      <TableScroll label="Containers of this shipment">
        <table className="data-table" aria-label="Containers of this shipment">
          <thead>
            <tr>
              <th scope="col">Container</th>
              <th scope="col">Status</th>
              <th scope="col">Readiness</th>
              <th scope="col">LFD</th>
            </tr>
          </thead>
          <tbody>
            {detail.value.containers.map((row) => (
              <tr key={row.id}>
                <td>
                  <a href={`#/containers/${encodeURIComponent(row.id)}`} className="mono">
                    {row.number || '—'}
                  </a>
                </td>
                <td>{statusLabel(row.status)}</td>
                <td>{row.ready ? 'Ready' : `Not ready: ${notReadyReason(row)}`}</td>
                <td>
                  <LfdCell row={row} now={now} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
      {s.customer_name ? <CustomerChargesPanel customer={s.customer_name} /> : null}
      <CustomFieldsPanel entityType="shipment" id={id} />
      <ShipmentDocuments shipmentId={id} />
    </article>
  );
}
