/**
 * Every document of the account, uploaded here or emailed to the account's address, with the
 * same drop zone and extraction panel as the Track view.
 */
import { useState } from 'react';
import { quayside } from '../bridge';
import { DocumentDropZone } from '../documents/DocumentDropZone';
import { DocumentList } from '../documents/DocumentList';
import { ExtractionPanel } from '../documents/ExtractionPanel';
import { useDocumentUploads } from '../documents/uploads';
import { useAsync } from '../hooks/use-async';
import { useDataVersion } from '../hooks/data-version';

export function DocumentsView() {
  const dataVersion = useDataVersion();
  const { uploads } = useDocumentUploads();
  const finished = uploads.filter((u) => u.stage === 'done').length;
  const list = useAsync(() => quayside.listDocuments(), 'documents', `${dataVersion}-${finished}`);
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const selected = list.value?.rows.find((doc) => doc.id === selectedId) ?? null;

  return (
    <section aria-label="Documents">
      <DocumentDropZone />
      {list.error ? (
        <p role="alert" className="error-banner">
          Could not list documents: {list.error}
        </p>
      ) : null}
      {list.value?.rows.length ? (
        <DocumentList
          documents={list.value.rows}
          label="Documents"
          selectedId={selectedId}
          onSelect={setSelectedId}
        />
      ) : list.value ? (
        <div className="empty-state">
          <h2>No documents yet</h2>
          <p>Drop a PDF above, or email one to your account&apos;s address.</p>
        </div>
      ) : null}
      {selected ? (
        <section className="panel" aria-label={`Extraction of ${selected.name}`}>
          <h2>{selected.name}</h2>
          <ExtractionPanel key={selected.id} document={selected} />
        </section>
      ) : null}
    </section>
  );
}
