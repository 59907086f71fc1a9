/**
 * Client for the carriers' import-deadlines extension (src/shared/feeds/line-deadlines.ts):
 * GET {carrierBaseUrl}/x-import-deadlines/{equipmentReference}, same credentials as the
 * carrier's DCSA endpoints. A 404 means the line publishes no LFD for the box.
 */
import { Value } from 'typebox/value';
import { LineImportDeadlines } from '../../../shared/feeds/line-deadlines';
import { joinUrl, sendFeedRequest, type HttpSourceConfig } from '../http';
import {
  classifyFailure,
  countOutcome,
  describeErrors,
  emptyCounters,
  type FeedCounters,
  type FeedFailure,
} from '../outcome';

export type LineDeadlinesResult =
  { outcome: 'found'; deadlines: LineImportDeadlines } | { outcome: 'not_found' } | FeedFailure;

export class LineDeadlinesClient {
  private readonly counters: FeedCounters = emptyCounters();

  constructor(
    readonly scac: string,
    private readonly config: HttpSourceConfig,
  ) {}

  stats(): Readonly<FeedCounters> {
    return { ...this.counters };
  }

  async getDeadlines(equipmentReference: string): Promise<LineDeadlinesResult> {
    const result = await this.fetch(equipmentReference.trim().toUpperCase());
    countOutcome(this.counters, result.outcome);
    return result;
  }

  private async fetch(equipmentReference: string): Promise<LineDeadlinesResult> {
    this.counters.requests++;
    const url = joinUrl(
      this.config.baseUrl,
      `x-import-deadlines/${encodeURIComponent(equipmentReference)}`,
    );
    // The carrier's configured authentication (OAuth2 tokens included) and request pacing, as
    // for its DCSA endpoints.
    const response = await sendFeedRequest(this.config, url, {});
    const failure = classifyFailure(response);
    if (failure) return failure;
    if (response.kind !== 'response' || response.status === 404) return { outcome: 'not_found' };
    if (!Value.Check(LineImportDeadlines, response.body)) {
      return {
        outcome: 'malformed',
        status: response.status,
        error: describeErrors(Value.Errors(LineImportDeadlines, response.body)),
      };
    }
    const deadlines = response.body;
    if (deadlines.equipmentReference !== equipmentReference) {
      return {
        outcome: 'malformed',
        status: response.status,
        error: `answer is for ${deadlines.equipmentReference}, asked for ${equipmentReference}`,
      };
    }
    return {
      outcome: 'found',
      // Only the contract's members: anything else the carrier sends is ignored.
      deadlines: {
        equipmentReference: deadlines.equipmentReference,
        locode: deadlines.locode,
        lastFreeDay:
          deadlines.lastFreeDay === null ? null : new Date(deadlines.lastFreeDay).toISOString(),
        updatedDateTime: new Date(deadlines.updatedDateTime).toISOString(),
      },
    };
  }
}
