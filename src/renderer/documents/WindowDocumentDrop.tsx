/**
 * Files dropped anywhere on the window (outside a drop zone) are uploaded too, and the Track
 * view opens to show them; without this the browser would navigate away to the dropped file.
 */
import { useEffect } from 'react';
import { navigate, parseRoute } from '../lib/navigation';
import { useDocumentUploads } from './uploads';

const carriesFiles = (event: DragEvent) => event.dataTransfer?.types.includes('Files') ?? false;

export function WindowDocumentDrop() {
  const { addFiles } = useDocumentUploads();
  useEffect(() => {
    const onDragOver = (event: DragEvent) => {
      if (carriesFiles(event)) event.preventDefault();
    };
    const onDrop = (event: DragEvent) => {
      if (!carriesFiles(event)) return;
      event.preventDefault();
      addFiles([...(event.dataTransfer?.files ?? [])]);
      const { view } = parseRoute(window.location.hash);
      if (view !== 'track' && view !== 'documents') navigate('track');
    };
    window.addEventListener('dragover', onDragOver);
    window.addEventListener('drop', onDrop);
    return () => {
      window.removeEventListener('dragover', onDragOver);
      window.removeEventListener('drop', onDrop);
    };
  }, [addFiles]);
  return null;
}
