/**
 * The document reader's process (started by document-reader.ts): everything that reads a
 * document's content runs here, off the service's thread and out of its heap. The compressed
 * streams are counted against the budget, then pdf.js reads the text, and pages without text
 * (and images) go to tesseract.js. Whatever pdf.js or tesseract print goes to this process's
 * stdout/stderr, which the service reads into its logger.
 *
 * Messages in: ReadRequest. Out: ReadReply (one per request), and on a pipe of its own this
 * process's CPU time (process-cpu.ts), which the reader's time limit counts.
 */
import { DocumentReadError } from './budget';
import type { DocumentText, ReadReply, ReadRequest } from './document-reader';
import { grayscalePgm, TesseractOcr } from './ocr';
import { checkInflatedSize } from './pdf-streams';
import { readPdfText } from './pdf-text';
import { reportCpuTime } from './process-cpu';

if (!process.send) throw new Error('document-worker runs as a child process with an IPC channel');

// The reader's time limit counts the CPU time this reports, however busy this thread is.
reportCpuTime();

const ocr = new TesseractOcr();

async function read({ contentType, bytes: received, budget }: ReadRequest): Promise<DocumentText> {
  // A Buffer crosses the channel as a Buffer; pdf.js takes only a plain Uint8Array.
  const bytes = new Uint8Array(received.buffer, received.byteOffset, received.byteLength);
  if (contentType === 'application/pdf') {
    await checkInflatedSize(bytes, budget.maxInflatedBytes);
    const { pages, scans } = await readPdfText(bytes, budget);
    if (pages.some((p) => p.trim().length > 20)) return { method: 'text', pages };
    // No text layer: a scan. Read each page's image by OCR.
    const images = scans.flatMap((s) => (s ? [grayscalePgm(s)] : []));
    if (images.length === 0) throw new DocumentReadError('The PDF has neither text nor images');
    const read = await ocr.read(images, budget.maxOcrPixels);
    return {
      method: 'ocr',
      pages: read.map((p) => p.text),
      pageConfidence: read.map((p) => p.confidence),
    };
  }
  const [page] = await ocr.read([bytes], budget.maxOcrPixels);
  return { method: 'ocr', pages: [page?.text ?? ''], pageConfidence: [page?.confidence ?? 0] };
}

const reply = (message: ReadReply) => process.send!(message);

process.on('message', (request: ReadRequest) => {
  read(request).then(
    (result) => reply({ id: request.id, result }),
    (err: unknown) =>
      reply({
        id: request.id,
        error:
          err instanceof DocumentReadError
            ? err.message
            : `The document could not be read: ${err instanceof Error ? err.message : String(err)}`,
      }),
  );
});
// The service went away: so does its reader.
process.on('disconnect', () => process.exit(0));
