/**
 * Reads documents in a child process (document-worker.ts), one document at a time per reader.
 * A process, not a thread: pdf.js and tesseract.js (its WebAssembly heap alone is about 170 MB)
 * keep what they grew until their process ends, and a worker thread's memory stays in the
 * service's process after the thread is gone. So the reader ends its process when a document
 * fails (over budget, past its time, a crash), and when it has had nothing to do for the
 * budget's idle time; the next document starts a fresh one.
 *
 * What the process prints (pdf.js and tesseract.js write to the console) is read line by line
 * into the service's logger at debug level, never onto the service's own stdout/stderr.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { setPriority } from 'node:os';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { entryExecArgv, workerEntry } from '../../native/worker-entry';
import { eachLine } from './child-lines';
import { CPU_REPORT_FD, CpuReports, CpuWait } from './process-cpu';
import { DocumentReadError, type DocumentBudget } from './budget';

/** The text a document yielded, by page. */
export interface DocumentText {
  method: 'text' | 'ocr';
  pages: string[];
  /** OCR's mean word confidence (0..1) per page. */
  pageConfidence?: number[];
}

export interface ReadRequest {
  id: number;
  contentType: string;
  bytes: Uint8Array;
  budget: DocumentBudget;
}

export type ReadReply = { id: number; result: DocumentText } | { id: number; error: string };

export interface ReaderLogger {
  debug?(obj: unknown, msg?: string): void;
  warn(obj: unknown, msg?: string): void;
}

interface Running {
  id: number;
  resolve(text: DocumentText): void;
  reject(error: DocumentReadError): void;
}

const OUT_OF_MEMORY = /heap out of memory|Reached heap limit/i;
/**
 * The reader's scheduling priority: the lowest (niceness 19). At 10 the kernel still let a busy
 * reader keep a core for a few milliseconds after the service's thread woke, and the API's p99
 * beside a stream of hostile PDFs was 2.17 times its idle p99; at 19, 1.67 and 1.83. Its time
 * limit is counted in its CPU time (process-cpu.ts), so a machine busy for a while slows a read
 * down without failing it.
 */
const READER_NICENESS = 19;
/** How often a read's time is looked at (more often for a shorter limit). */
const TIME_CHECK_MS = 500;
/**
 * A read ends at this many times its time limit in wall time (less the time it waited for a
 * CPU), whatever its CPU time.
 */
const WALL_TIME_FACTOR = 5;

export class DocumentReader {
  private child: ChildProcess | null = null;
  /** The CPU time the running process reports. */
  private cpu = new CpuReports(null);
  private running: Running | null = null;
  private idleTimer: NodeJS.Timeout | undefined;
  private outOfMemory = false;
  private nextId = 1;
  /** Processes started so far (tests and benches watch recycling through it). */
  started = 0;

  constructor(
    private readonly budget: DocumentBudget,
    private readonly logger?: ReaderLogger,
  ) {}

  /** The process's id while one runs. */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Reads one document; rejects with DocumentReadError (the reason to store) on any failure. */
  read(contentType: string, bytes: Uint8Array): Promise<DocumentText> {
    if (this.running) throw new Error('a DocumentReader reads one document at a time');
    clearTimeout(this.idleTimer);
    const child = this.start();
    const id = this.nextId++;
    return new Promise<DocumentText>((resolve, reject) => {
      const stopWatch = this.watchTime(child);
      const settle = () => {
        stopWatch();
        this.running = null;
      };
      this.running = {
        id,
        resolve: (text) => {
          settle();
          this.idleTimer = setTimeout(() => this.end(child), this.budget.idleMs);
          this.idleTimer.unref();
          resolve(text);
        },
        reject: (error) => {
          settle();
          reject(error);
        },
      };
      const request: ReadRequest = { id, contentType, bytes, budget: this.budget };
      child.send(request);
    });
  }

