/**
 * Documents as a table: name, type, how it arrived (an email's sender and subject), what was
 * read, and an Open button for the cached file (works offline once synced).
 */
import { useState } from 'react';
import type { DocumentSummary } from '../../shared/documents';
import { describeFailure } from '../hooks/use-bridge';
import { formatDateTime } from '../lib/format';
import { documentTypeLabel } from './ExtractionPanel';
import { openDocument } from './open-document';
import { TableScroll } from '../components/TableScroll';

export function DocumentList({
  documents,
  label,
  selectedId,
  onSelect,
}: {
  documents: readonly DocumentSummary[];
  label: string;
  selectedId?: string | null;
  onSelect?: (id: string) => void;
}) {
  const [error, setError] = useState<string | null>(null);
  const open = (id: string) => {
    setError(null);
    openDocument(id).catch((failure: unknown) => setError(describeFailure(failure)));
  };
  return (
    <>
      {error ? (
        <p role="alert" className="save-state--error">
          {error}
        </p>
      ) : null}
      <TableScroll label={label}>
        <table className="data-table" aria-label={label}>
          <thead>
            <tr>
              <th scope="col">Document</th>
              <th scope="col">Type</th>
              <th scope="col">Arrived</th>
              <th scope="col">Numbers</th>
              <th scope="col">File</th>
            </tr>
          </thead>
          <tbody>
            {documents.map((doc) => (
              <tr
                key={doc.id}
                data-testid="document-row"
                aria-selected={selectedId === doc.id ? true : undefined}
              >
                <td>
                  {onSelect ? (
                    <button type="button" className="link" onClick={() => onSelect(doc.id)}>
                      {doc.name}
                    </button>
                  ) : (
                    doc.name
                  )}
                </td>
                <td>{documentTypeLabel(doc)}</td>
                <td>
                  {formatDateTime(doc.createdAt)}
                  {doc.email ? (
                    <div className="help">
                      By email from {doc.email.from || 'unknown sender'}: “{doc.email.subject}”
                    </div>
                  ) : null}
                </td>
                <td>
                  {doc.extractionStatus === 'failed'
                    ? 'Could not be read'
                    : doc.numbers.filter((n) => !n.problem).length}
                </td>
                <td>
                  <button
                    type="button"
                    className="secondary"
                    disabled={!doc.fileCached}
                    title={
                      doc.fileCached ? undefined : 'Not downloaded yet: the next sync fetches it.'
                    }
                    onClick={() => open(doc.id)}
                  >
                    Open
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
    </>
  );
}
