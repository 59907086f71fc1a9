/**
 * The app's document uploads: files dropped anywhere on the window or picked in the Track and
 * Documents views are checked here (type by content, size), sent through the bridge, then
 * followed until the service has read them. One list for the whole window, so an upload keeps
 * going while the user moves between views.
 */
import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import {
  MAX_DOCUMENT_BYTES,
  sniffDocumentType,
  type DocumentSummary,
} from '../../shared/documents';
import { quayside } from '../bridge';
import { describeFailure } from '../hooks/use-bridge';

export type UploadStage = 'uploading' | 'extracting' | 'done' | 'failed';

export interface Upload {
  key: string;
  fileName: string;
  stage: UploadStage;
  document: DocumentSummary | null;
  error: string | null;
}

interface Uploads {
  uploads: Upload[];
  addFiles(files: readonly File[]): void;
  dismiss(key: string): void;
}

const UploadsContext = createContext<Uploads>({
  uploads: [],
  addFiles: () => undefined,
  dismiss: () => undefined,
});

export const useDocumentUploads = (): Uploads => useContext(UploadsContext);

/** How often, and how long, the view asks for a document's extraction (OCR can take a while). */
const POLL_MS = 1000;
const POLL_LIMIT = 180;

const isFinished = (doc: DocumentSummary) =>
  doc.extractionStatus !== 'pending' && doc.extractionStatus !== 'processing';

export function toBase64(bytes: Uint8Array): string {
  let binary = '';
  // Chunks keep String.fromCharCode under the argument-count limit.
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}

/** Why a file cannot be uploaded, judged before any byte leaves the window; null when it can. */
export function uploadProblem(file: File, head: Uint8Array): string | null {
  if (file.size === 0) return `${file.name} is empty.`;
  if (file.size > MAX_DOCUMENT_BYTES) {
    return `${file.name} is larger than ${MAX_DOCUMENT_BYTES / 1024 / 1024} MB.`;
  }
  if (!sniffDocumentType(head)) {
    // A sheet of numbers has its own drop area on the Track form.
    const sheet = /\.(csv|xlsx)$/i.test(file.name)
      ? ' To track the numbers of a spreadsheet, use Choose spreadsheet… on the Track form.'
      : '';
    return `${file.name} is not a PDF, PNG or JPEG file.${sheet}`;
  }
  return null;
}

let nextKey = 0;

export function DocumentUploadsProvider({ children }: { children: ReactNode }) {
  const [uploads, setUploads] = useState<Upload[]>([]);
  const update = useCallback(
    (key: string, patch: Partial<Upload>) =>
      setUploads((previous) =>
        previous.map((upload) => (upload.key === key ? { ...upload, ...patch } : upload)),
      ),
    [],
  );

  const run = useCallback(
    async (key: string, file: File) => {
      try {
        const bytes = new Uint8Array(await file.arrayBuffer());
        const problem = uploadProblem(file, bytes.subarray(0, 1024));
        if (problem) return update(key, { stage: 'failed', error: problem });
        let doc = await quayside.uploadDocument({
          fileName: file.name.slice(0, 255),
          dataBase64: toBase64(bytes),
        });
        update(key, { stage: isFinished(doc) ? 'done' : 'extracting', document: doc });
        for (let attempt = 0; !isFinished(doc) && attempt < POLL_LIMIT; attempt++) {
          await new Promise((resolve) => window.setTimeout(resolve, POLL_MS));
          doc = (await quayside.getDocument({ id: doc.id, refresh: true })) ?? doc;
        }
        update(key, {
          stage: isFinished(doc) ? 'done' : 'failed',
          document: doc,
          error: isFinished(doc) ? null : 'The service is still reading it; see Documents later.',
        });
      } catch (failure) {
        update(key, { stage: 'failed', error: describeFailure(failure) });
      }
    },
    [update],
  );

  const addFiles = useCallback(
    (files: readonly File[]) => {
      const added = files.map((file) => ({ key: `upload-${nextKey++}`, file }));
      setUploads((previous) => [
        ...added.map(({ key, file }) => ({
          key,
          fileName: file.name,
          stage: 'uploading' as const,
          document: null,
          error: null,
        })),
        ...previous,
      ]);
      // One at a time: the service's request budget is shared with the sync.
      void added.reduce(
        (chain, { key, file }) => chain.then(() => run(key, file)),
        Promise.resolve(),
      );
    },
    [run],
  );

  const dismiss = useCallback(
    (key: string) => setUploads((previous) => previous.filter((upload) => upload.key !== key)),
    [],
  );

  const value = useMemo(() => ({ uploads, addFiles, dismiss }), [uploads, addFiles, dismiss]);
  return <UploadsContext.Provider value={value}>{children}</UploadsContext.Provider>;
}
