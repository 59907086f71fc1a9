/**
 * Terminal availability client for the contract in src/shared/feeds/terminal.ts:
 *
 *   GET  {baseUrl}/containers/{number}   -> 200 status | 404 (not known here yet)
 *   POST {baseUrl}/containers/query      -> 200 { containers, not_found }
 *
 * Batches larger than the contract's 100 numbers are split. In a batch answer each container is
 * validated on its own; a bad one is dropped, counted, and reported as `invalid`.
 */
import { Value } from 'typebox/value';
import {
  TerminalContainerStatus,
  type TerminalContainerStatus as TerminalContainerStatusType,
} from '../../../shared/feeds/terminal';
import { CONTAINER_NUMBER_SHAPE } from '../../../shared/iso6346';
import { joinUrl, sendFeedRequest, type HttpSourceConfig } from '../http';
import {
  classifyFailure,
  countOutcome,
  describeErrors,
  emptyCounters,
  type FeedCounters,
  type FeedFailure,
} from '../outcome';

export interface TerminalSourceConfig extends HttpSourceConfig {
  /** Terminals authenticate with a bearer token; other credential kinds are sent as configured. */
  name?: string;
}

export type TerminalStatusResult =
  | { outcome: 'found'; status: TerminalContainerStatusType }
  | { outcome: 'not_found' }
  | FeedFailure;

export interface TerminalBatchResult {
  /** Statuses that passed validation, keyed by container number. */
  found: Map<string, TerminalContainerStatusType>;
  notFound: string[];
  /** Containers whose status failed validation, with the reason. */
  invalid: { container_number: string | null; reason: string }[];
  /** Chunks that failed as a whole; their numbers are in `failedNumbers`. */
  failures: FeedFailure[];
  failedNumbers: string[];
}

export const TERMINAL_BATCH_LIMIT = 100;

export class TerminalClient {
  private readonly counters: FeedCounters = emptyCounters();

  constructor(private readonly config: TerminalSourceConfig) {}

  stats(): Readonly<FeedCounters> {
    return { ...this.counters };
  }

  async getContainer(containerNumber: string): Promise<TerminalStatusResult> {
    const number = containerNumber.trim().toUpperCase();
    const result = await this.fetchOne(number);
    countOutcome(this.counters, result.outcome);
    this.config.onOutcome?.(result.outcome);
    return result;
  }

  private async fetchOne(number: string): Promise<TerminalStatusResult> {
    this.counters.requests++;
    const response = await sendFeedRequest(
      this.config,
      joinUrl(this.config.baseUrl, `containers/${encodeURIComponent(number)}`),
      {},
    );
    const failure = classifyFailure(response);
    if (failure) return failure;
    if (response.kind !== 'response' || response.status === 404) return { outcome: 'not_found' };
    const body = response.body;
    if (!Value.Check(TerminalContainerStatus, body)) {
      return {
        outcome: 'malformed',
        status: response.status,
        error: describeErrors(Value.Errors(TerminalContainerStatus, body)),
      };
    }
    if (body.container_number !== number) {
      return {
        outcome: 'malformed',
        status: response.status,
        error: `answer is for ${body.container_number}, asked for ${number}`,
      };
    }
    return { outcome: 'found', status: body };
  }

  async queryContainers(containerNumbers: readonly string[]): Promise<TerminalBatchResult> {
    const result: TerminalBatchResult = {
      found: new Map(),
      notFound: [],
      invalid: [],
      failures: [],
      failedNumbers: [],
    };
    const numbers = [...new Set(containerNumbers.map((n) => n.trim().toUpperCase()))];
    for (const n of numbers) {
      if (!CONTAINER_NUMBER_SHAPE.test(n))
        result.invalid.push({ container_number: n, reason: 'not a container number' });
    }
    const valid = numbers.filter((n) => CONTAINER_NUMBER_SHAPE.test(n));
    for (let i = 0; i < valid.length; i += TERMINAL_BATCH_LIMIT) {
      await this.queryChunk(valid.slice(i, i + TERMINAL_BATCH_LIMIT), result);
    }
    return result;
  }

  private async queryChunk(chunk: string[], result: TerminalBatchResult): Promise<void> {
    this.counters.requests++;
    const response = await sendFeedRequest(
      this.config,
      joinUrl(this.config.baseUrl, 'containers/query'),
      { method: 'POST', body: { container_numbers: chunk } },
    );
    const fail = (failure: FeedFailure) => {
      countOutcome(this.counters, failure.outcome);
      this.config.onOutcome?.(failure.outcome);
      result.failures.push(failure);
      result.failedNumbers.push(...chunk);
    };
    const failure = classifyFailure(response);
    if (failure) return fail(failure);
    if (response.kind === 'unreachable') return; // handled by classifyFailure
    if (response.kind !== 'response' || response.status !== 200) {
      return fail({
        outcome: 'malformed',
        status: response.status,
        error: `unexpected HTTP ${response.status} for a batch query`,
      });
    }
    const body = response.body as { containers?: unknown; not_found?: unknown } | null;
    if (
      !body ||
      typeof body !== 'object' ||
      !Array.isArray(body.containers) ||
      !Array.isArray(body.not_found)
    ) {
      return fail({
        outcome: 'malformed',
        status: response.status,
        error: 'expected { containers: [], not_found: [] }',
      });
    }
    this.config.onOutcome?.('found');
    const asked = new Set(chunk);
    const answered = new Set<string>();
    for (const item of body.containers as unknown[]) {
      const number = (item as { container_number?: unknown } | null)?.container_number;
      if (!Value.Check(TerminalContainerStatus, item)) {
        this.counters.droppedRecords++;
        result.invalid.push({
          container_number: typeof number === 'string' ? number : null,
          reason: describeErrors(Value.Errors(TerminalContainerStatus, item)),
        });
        continue;
      }
      if (!asked.has(item.container_number)) continue; // not ours: ignore rather than trust
      answered.add(item.container_number);
      result.found.set(item.container_number, item);
      this.counters.found++;
    }
    for (const n of body.not_found as unknown[]) {
      if (typeof n === 'string' && asked.has(n) && !answered.has(n)) {
        result.notFound.push(n);
        answered.add(n);
        this.counters.notFound++;
      }
    }
    // Numbers the terminal neither answered nor listed as unknown: treat as not known yet.
    for (const n of chunk) {
      if (!answered.has(n) && !result.invalid.some((i) => i.container_number === n)) {
        result.notFound.push(n);
        this.counters.notFound++;
      }
    }
  }
}
