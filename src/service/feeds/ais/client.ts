/**
 * AIS over TCP: connects to an NMEA 0183 feed (one sentence per line), decodes it into the
 * vessel store and reconnects with exponential backoff when the connection drops or cannot be
 * made. Timers come from the injected Clock, so tests drive reconnection without sleeping.
 * Nothing a feed sends can throw out of this client; bad input only moves the counters.
 */
import { Socket } from 'node:net';
import type { Clock } from '../../../shared/clock';
import { decodePayload } from './decode';
import { MultipartAssembler, parseSentence } from './nmea';
import { AisVesselStore } from './vessel-store';

export interface AisFeedConfig {
  host: string;
  port: number;
  /** First reconnect delay; doubles on each failed attempt up to maxBackoffMs. */
  initialBackoffMs?: number;
  maxBackoffMs?: number;
  /** Time limit for the parts of a multi-part message. */
  multipartTimeoutMs?: number;
  /** Longest line accepted; longer input is discarded as garbage. */
  maxLineLength?: number;
  historyLimit?: number;
}

export interface AisCounters {
  /** Sentences with a good checksum and shape. */
  sentencesOk: number;
  badChecksum: number;
  /** Lines that are not AIS sentences, truncated sentences, undecodable payloads, garbage. */
  malformed: number;
  /** Valid messages of types Quayside does not use. */
  unsupported: number;
  /** Multi-part messages dropped because a part never came. */
  incompleteMultipart: number;
  messagesDecoded: number;
  positionsAccepted: number;
  invalidPositions: number;
  connects: number;
  reconnects: number;
  connectionErrors: number;
}

export type AisConnectionState = 'idle' | 'connecting' | 'connected' | 'waiting' | 'stopped';

export class AisTcpClient {
  readonly store: AisVesselStore;
  private readonly assembler: MultipartAssembler;
  private socket: Socket | null = null;
  private buffer = '';
  private discardingLongLine = false;
  private cancelReconnect: (() => void) | null = null;
  private attempt = 0;
  private state: AisConnectionState = 'idle';
  private acceptedPositions = 0;
  private readonly stateListeners = new Set<(state: AisConnectionState) => void>();
  private readonly counters = {
    sentencesOk: 0,
    badChecksum: 0,
    malformed: 0,
    unsupported: 0,
    messagesDecoded: 0,
    connects: 0,
    reconnects: 0,
    connectionErrors: 0,
  };

  constructor(
    private readonly config: AisFeedConfig,
    private readonly clock: Clock,
    store?: AisVesselStore,
  ) {
    this.store = store ?? new AisVesselStore(clock, { historyLimit: config.historyLimit });
    this.assembler = new MultipartAssembler(clock, config.multipartTimeoutMs ?? 5_000);
  }

  stats(): AisCounters {
    this.assembler.expire();
    return {
      ...this.counters,
      incompleteMultipart: this.assembler.expired,
      positionsAccepted: this.acceptedPositions,
      invalidPositions: this.store.invalidPositions,
    };
  }

  connectionState(): AisConnectionState {
    return this.state;
  }

  onStateChange(listener: (state: AisConnectionState) => void): () => void {
    this.stateListeners.add(listener);
    return () => this.stateListeners.delete(listener);
  }

  start(): void {
    if (this.state !== 'idle' && this.state !== 'stopped') return;
    this.attempt = 0;
    this.connect();
  }

  stop(): void {
    this.cancelReconnect?.();
    this.cancelReconnect = null;
    const socket = this.socket;
    this.socket = null;
    this.setState('stopped');
    socket?.destroy();
  }

  /** Feeds raw bytes as if read from the socket (also used for replaying captured feeds). */
  ingest(chunk: Buffer | string): void {
    this.buffer += typeof chunk === 'string' ? chunk : chunk.toString('latin1');
    const maxLine = this.config.maxLineLength ?? 1024;
    for (;;) {
      const newline = this.buffer.search(/[\r\n]/);
      if (newline < 0) break;
      const line = this.buffer.slice(0, newline);
      this.buffer = this.buffer.slice(newline + 1);
      if (this.discardingLongLine) {
        this.discardingLongLine = false;
        continue;
      }
      if (line.trim() !== '') this.handleLine(line);
    }
    if (this.buffer.length > maxLine) {
      // No line break in sight: garbage. Drop it and the rest of that line.
      this.counters.malformed++;
      this.buffer = '';
      this.discardingLongLine = true;
    }
  }

  private handleLine(line: string): void {
    const parsed = parseSentence(line);
    if (!parsed.ok) {
      if (parsed.reason === 'bad_checksum') this.counters.badChecksum++;
      else this.counters.malformed++;
      return;
    }
    this.counters.sentencesOk++;
    const message = this.assembler.add(parsed.sentence);
    if (!message) return;
    const decoded = decodePayload(message.payload, message.fillBits, message.channel);
    if (!decoded.ok) {
      if (decoded.reason === 'unsupported') this.counters.unsupported++;
      else this.counters.malformed++;
      return;
    }
    this.counters.messagesDecoded++;
    const invalidBefore = this.store.invalidPositions;
    this.store.apply(decoded.message);
    if (decoded.message.kind === 'position' && this.store.invalidPositions === invalidBefore)
      this.acceptedPositions++;
  }

  private connect(): void {
    this.setState('connecting');
    const socket = new Socket();
    this.socket = socket;
    this.buffer = '';
    this.discardingLongLine = false;
    socket.setNoDelay(true);
    socket.on('connect', () => {
      if (this.socket !== socket) return;
      this.counters.connects++;
      this.attempt = 0;
      this.setState('connected');
    });
    socket.on('data', (chunk: Buffer) => {
      if (this.socket === socket) this.ingest(chunk);
    });
    socket.on('error', () => {
      if (this.socket === socket) this.counters.connectionErrors++;
    });
    socket.on('close', () => {
      if (this.socket !== socket) return;
      this.socket = null;
      if (this.state === 'stopped') return;
      this.scheduleReconnect();
    });
    socket.connect(this.config.port, this.config.host);
  }

  /** Delay before the next attempt: initial * 2^attempt, capped. */
  nextBackoffMs(): number {
    const initial = this.config.initialBackoffMs ?? 1_000;
    const max = this.config.maxBackoffMs ?? 60_000;
    return Math.min(max, initial * 2 ** this.attempt);
  }

  private scheduleReconnect(): void {
    const delay = this.nextBackoffMs();
    this.attempt++;
    this.setState('waiting');
    this.cancelReconnect = this.clock.setTimer(delay, () => {
      this.cancelReconnect = null;
      if (this.state !== 'waiting') return;
      this.counters.reconnects++;
      this.connect();
    });
  }

  private setState(state: AisConnectionState): void {
    if (this.state === state) return;
    this.state = state;
    for (const listener of this.stateListeners) listener(state);
  }
}
