/**
 * Runs pdf.js (through unpdf) on a worker thread. A hostile or broken PDF can keep pdf.js busy
 * in synchronous code for minutes or grow its heap without bound; on the service's own thread
 * that would stall every API request. Here the worker has a heap limit, and a read that passes
 * its time limit is ended by terminating the worker (a fresh one serves the next document).
 *
 * The worker is kept between documents (pdf.js takes a moment to load) and does not hold the
 * process open.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** What the worker sends back for one PDF. */
export interface WorkerPdfResult {
  pageCount: number;
  pages: string[];
  scans: ({ data: Uint8ClampedArray; width: number; height: number; channels: number } | null)[];
}

type WorkerReply = { id: number; result: WorkerPdfResult } | { id: number; error: string };

// CommonJS source evaluated in the worker: it loads unpdf by its resolved path, so it works the
// same from source (tsx) and from the bundled service process.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { getDocumentProxy, extractText, extractImages } = require(workerData.unpdf);

async function read(bytes, maxPages, maxOcrPages) {
  let pdf;
  try {
    pdf = await getDocumentProxy(bytes, { isEvalSupported: false });
  } catch (err) {
    throw new Error('The PDF could not be read: ' + err.message);
  }
  try {
    const pageCount = pdf.numPages;
    const { text } = await extractText(pdf, { mergePages: false });
    const pages = [];
    const scans = [];
    for (let i = 0; i < Math.min(pageCount, maxPages); i++) {
      pages.push(text[i] || '');
      let scan = null;
      // A page without text is a scan: keep its largest image for OCR.
      if (!(text[i] || '').trim() && i < maxOcrPages) {
        for (const image of await extractImages(pdf, i + 1)) {
          if (!scan || image.width * image.height > scan.width * scan.height) scan = image;
        }
      }
      scans.push(scan);
    }
    return { pageCount, pages, scans };
  } catch (err) {
    throw new Error('The PDF could not be read: ' + err.message);
  } finally {
    await pdf.destroy();
  }
}

parentPort.on('message', ({ id, bytes, maxPages, maxOcrPages }) => {
  read(bytes, maxPages, maxOcrPages).then(
    (result) => {
      const transfer = result.scans.filter(Boolean).map((s) => s.data.buffer);
      parentPort.postMessage({ id, result }, transfer);
    },
    (err) => parentPort.postMessage({ id, error: err.message }),
  );
});
`;

const unpdfPath = createRequire(import.meta.url).resolve('unpdf');

export class PdfReadFailure extends Error {}

export interface PdfWorkerLimits {
  timeoutMs: number;
  maxPages: number;
  maxOcrPages: number;
  /** Heap the worker may grow to. */
  maxHeapMb: number;
}

export class PdfWorker {
  private worker: Worker | null = null;
  private nextId = 1;
  private pending = new Map<
    number,
    { resolve: (r: WorkerPdfResult) => void; reject: (e: Error) => void }
  >();

  constructor(private readonly limits: PdfWorkerLimits) {}

  private start(): Worker {
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { unpdf: unpdfPath },
      resourceLimits: { maxOldGenerationSizeMb: this.limits.maxHeapMb },
    });
    worker.unref();
    worker.on('message', (reply: WorkerReply) => {
      const waiter = this.pending.get(reply.id);
      if (!waiter) return;
      this.pending.delete(reply.id);
      if ('error' in reply) waiter.reject(new PdfReadFailure(reply.error));
      else waiter.resolve(reply.result);
    });
    const fail = (reason: string) => {
      if (this.worker === worker) this.worker = null;
      for (const waiter of this.pending.values()) waiter.reject(new PdfReadFailure(reason));
      this.pending.clear();
    };
    worker.on('error', (err: NodeJS.ErrnoException) =>
      fail(
        err.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? `Reading the PDF needs more than ${this.limits.maxHeapMb} MB of memory`
          : `The PDF could not be read: ${err.message}`,
      ),
    );
    worker.on('exit', () => fail('The PDF reader stopped before it finished'));
    return worker;
  }

  /** Reads one PDF; rejects with PdfReadFailure on a bad file, the time limit or the heap limit. */
  read(bytes: Uint8Array): Promise<WorkerPdfResult> {
    this.worker ??= this.start();
    const worker = this.worker;
    const id = this.nextId++;
    return new Promise<WorkerPdfResult>((resolve, reject) => {
      const timer = setTimeout(() => {
        if (!this.pending.delete(id)) return;
        reject(
          new PdfReadFailure(`Reading the PDF took longer than ${this.limits.timeoutMs / 1000} s`),
        );
        // The only way to stop synchronous pdf.js work; the next read starts a fresh worker.
        if (this.worker === worker) this.worker = null;
        void worker.terminate();
      }, this.limits.timeoutMs);
      timer.unref();
      this.pending.set(id, {
        resolve: (r) => {
          clearTimeout(timer);
          resolve(r);
        },
        reject: (e) => {
          clearTimeout(timer);
          reject(e);
        },
      });
      // A copy: the caller keeps its bytes.
      worker.postMessage({
        id,
        bytes: new Uint8Array(bytes),
        maxPages: this.limits.maxPages,
        maxOcrPages: this.limits.maxOcrPages,
      });
    });
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    await worker?.terminate();
  }
}
