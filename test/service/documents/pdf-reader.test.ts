/**
 * The PDF reader runs pdf.js on a worker thread: a file that keeps pdf.js busy is ended at the
 * time limit or its heap limit instead of stalling the service, and a bad file never stops the
 * next good one.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { DocumentReadError, PdfTextReader } from '../../../src/service/documents/pdf-text';
import { ARRIVAL, arrivalNotice, corruptPdf } from './generated-pdfs';

const readers: PdfTextReader[] = [];
const reader = (limits?: ConstructorParameters<typeof PdfTextReader>[0]) => {
  const r = new PdfTextReader(limits);
  readers.push(r);
  return r;
};

afterEach(async () => {
  await Promise.all(readers.splice(0).map((r) => r.close()));
});

describe('PDF reader on a worker thread', () => {
  it('reads every page of a text PDF, and a corrupt file does not stop the next one', async () => {
    const pdf = reader();
    const first = await pdf.read(await arrivalNotice());
    expect(first.pageCount).toBe(2);
    expect(first.pages.join('\n')).toContain(ARRIVAL.bl);

    await expect(pdf.read(corruptPdf())).rejects.toThrow(/The PDF could not be read/);
    const again = await pdf.read(await arrivalNotice());
    expect(again.pages.join('\n')).toContain(ARRIVAL.bl);
  });

  it('ends a read that passes its time limit with a plain reason', async () => {
    const pdf = reader({ timeoutMs: 1 });
    const failure = await pdf.read(await arrivalNotice()).catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(DocumentReadError);
    expect((failure as Error).message).toBe('Reading the PDF took longer than 0.001 s');
  });

  it('stops a read that needs more memory than the reader may use', async () => {
    const pdf = reader({ maxHeapMb: 1, timeoutMs: 30_000 });
    await expect(pdf.read(await arrivalNotice())).rejects.toThrow(
      new DocumentReadError('Reading the PDF needs more than 1 MB of memory'),
    );
  });
});
