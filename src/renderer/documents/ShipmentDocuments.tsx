/** A shipment's documents (linked to it, or naming its bill of lading or containers). */
import { quayside } from '../bridge';
import { useAsync } from '../hooks/use-async';
import { useDataVersion } from '../hooks/data-version';
import { DocumentList } from './DocumentList';

export function ShipmentDocuments({ shipmentId }: { shipmentId: string }) {
  const dataVersion = useDataVersion();
  const documents = useAsync(
    () => quayside.listShipmentDocuments({ shipmentId }),
    shipmentId,
    dataVersion,
  );
  return (
    <section aria-label="Documents of this shipment">
      <h3>Documents</h3>
      {documents.error ? (
        <p role="alert" className="save-state--error">
          {documents.error}
        </p>
      ) : documents.value?.length ? (
        <DocumentList documents={documents.value} label="Documents of this shipment" />
      ) : documents.value ? (
        <p className="help">No documents name this shipment.</p>
      ) : null}
    </section>
  );
}