  /**
   * Fails the read once the reader has spent the budget's time on it in CPU time (which the
   * reader reports, CpuReports), and in any case once the wall time, less the time the reader
   * waited for a CPU where the system tells (CpuWait, Linux), reaches WALL_TIME_FACTOR times the
   * budget: a reader that hangs without working (or stops reporting) still ends, and one that
   * only waits its turn on a busy machine does not. Returns what stops the watch.
   */
  private watchTime(child: ChildProcess): () => void {
    const limitMs = this.budget.timeoutMs;
    const backstopMs = limitMs * WALL_TIME_FACTOR;
    const startedAt = performance.now();
    const cpu = this.cpu;
    const cpuAtStart = cpu.cpuMs;
    const cpuWait = child.pid === undefined ? undefined : new CpuWait(child.pid);
    const tookLonger = (ms: number, what = '') =>
      this.fail(child, `Reading the document took longer than ${ms / 1000} s${what}`);
    const check = () => {
      const wallMs = performance.now() - startedAt;
      if (cpu.cpuMs - cpuAtStart >= limitMs) tookLonger(limitMs, ' of processing time');
      else if (wallMs >= backstopMs && wallMs - (cpuWait?.waitedMs() ?? 0) >= backstopMs) {
        // Read only past the backstop: about 0.1 ms of /proc reads on the service's thread.
        tookLonger(backstopMs);
      }
    };
    const timer = setInterval(check, Math.min(TIME_CHECK_MS, limitMs));
    return () => clearInterval(timer);
  }

  async close(): Promise<void> {
    clearTimeout(this.idleTimer);
    const child = this.child;
    if (!child) return;
    this.fail(child, 'The service stopped before the document was read');
    if (child.exitCode === null && child.signalCode === null) {
      await new Promise((resolve) => child.once('exit', resolve));
    }
  }

  private start(): ChildProcess {
    if (this.child) return this.child;
    const entry = workerEntry('document-worker', import.meta.url);
    const heap = `--max-old-space-size=${this.budget.maxHeapMb}`;
    const child = fork(fileURLToPath(entry.file), [], {
      execArgv: [...entryExecArgv(entry), heap],
      // Inside Electron the process running the service is Electron's binary: run it as Node.
      env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
      serialization: 'advanced',
      // After the IPC channel, the pipe the reader reports its CPU time on (CPU_REPORT_FD).
      stdio: ['ignore', 'pipe', 'pipe', 'ipc', 'pipe'],
    });
    this.child = child;
    this.cpu = new CpuReports(child.stdio[CPU_REPORT_FD] as Readable | null);
    this.started++;
    // Background work: on a busy machine the API's requests come first.
    if (child.pid !== undefined) {
      try {
        setPriority(child.pid, READER_NICENESS);
      } catch {
        // Not permitted here (some containers): the reader runs at normal priority.
      }
    }
    this.outOfMemory = false;
    this.relay(child.stdout, 'stdout');
    this.relay(child.stderr, 'stderr');
    child.on('message', (reply: ReadReply) => {
      const running = this.running;
      if (!running || reply.id !== running.id) return;
      if ('error' in reply) {
        // A document that failed may have left the process large: start the next one fresh.
        this.end(child);
        running.reject(new DocumentReadError(reply.error));
      } else running.resolve(reply.result);
    });
    child.on('error', (err) => this.fail(child, `The document reader failed: ${err.message}`));
    // 'close', not 'exit': by then its stderr (where V8 reports running out of heap) is read.
    child.on('close', () =>
      this.fail(
        child,
        this.outOfMemory
          ? `Reading the document needs more than ${this.budget.maxHeapMb} MB of memory`
          : 'The document reader stopped before it finished',
      ),
    );
    // An idle reader never holds the service's process open.
    child.unref();
    child.channel?.unref();
    return child;
  }

  /** pdf.js and tesseract.js print to the console: their lines go to the logger. */
  private relay(stream: Readable | null, source: 'stdout' | 'stderr'): void {
    eachLine(stream, (line) => {
      if (OUT_OF_MEMORY.test(line)) this.outOfMemory = true;
      this.logger?.debug?.({ source }, `document reader: ${line}`);
    });
  }

  /** Fails the running read (if any) with `reason` and ends the process. */
  private fail(child: ChildProcess, reason: string): void {
    if (this.child !== child) return;
    this.end(child);
    this.running?.reject(new DocumentReadError(reason));
  }

  private end(child: ChildProcess): void {
    if (this.child === child) this.child = null;
    clearTimeout(this.idleTimer);
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
}
