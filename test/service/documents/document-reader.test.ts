/**
 * The document reader runs pdf.js and OCR in a child process, within one budget per document: a
 * file over its budget (inflated bytes, pages, time, memory) fails with a plain reason and its
 * process is ended, and a bad file never stops the next good one. What pdf.js prints reaches the
 * logger, never the service's own stdout/stderr.
 */
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  DEFAULT_DOCUMENT_BUDGET,
  DocumentReadError,
  type DocumentBudget,
} from '../../../src/service/documents/budget';
import { DocumentReader, type ReaderLogger } from '../../../src/service/documents/document-reader';
import {
  ARRIVAL,
  arrivalNotice,
  corruptPdf,
  manyStreamBomb,
} from '../../support/documents/generated-pdfs';
import { canPinToOneCpu, pinToCpu0, spinOnCpu0 } from '../../support/one-cpu';

const readers: DocumentReader[] = [];
const reader = (budget: Partial<DocumentBudget> = {}, logger?: ReaderLogger) => {
  const r = new DocumentReader({ ...DEFAULT_DOCUMENT_BUDGET, ...budget }, logger);
  readers.push(r);
  return r;
};
const PDF = 'application/pdf';

const spinners: ChildProcess[] = [];

afterEach(async () => {
  for (const spinner of spinners.splice(0)) spinner.kill('SIGKILL');
  vi.restoreAllMocks();
  await Promise.all(readers.splice(0).map((r) => r.close()));
});

const isRunning = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function until(condition: () => boolean, limitMs = 20_000): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > limitMs) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A text PDF of `count` pages. */
async function manyPages(count: number): Promise<Uint8Array> {
  const pages = await PDFDocument.create();
  const font = await pages.embedFont(StandardFonts.Helvetica);
  for (let page = 0; page < count; page++) {
    pages.addPage().drawText(`Page ${page} ${ARRIVAL.bl}`, { x: 50, y: 700, size: 12, font });
  }
  return pages.save();
}

/** CPU time a process has used (Linux's /proc/<pid>/stat, user and system, in 1/100 s). */
function processCpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** The CPU time a started reader spends reading `document`, all its threads counted. */
async function readCpuMs(document: Uint8Array): Promise<number> {
  const probe = reader({ timeoutMs: 120_000, maxPages: 1_000 });
  await probe.read(PDF, await arrivalNotice());
  const before = processCpuMs(probe.pid!);
  await probe.read(PDF, document);
  return processCpuMs(probe.pid!) - before;
}

