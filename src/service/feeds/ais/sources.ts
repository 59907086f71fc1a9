/**
 * Every configured AIS source (NMEA over TCP and over UDP) feeding one vessel store, so a vessel
 * seen by a terminal's receiver and by a sharing network is one vessel whose latest report wins.
 */
import type { Clock } from '../../../shared/clock';
import type { AisFeed } from '../config/load';
import { AisTcpClient, type AisCounters } from './client';
import { AisUdpListener, DEFAULT_AIS_UDP_HOST } from './udp';
import { AisVesselStore } from './vessel-store';

export interface AisSourceStats extends AisCounters {
  /** A label per source, e.g. `tcp://127.0.0.1:5631`. */
  source: string;
}

export function aisSourceLabel(source: AisFeed): string {
  return source.type === 'nmea_tcp'
    ? `tcp://${source.host}:${source.port}`
    : `udp://${source.host ?? DEFAULT_AIS_UDP_HOST}:${source.port}`;
}

export class AisSources {
  readonly store: AisVesselStore;
  private readonly tcp: { label: string; client: AisTcpClient }[] = [];
  private readonly udp: { label: string; listener: AisUdpListener }[] = [];

  constructor(sources: AisFeed[], clock: Clock) {
    this.store = new AisVesselStore(clock);
    for (const source of sources) {
      const label = aisSourceLabel(source);
      if (source.type === 'nmea_tcp') {
        this.tcp.push({ label, client: new AisTcpClient(source, clock, this.store) });
      } else {
        this.udp.push({ label, listener: new AisUdpListener(source, clock, this.store) });
      }
    }
  }

  /** Connects the TCP sources (they reconnect on their own) and binds the UDP ports. */
  async start(): Promise<void> {
    for (const { client } of this.tcp) client.start();
    for (const { label, listener } of this.udp) {
      try {
        await listener.start();
      } catch (err) {
        await this.stop();
        throw new Error(`AIS source ${label}: cannot listen (${(err as Error).message})`);
      }
    }
  }

  async stop(): Promise<void> {
    for (const { client } of this.tcp) client.stop();
    await Promise.all(this.udp.map(({ listener }) => listener.stop()));
    this.active.clear();
  }

  /** Every source's label. */
  labels(): string[] {
    return [...this.tcp.map((t) => t.label), ...this.udp.map((u) => u.label)];
  }

  private readonly active = new Set<string>();

  /**
   * Runs exactly the sources in `labels` (the ones this instance holds the lease of when several
   * instances share a database): starts those newly owned, stops those no longer owned.
   */
  async runOnly(labels: Set<string>): Promise<void> {
    for (const { label, client } of this.tcp) {
      if (labels.has(label) && !this.active.has(label)) client.start();
      if (!labels.has(label) && this.active.has(label)) client.stop();
    }
    for (const { label, listener } of this.udp) {
      if (labels.has(label) && !this.active.has(label)) {
        try {
          await listener.start();
        } catch {
          // Bound elsewhere (another instance on this host): try again on the next round.
          continue;
        }
      }
      if (!labels.has(label) && this.active.has(label)) await listener.stop();
    }
    this.active.clear();
    for (const label of labels) this.active.add(label);
  }

  /** Counters per source. */
  bySource(): AisSourceStats[] {
    return [
      ...this.tcp.map(({ label, client }) => ({ source: label, ...client.stats() })),
      ...this.udp.map(({ label, listener }) => ({ source: label, ...listener.stats() })),
    ];
  }

  /** Counters summed over every source (positions accepted are the shared store's). */
  stats(): AisCounters {
    const total = {} as Record<keyof AisCounters, number>;
    for (const one of this.bySource()) {
      for (const [key, value] of Object.entries(one)) {
        if (typeof value === 'number') {
          total[key as keyof AisCounters] = (total[key as keyof AisCounters] ?? 0) + value;
        }
      }
    }
    return { ...emptyCounters(), ...total, invalidPositions: this.store.invalidPositions };
  }
}

function emptyCounters(): AisCounters {
  return {
    sentencesOk: 0,
    badChecksum: 0,
    malformed: 0,
    unsupported: 0,
    incompleteMultipart: 0,
    messagesDecoded: 0,
    positionsAccepted: 0,
    invalidPositions: 0,
    connects: 0,
    reconnects: 0,
    connectionErrors: 0,
  };
}
