/**
 * AIS over UDP: what a local receiver or a sharing network sends, one or more NMEA sentences per
 * datagram. Listens on a port and runs every datagram through the same line framing, checksum,
 * multipart assembly and decoding as the TCP client, into a vessel store that may be shared with
 * other AIS sources (positions then merge per MMSI, newest report wins).
 */
import { createSocket, type Socket } from 'node:dgram';
import { isIPv6 } from 'node:net';
import type { Clock } from '../../../shared/clock';
import { AisTcpClient, type AisCounters } from './client';
import type { AisVesselStore } from './vessel-store';

/**
 * Where a UDP source listens when the feeds file names no host: loopback, like every listener
 * of the service. Anyone who can send to the port can move vessels, so listening on the
 * network (`host: 0.0.0.0` or an interface's address) is the operator's explicit choice.
 */
export const DEFAULT_AIS_UDP_HOST = '127.0.0.1';

export interface AisUdpConfig {
  port: number;
  /** Address to bind (DEFAULT_AIS_UDP_HOST when absent). */
  host?: string;
  /** Largest datagram processed; bigger ones are counted as malformed and dropped. */
  maxDatagramBytes?: number;
}

export class AisUdpListener {
  /** The shared line pipeline; its socket side is never started. */
  private readonly lines: AisTcpClient;
  private socket: Socket | null = null;
  private oversized = 0;
  datagrams = 0;

  constructor(
    private readonly config: AisUdpConfig,
    clock: Clock,
    store?: AisVesselStore,
  ) {
    this.lines = new AisTcpClient(
      { host: config.host ?? DEFAULT_AIS_UDP_HOST, port: config.port },
      clock,
      store,
    );
  }

  get store(): AisVesselStore {
    return this.lines.store;
  }

  stats(): AisCounters {
    const counters = this.lines.stats();
    return { ...counters, malformed: counters.malformed + this.oversized };
  }

  /** Resolves with the bound port once listening (useful with port 0). */
  start(): Promise<number> {
    const host = this.config.host ?? DEFAULT_AIS_UDP_HOST;
    const socket = createSocket(isIPv6(host) ? 'udp6' : 'udp4');
    this.socket = socket;
    socket.on('message', (datagram) => this.ingest(datagram));
    // A bad datagram or a transient socket error must not stop the listener.
    socket.on('error', () => undefined);
    return new Promise((resolve, reject) => {
      socket.once('error', reject);
      socket.bind(this.config.port, host, () => {
        socket.off('error', reject);
        resolve(socket.address().port);
      });
    });
  }

  ingest(datagram: Buffer): void {
    this.datagrams += 1;
    if (datagram.length > (this.config.maxDatagramBytes ?? 8192)) {
      this.oversized += 1;
      return;
    }
    // Each datagram ends its own lines: a sender's half line never joins another's.
    this.lines.ingest(`${datagram.toString('latin1')}\n`);
  }

  stop(): Promise<void> {
    const socket = this.socket;
    this.socket = null;
    if (!socket) return Promise.resolve();
    return new Promise((resolve) => socket.close(() => resolve()));
  }
}
