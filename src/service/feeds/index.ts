/**
 * Feed adapters: the service's clients for the outside world. Pure building blocks with no
 * database access; the tracking lifecycle and scheduler decide when to call them and store what
 * they return. Every adapter reports bad input as counted, typed outcomes and never throws on it.
 *
 * - dcsa/            DCSA Track & Trace 2.2 (GET /v2/events) per carrier SCAC: look up by
 *                    equipment, booking or transport document reference, follow Next-Page
 *                    cursors (capped), classify the answer as found / not_found / unreachable /
 *                    server_error / rejected / malformed, drop and count single bad events.
 * - line-deadlines/  the carriers' import-deadlines extension (line LFD), same base URL and
 *                    credentials as the carrier's DCSA endpoints.
 * - normalize/       DCSA events -> raw events (carrier identity such as `EQUIPMENT/LOAD`,
 *                    classifier, UTC time, UN/LOCODE, SMDG facility, vessel, voyage, mode,
 *                    empty/laden) -> named events and deduplicated actual transport events;
 *                    the route (POL, transshipments, POD, destination) derived from the events;
 *                    shipment facts (ETD/ATD/ETA/ATA, POD vessel, port calls for the route map)
 *                    and per-container milestones.
 * - ais/             NMEA 0183 AIVDM/AIVDO over TCP (types 1-3, 5, 18, 24): checksums, multi-part
 *                    assembly with time limits, latest position + bounded history + static data
 *                    per MMSI, reconnect with Clock-driven exponential backoff, counters,
 *                    position subscriptions.
 * - terminal/        the terminal availability contract in src/shared/feeds/terminal.ts:
 *                    GET {baseUrl}/containers/{number} (404 = not known there yet) and
 *                    POST {baseUrl}/containers/query for up to 100 numbers per call (larger
 *                    batches are split), Bearer token auth, each container validated on its own.
 *
 * The engine runs on a FeedConfig: carriers by SCAC and terminals by name with their
 * authenticators and limiters, and the AIS sources. It is built from the validated feeds file
 * (config/) by `engineFeedConfig` in runtime.ts, for real sources and the simulated world alike.
 * CarrierRegistry turns it into clients and answers `unsupported` for a SCAC without a carrier.
 */
import {
  DcsaClient,
  type DcsaCarrierConfig,
  type DcsaLookupResult,
  type DcsaQuery,
} from './dcsa/client';
import { DcsaSubscriptionClient } from './dcsa/subscriptions';
import { LineDeadlinesClient, type LineDeadlinesResult } from './line-deadlines/client';
import type { AisFeed } from './config/load';
import { TerminalClient, type TerminalSourceConfig } from './terminal/client';

export interface CarrierConfig extends DcsaCarrierConfig {
  /** Whether the carrier serves the import-deadlines extension beside its DCSA endpoints. */
  importDeadlines?: boolean;
  /** Whether to hold DCSA event subscriptions (push) with the carrier. */
  subscriptions?: boolean;
}

export interface FeedConfig {
  /** Keyed by SCAC (upper case). */
  carriers: Record<string, CarrierConfig>;
  /** Keyed by a name of the terminal or aggregator source. */
  terminals?: Record<string, TerminalSourceConfig>;
  /** AIS sources (NMEA over TCP or UDP), merged into one vessel store. */
  ais?: AisFeed[];
  /** Where carriers reach this service for subscription callbacks (else its own address). */
  publicBaseUrl?: string;
}

export type UnsupportedCarrier = { outcome: 'unsupported'; scac: string; error: string };

export class CarrierRegistry {
  private readonly clients = new Map<
    string,
    {
      dcsa: DcsaClient;
      deadlines: LineDeadlinesClient | null;
      subscriptions: DcsaSubscriptionClient | null;
    }
  >();

  constructor(config: FeedConfig) {
    for (const [scacKey, carrier] of Object.entries(config.carriers)) {
      const scac = scacKey.trim().toUpperCase();
      this.clients.set(scac, {
        dcsa: new DcsaClient(scac, carrier),
        deadlines:
          carrier.importDeadlines === false ? null : new LineDeadlinesClient(scac, carrier),
        subscriptions: carrier.subscriptions ? new DcsaSubscriptionClient(scac, carrier) : null,
      });
    }
  }

  supportedScacs(): string[] {
    return [...this.clients.keys()].sort();
  }

  isSupported(scac: string): boolean {
    return this.clients.has(scac.trim().toUpperCase());
  }

  client(scac: string): DcsaClient | null {
    return this.clients.get(scac.trim().toUpperCase())?.dcsa ?? null;
  }

  /** The carrier's subscription client when it is configured for push, else null. */
  subscriptions(scac: string): DcsaSubscriptionClient | null {
    return this.clients.get(scac.trim().toUpperCase())?.subscriptions ?? null;
  }

  async lookup(scac: string, query: DcsaQuery): Promise<DcsaLookupResult | UnsupportedCarrier> {
    const client = this.client(scac);
    if (!client) return unsupported(scac);
    return client.lookup(query);
  }

  async importDeadlines(
    scac: string,
    equipmentReference: string,
  ): Promise<LineDeadlinesResult | UnsupportedCarrier> {
    const client = this.clients.get(scac.trim().toUpperCase())?.deadlines;
    if (!client) return unsupported(scac);
    return client.getDeadlines(equipmentReference);
  }
}

function unsupported(scac: string): UnsupportedCarrier {
  return {
    outcome: 'unsupported',
    scac,
    error: `no carrier feed is configured for SCAC ${JSON.stringify(scac)}`,
  };
}

export function terminalClients(config: FeedConfig): Map<string, TerminalClient> {
  return new Map(
    Object.entries(config.terminals ?? {}).map(([name, c]) => [name, new TerminalClient(c)]),
  );
}

export { DcsaClient, DcsaSubscriptionClient, LineDeadlinesClient, TerminalClient };
export type {
  DcsaCarrierConfig,
  DcsaLookupResult,
  DcsaQuery,
  LineDeadlinesResult,
  TerminalSourceConfig,
};
export type { DcsaReferenceKind, DroppedEvent } from './dcsa/client';
export * from '../../shared/feeds/dcsa';
export type { FeedCredentials, HttpSourceConfig } from './http';
export type { FeedCounters, FeedFailure, FeedOutcomeKind } from './outcome';
export * from './normalize/event-names';
export * from './normalize/raw-events';
export * from './normalize/route';
export * from './normalize/transport-events';
export * from './normalize/shipment-facts';
export {
  AisTcpClient,
  type AisCounters,
  type AisConnectionState,
  type AisFeedConfig,
} from './ais/client';
export {
  AisVesselStore,
  type VesselPosition,
  type VesselStatic,
  type PositionListener,
} from './ais/vessel-store';
export { decodePayload, type AisDecoded } from './ais/decode';
export { parseSentence, MultipartAssembler, nmeaChecksum } from './ais/nmea';
export type { TerminalBatchResult, TerminalStatusResult } from './terminal/client';
