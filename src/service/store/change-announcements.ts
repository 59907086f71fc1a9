/**
 * PostgreSQL's announcements of changes, heard on a connection of their own. Every instance
 * announces each commit it makes on CHANGES_CHANNEL (createPostgresPool in dialect.ts): a
 * NOTIFY of its own, sent once the commit is answered and before whoever asked for the commit
 * hears back, so by the time anyone can know of a change from the instance that made it, every
 * listening connection has been signalled. Commits that do not come from an instance (psql, an
 * older version still running during an upgrade) are not announced: they show within
 * `--db-read-staleness-ms`.
 *
 * StoreVersion relies on a reading of the version only while `epoch()` stays what it was when
 * the reading's statement began: every announcement moves it, and so do losing the connection and
 * listening again (what was committed in between was never announced here). While the connection
 * is down `epoch()` is null, and every request reads the version again, as with no listener.
 */
import pg from 'pg';

/** The channel every instance announces its commits on. */
export const CHANGES_CHANNEL = 'quayside_changes';

/** Waits before listening again after a lost connection: doubled each failure, up to the last. */
const RETRY_DELAYS_MS = [250, 500, 1_000, 2_000, 5_000];

export interface ChangeAnnouncementsOptions {
  url: string;
  connectTimeoutMs: number;
  /** Waits before each attempt to listen again (default RETRY_DELAYS_MS). */
  retryDelaysMs?: readonly number[];
  /**
   * Told when listening stops or cannot start. It retries by itself, and tells again only once
   * it has listened since.
   */
  onConnectionError: (error: Error) => void;
}

export class ChangeAnnouncements {
  private client: pg.Client | null = null;
  private listening = false;
  private count = 0;
  private failures = 0;
  private retry: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(private readonly options: ChangeAnnouncementsOptions) {}

  /** Starts listening; resolves once listening or once the first attempt has failed. */
  start(): Promise<void> {
    return this.listen();
  }

  /**
   * Moves with every announcement and every loss or start of listening; null while not
   * listening.
   */
  epoch(): number | null {
    return this.listening ? this.count : null;
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    this.retry = null;
    const client = this.client;
    this.drop();
    await client?.end().catch(() => undefined);
  }

  private async listen(): Promise<void> {
    if (this.closed) return;
    const client = new pg.Client({
      connectionString: this.options.url,
      connectionTimeoutMillis: this.options.connectTimeoutMs,
      // A peer that vanishes without closing the socket is noticed by the kernel's probes.
      keepAlive: true,
      application_name: 'quayside listener',
    });
    this.client = client;
    const lost = (error: Error) => {
      if (this.client !== client) return;
      // Told once a series: not again for each retry while the server stays away.
      if (this.failures === 0) this.options.onConnectionError(error);
      this.drop();
      void client.end().catch(() => undefined);
      this.scheduleRetry();
    };
    client.on('error', lost);
    client.on('end', () => lost(new Error('listening connection closed')));
    client.on('notification', () => {
      if (this.client === client) this.count++;
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANGES_CHANNEL}`);
    } catch (error) {
      lost(error as Error);
      return;
    }
    if (this.client !== client || this.closed) return;
    // Readings begun before now were not covered by announcements: the epoch moves past them.
    this.count++;
    this.listening = true;
    this.failures = 0;
  }

  private drop(): void {
    if (this.listening) this.count++;
    this.listening = false;
    this.client = null;
  }

  private scheduleRetry(): void {
    if (this.closed || this.retry) return;
    const delays = this.options.retryDelaysMs ?? RETRY_DELAYS_MS;
    const delay = delays[Math.min(this.failures++, delays.length - 1)]!;
    this.retry = setTimeout(() => {
      this.retry = null;
      void this.listen();
    }, delay);
    this.retry.unref();
  }
}