describe('document reader in its own process', () => {
  it('reads every page of a text PDF, out of the service process, and a corrupt file does not stop the next one', async () => {
    const documents = reader();
    const first = await documents.read(PDF, await arrivalNotice());
    expect(first.method).toBe('text');
    expect(first.pages).toHaveLength(2);
    expect(first.pages.join('\n')).toContain(ARRIVAL.bl);
    expect(documents.pid).toBeDefined();
    expect(documents.pid).not.toBe(process.pid);

    await expect(documents.read(PDF, corruptPdf())).rejects.toThrow(/The PDF could not be read/);
    const again = await documents.read(PDF, await arrivalNotice());
    expect(again.pages.join('\n')).toContain(ARRIVAL.bl);
  });

  it('fails a PDF whose streams together pass the inflated-bytes budget, and ends its process', async () => {
    const documents = reader({ maxInflatedBytes: 64 * 1024 * 1024 });
    await documents.read(PDF, await arrivalNotice());
    const pid = documents.pid!;
    await expect(documents.read(PDF, manyStreamBomb(15, 8 * 1024 * 1024))).rejects.toThrow(
      new DocumentReadError(
        "The PDF's compressed streams expand beyond 64 MB together; the file looks like a compression bomb",
      ),
    );
    // The process that held the hostile file is gone; the next document gets a fresh one.
    await until(() => !isRunning(pid));
    const next = await documents.read(PDF, await arrivalNotice());
    expect(next.pages.join('\n')).toContain(ARRIVAL.bl);
    expect(documents.pid).not.toBe(pid);
  });

  it('fails a PDF with more pages than the budget', async () => {
    const pdf = await PDFDocument.create();
    for (let i = 0; i < 4; i++) pdf.addPage();
    await expect(reader({ maxPages: 3 }).read(PDF, await pdf.save())).rejects.toThrow(
      new DocumentReadError('The PDF has 4 pages; documents may have at most 3'),
    );
  });

  it('ends a read that passes its time limit with a plain reason', async () => {
    const failure = await reader({ timeoutMs: 1 })
      .read(PDF, await arrivalNotice())
      .catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(DocumentReadError);
    // A limit this short ends in its CPU time or, first, at five times it in wall time.
    expect((failure as Error).message).toMatch(
      /^Reading the document took longer than (0\.001 s of processing time|0\.005 s)$/,
    );
  });

  it('ends a read that keeps the reader busy past its limit, counted in processing time', async () => {
    // Starting the reader and reading 800 pages costs it well over a second of CPU.
    const failure = await reader({ timeoutMs: 300, maxPages: 1_000 })
      .read(PDF, await manyPages(800))
      .catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(DocumentReadError);
    expect((failure as Error).message).toBe(
      'Reading the document took longer than 0.3 s of processing time',
    );
  });

  it.skipIf(process.platform !== 'linux')(
    'lets a read kept off the CPU past its limit finish: the limit is CPU time',
    async () => {
      const documents = reader({ timeoutMs: 5_000 });
      const reading = documents.read(PDF, await arrivalNotice());
      // The reader is held still (as a machine too busy to run it would) for longer than its limit.
      process.kill(documents.pid!, 'SIGSTOP');
      await new Promise((resolve) => setTimeout(resolve, 5_500));
      process.kill(documents.pid!, 'SIGCONT');
      const text = await reading;
      expect(text.pages.join(' ')).toContain(ARRIVAL.bl);
    },
  );

  it.skipIf(!canPinToOneCpu)(
    'lets a read that only waits for a CPU past five times its limit finish',
    async () => {
      const document = await manyPages(150);
      // The limit is three times the CPU the read costs on this machine, and a second at least:
      // on a host slower than the one the test was written on, a fixed limit of a second made
      // the read's own work exceed it.
      const limitMs = Math.max(1_000, 3 * (await readCpuMs(document)));
      const documents = reader({ timeoutMs: limitMs, maxPages: 200 });
      await documents.read(PDF, await arrivalNotice());
      // The reader shares one CPU with a program that keeps it busy, as on a machine busy with
      // other work: at the lowest priority it waits for that CPU nearly all the time, for
      // longer than five times its limit.
      const busy = await spinOnCpu0((spinner) => spinners.push(spinner));
      pinToCpu0(documents.pid!);
      const reading = documents.read(PDF, document);
      await new Promise((resolve) => setTimeout(resolve, 5 * limitMs + 500));
      busy.kill('SIGKILL');
      const text = await reading;
      expect(text.pages).toHaveLength(150);
    },
    // Three reads at the lowest priority: beside a full test run on two cores, about two minutes.
    300_000,
  );

  it.skipIf(process.platform !== 'linux')(
    'ends a reader that does no work at five times its limit in wall time',
    async () => {
      const documents = reader({ timeoutMs: 100 });
      const reading = documents.read(PDF, await arrivalNotice()).catch((err: unknown) => err);
      const pid = documents.pid!;
      process.kill(pid, 'SIGSTOP');
      const failure = await reading;
      expect(failure).toBeInstanceOf(DocumentReadError);
      expect((failure as Error).message).toBe('Reading the document took longer than 0.5 s');
      await vi.waitFor(() => expect(isRunning(pid)).toBe(false), { timeout: 10_000 });
    },
  );

  it(
    'stops a read that needs more memory than the reader may use',
    async () => {
      // Each stream alone fits the inflated-bytes budget; pdf.js holding them all does not fit
      // 16 MB.
      const documents = reader({ maxHeapMb: 16, maxInflatedBytes: 2 ** 40 });
      await expect(documents.read(PDF, manyStreamBomb(20, 32 * 1024 * 1024))).rejects.toThrow(
        new DocumentReadError('Reading the document needs more than 16 MB of memory'),
      );
    },
    // About a second of the reader's CPU; at the lowest priority, beside programs that keep
    // every core busy, it gets well under 1% of a core.
    300_000,
  );

  it('ends its process when idle, so the memory it grew goes back', async () => {
    const documents = reader({ idleMs: 50 });
    await documents.read(PDF, await arrivalNotice());
    const pid = documents.pid!;
    await until(() => documents.pid === undefined && !isRunning(pid));
  });

  it("sends what pdf.js prints to the logger, never to the service's stdout or stderr", async () => {
    const written: string[] = [];
    for (const stream of [process.stdout, process.stderr]) {
      const write = stream.write.bind(stream);
      vi.spyOn(stream, 'write').mockImplementation(((chunk: string | Uint8Array, ...rest: []) => {
        written.push(String(chunk));
        return write(chunk, ...rest);
      }) as typeof stream.write);
    }
    const logged: string[] = [];
    const documents = reader(
      {},
      { debug: (_obj, msg) => logged.push(msg ?? ''), warn: (_obj, msg) => logged.push(msg ?? '') },
    );
    // A PDF whose cross-reference table is broken makes pdf.js warn while it rebuilds it.
    const damaged = Buffer.from(await arrivalNotice());
    const xref = damaged.lastIndexOf('startxref');
    damaged.write('999999', xref + 'startxref\n'.length, 'latin1');
    await documents.read(PDF, damaged).catch(() => {});
    await expect(documents.read(PDF, corruptPdf())).rejects.toThrow(DocumentReadError);
    expect(logged).toContain('document reader: Warning: Indexing all PDF objects');
    expect(written.filter((line) => /warning|pdf/i.test(line))).toEqual([]);
  });
});
