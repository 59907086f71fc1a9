/**
 * Buffers for large response bodies, used again once a response has been written out.
 *
 * A list page's JSON is a quarter of a megabyte. Encoded into a new Buffer per response, that is
 * memory outside V8's heap that only a collection gives back: at a few thousand pages a second
 * V8 answers the growth with several full (mark-compact) collections a second, and each new
 * buffer's pages are faulted in afresh. How many full collections a run gets depended on where
 * V8's heuristics happened to be, and CPU per list response moved with them, up to twice as much
 * between identical runs. A body written into a kept buffer costs neither.
 *
 * A buffer goes back to the pool only when its response has finished, that is when the socket's
 * last write has completed and nothing holds the bytes any more. A response that ends otherwise
 * (the client went away) leaves its buffer to the collector.
 */
import type { FastifyReply } from 'fastify';

export interface BodyBufferLimits {
  /** Bodies smaller than this are not pooled: a few kilobytes cost less to allocate. */
  pooledFromBytes: number;
  /** Bodies larger than this are not pooled: rare, and would hold memory long after. */
  pooledUpToBytes: number;
  /** What the idle buffers may take altogether. */
  maxIdleBytes: number;
}

const DEFAULT_LIMITS: BodyBufferLimits = {
  pooledFromBytes: 32 * 1024,
  pooledUpToBytes: 4 * 1024 * 1024,
  maxIdleBytes: 16 * 1024 * 1024,
};

/** The size class of a body: the next power of two, so one buffer serves bodies close in size. */
const sizeClass = (length: number): number => 2 ** Math.ceil(Math.log2(length));

export class BodyBufferPool {
  private readonly idle = new Map<number, Buffer[]>();
  private idleBytes = 0;

  private readonly limits: BodyBufferLimits;

  constructor(limits: Partial<BodyBufferLimits> = {}) {
    this.limits = { ...DEFAULT_LIMITS, ...limits };
  }

  /** The bytes idle buffers hold. */
  get heldBytes(): number {
    return this.idleBytes;
  }

  /**
   * A buffer of at least `length` bytes for a body that `reply` will send (undefined outside the
   * pooled sizes), given back when the reply's response has finished.
   */
  take(length: number, reply: FastifyReply): Buffer | undefined {
    const { pooledFromBytes, pooledUpToBytes } = this.limits;
    if (length < pooledFromBytes || length > pooledUpToBytes) return undefined;
    const size = sizeClass(length);
    const reused = this.idle.get(size)?.pop();
    if (reused) this.idleBytes -= size;
    const buffer = reused ?? Buffer.allocUnsafeSlow(size);
    reply.raw.once('finish', () => this.giveBack(buffer));
    return buffer;
  }

  private giveBack(buffer: Buffer): void {
    if (this.idleBytes + buffer.length > this.limits.maxIdleBytes) return;
    let list = this.idle.get(buffer.length);
    if (!list) this.idle.set(buffer.length, (list = []));
    list.push(buffer);
    this.idleBytes += buffer.length;
  }
}
