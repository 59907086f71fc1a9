/**
 * The hostile-PDF stream of bench/document-budget.ts, run in a process of its own as a real
 * client would be: uploads hostile PDFs one after another, each once the one before has been
 * read (its extraction status final), until told to stop; then reports how many were read and
 * how many failed on the budget. Its own work (building and sending each upload, polling) stays
 * off the service's event loop, where the bench measures the API's latency.
 *
 * argv[2]: JSON { baseUrl, apiKey, streams, streamBytes }
 */
import { manyStreamBomb } from '../../test/support/documents/generated-pdfs';

interface UploaderOptions {
  baseUrl: string;
  apiKey: string;
  streams: number;
  streamBytes: number;
}

export interface UploaderReport {
  uploaded: number;
  failed: number;
}

/** Sent once the uploader is about to start: the size of the PDF it sends. */
export interface UploaderReady {
  pdfBytes: number;
}

const options = JSON.parse(process.argv[2]!) as UploaderOptions;
const headers = { Authorization: `Token ${options.apiKey}` };
const hostile = manyStreamBomb(options.streams, options.streamBytes);
let stopped = false;
process.on('message', () => (stopped = true));

/** The document's extraction status once final (extracted or failed), asked every 20 ms. */
async function whenRead(id: string): Promise<string> {
  for (;;) {
    const res = await fetch(`${options.baseUrl}/documents/${id}`, { headers });
    const status = ((await res.json()) as { data: { attributes: { extraction_status: string } } })
      .data.attributes.extraction_status;
    if (status !== 'pending') return status;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const report: UploaderReport = { uploaded: 0, failed: 0 };
process.send!({ pdfBytes: hostile.byteLength } satisfies UploaderReady);
while (!stopped) {
  const form = new FormData();
  // Each one different (this process's id and a count): the same file twice is a duplicate.
  const bytes = Buffer.concat([hostile, Buffer.from(`%${process.pid}-${report.uploaded}\n`)]);
  form.append('file', new Blob([bytes]), `hostile-${report.uploaded}.pdf`);
  const res = await fetch(`${options.baseUrl}/documents`, { method: 'POST', headers, body: form });
  if (res.status !== 201) throw new Error(`upload answered ${res.status}`);
  report.uploaded++;
  const id = ((await res.json()) as { data: { id: string } }).data.id;
  if ((await whenRead(id)) === 'failed') report.failed++;
}
process.send!(report, () => process.disconnect());
