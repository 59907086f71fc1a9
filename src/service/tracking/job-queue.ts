/**
 * The engine's bounded job queue: at most `concurrency` jobs run at once, at most `limit` wait,
 * and a key already queued or running is not queued twice.
 */
export interface JobQueueOptions {
  concurrency: number;
  limit: number;
  onError(err: unknown, key: string): void;
}

interface Job {
  key: string;
  run: () => Promise<void>;
}

export class JobQueue {
  private readonly queue: Job[] = [];
  private readonly queuedKeys = new Set<string>();
  private idleWaiters: (() => void)[] = [];
  running = 0;
  jobsRun = 0;
  jobErrors = 0;

  constructor(private readonly options: JobQueueOptions) {}

  get queued(): number {
    return this.queue.length;
  }

  /** True while a job of `key` is queued or running. */
  has(key: string): boolean {
    return this.queuedKeys.has(key);
  }

  /** How many more jobs may wait now. */
  room(): number {
    return this.options.limit - this.queue.length;
  }

  /** Queues the job unless its key is queued or running or the queue is full. */
  enqueue(key: string, run: () => Promise<void>): boolean {
    if (this.queuedKeys.has(key) || this.queue.length >= this.options.limit) return false;
    this.queuedKeys.add(key);
    this.queue.push({ key, run });
    this.pump();
    return true;
  }

  /** Resolves when no job is queued or running. */
  whenIdle(): Promise<void> {
    if (this.running === 0 && this.queue.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private pump(): void {
    while (this.running < this.options.concurrency && this.queue.length > 0) {
      const job = this.queue.shift()!;
      this.running++;
      void job
        .run()
        .catch((err: unknown) => {
          this.jobErrors++;
          this.options.onError(err, job.key);
        })
        .finally(() => {
          this.jobsRun++;
          this.running--;
          this.queuedKeys.delete(job.key);
          this.pump();
          if (this.running === 0 && this.queue.length === 0) {
            const waiters = this.idleWaiters;
            this.idleWaiters = [];
            for (const w of waiters) w();
          }
        });
    }
  }
}
