/**
 * Starts and watches the embedded service process. The shell supplies how to fork (Node's
 * child_process in browser mode, Electron's utilityProcess in the app); everything else — the
 * ready handshake, the timeout, restarts after a crash — is the same for both.
 */
import type { ServiceConnection } from '../core/service-connection';
import {
  OPTIONS_ENV,
  type EmbeddedControlMessage,
  type EmbeddedProcessMessage,
  type EmbeddedProcessOptions,
} from '../../embedded/protocol';

/** The part of a forked process the launcher needs, whichever API forked it. */
export interface ForkedProcess {
  onMessage(listener: (message: unknown) => void): void;
  onExit(listener: (code: number | null) => void): void;
  send(message: EmbeddedControlMessage): void;
  kill(): void;
}

export type Fork = (env: Record<string, string>) => ForkedProcess;

export interface EmbeddedLauncherOptions extends EmbeddedProcessOptions {
  fork: Fork;
  /** Told when the service becomes reachable, stops, or fails, in plain words. */
  onState?: (state: { up: boolean; message: string | null }) => void;
  /** Told the simulated world's time and speed whenever the service (re)starts. */
  onSimulatedTime?: (simNow: number, speed: number) => void;
  startTimeoutMs?: number;
  /** Restarts after unexpected exits, at most this many times in a row. */
  maxRestarts?: number;
}

export class EmbeddedServiceProcess {
  private current: ServiceConnection | null = null;
  private child: ForkedProcess | null = null;
  private stopping = false;
  private restarts = 0;

  constructor(private readonly options: EmbeddedLauncherOptions) {}

  /** Null until the service is up (or after it stopped). */
  connection(): ServiceConnection | null {
    return this.current;
  }

  /** Resolves when the service answers, rejects with the reason when it cannot start. */
  start(): Promise<ServiceConnection> {
    this.stopping = false;
    const { fork, startTimeoutMs = 60_000, dataDir, simSpeed, seed } = this.options;
    const options: EmbeddedProcessOptions = { dataDir, simSpeed, seed };
    const child = fork({ [OPTIONS_ENV]: JSON.stringify(options) });
    this.child = child;
    return new Promise((resolve, reject) => {
      let settled = false;
      const timer = setTimeout(() => {
        if (settled) return;
        settled = true;
        child.kill();
        reject(new Error('The built-in tracking service did not start within a minute.'));
      }, startTimeoutMs);
      child.onMessage((raw) => {
        const message = raw as EmbeddedProcessMessage;
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        if (message.type === 'ready') {
          this.current = { baseUrl: message.baseUrl, apiKey: message.apiKey };
          this.restarts = 0;
          this.options.onSimulatedTime?.(message.simNow, message.simSpeed);
          this.options.onState?.({ up: true, message: null });
          resolve(this.current);
        } else {
          reject(new Error(`The built-in tracking service failed to start: ${message.message}`));
        }
      });
      child.onExit((code) => {
        this.current = null;
        if (!settled) {
          settled = true;
          clearTimeout(timer);
          reject(new Error(`The built-in tracking service exited (code ${String(code)}).`));
          return;
        }
        if (this.stopping || this.child !== child) return;
        this.options.onState?.({
          up: false,
          message: `The built-in tracking service stopped (code ${String(code)}); restarting.`,
        });
        if (this.restarts++ < (this.options.maxRestarts ?? 3)) {
          this.start().catch((error: unknown) =>
            this.options.onState?.({ up: false, message: (error as Error).message }),
          );
        }
      });
    });
  }

  /** Asks the process to shut down cleanly, and kills it if it has not within 5 s. */
  stop(): Promise<void> {
    this.stopping = true;
    this.current = null;
    const child = this.child;
    this.child = null;
    if (!child) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        child.kill();
        resolve();
      }, 5_000);
      child.onExit(() => {
        clearTimeout(timer);
        resolve();
      });
      child.send({ type: 'shutdown' });
    });
  }
}
