/**
 * Where documents come in: a drop target with a file picker, and the uploads in progress, each
 * with its extraction once the service has read it.
 */
import { useCallback } from 'react';
import { quayside } from '../bridge';
import { DropZone } from '../components/DropZone';
import { useBridgeValue } from '../hooks/use-bridge';
import { ExtractionPanel, documentTypeLabel } from './ExtractionPanel';
import { useDocumentUploads, type Upload } from './uploads';

const STAGE_TEXT: Record<Upload['stage'], string> = {
  uploading: 'Uploading…',
  extracting: 'Reading the document…',
  done: 'Read',
  failed: 'Failed',
};

export function DocumentDropZone() {
  const { uploads, addFiles, dismiss } = useDocumentUploads();
  const loadSyncStatus = useCallback(() => quayside.getSyncStatus(), []);
  const offline = useBridgeValue(loadSyncStatus, 'syncStatus').value?.state === 'offline';
  return (
    <section className="panel drop-panel" aria-label="Documents to track">
      <DropZone
        testId="document-drop-zone"
        buttonText="Choose files…"
        pickerLabel="Choose documents"
        accept="application/pdf,image/png,image/jpeg,.pdf,.png,.jpg,.jpeg"
        multiple
        onFiles={addFiles}
        status={
          offline ? (
            <p role="status" className="save-state--error">
              The tracking service is offline: uploads will be refused until it is back. Documents
              already synced still open.
            </p>
          ) : null
        }
      >
        <p>
          Drop arrival notices, bills of lading or booking confirmations here (PDF, PNG or JPEG):
          their numbers are read for you.
        </p>
      </DropZone>
      {uploads.length ? (
        <ul className="uploads">
          {uploads.map((upload) => (
            <li key={upload.key} data-testid="document-upload">
              <div className="uploads__head">
                <strong>{upload.fileName}</strong>{' '}
                {upload.stage === 'uploading' || upload.stage === 'extracting' ? (
                  <progress aria-label={`${upload.fileName}: ${STAGE_TEXT[upload.stage]}`} />
                ) : null}
                <span role="status">
                  {upload.stage === 'done' && upload.document
                    ? documentTypeLabel(upload.document)
                    : STAGE_TEXT[upload.stage]}
                </span>
                {upload.stage === 'done' || upload.stage === 'failed' ? (
                  <button type="button" className="secondary" onClick={() => dismiss(upload.key)}>
                    Dismiss
                  </button>
                ) : null}
              </div>
              {upload.error ? (
                <p role="alert" className="save-state--error">
                  {upload.error}
                </p>
              ) : null}
              {upload.stage === 'done' && upload.document ? (
                <ExtractionPanel document={upload.document} />
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
