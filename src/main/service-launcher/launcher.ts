/**
 * Starts and supervises the embedded service process. The shell supplies how to fork (Node's
 * child_process in browser mode, Electron's utilityProcess in the app); everything else — the
 * ready handshake, the start timeout, restarts after a crash — is the same for both.
 *
 * The service is restarted for as long as the app runs: after an unexpected exit or a failed
 * start the next attempt waits a backoff (1 s doubling to 30 s, back to 1 s after a good start),
 * and `retryNow` (the user's "Sync now") skips the wait.
 */
import type { ServiceConnection } from '../connection/service-connection';
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

/** Where the embedded service stands, as the app reports it. */
export interface EmbeddedState {
  up: boolean;
  /** True while a (re)start is under way after the service went down. */
  restarting: boolean;
  /** Why it is not up, in plain words; null when up. */
  message: string | null;
  /** Wall-clock time (epoch ms) since when it has not been answering; null when up. */
  since: number | null;
}

export interface EmbeddedLauncherOptions extends Omit<EmbeddedProcessOptions, 'resumeAt'> {
  fork: Fork;
  /** Told whenever the state changes: up, down (waiting to restart), restarting. */
  onState?: (state: EmbeddedState) => void;
  /** Told the simulated world's time and speed whenever the service (re)starts. */
  onSimulatedTime?: (simNow: number, speed: number) => void;
  /**
   * The earliest simulated time the world may resume at (the app's clock), so a restart after a
   * crash never takes the app's time backwards.
   */
  resumeAt?: () => number;
  startTimeoutMs?: number;
  /** Wait before the first restart, doubled for each failure in a row up to `maxRestartDelayMs`. */
  restartDelayMs?: number;
  maxRestartDelayMs?: number;
}

const UP: EmbeddedState = { up: true, restarting: false, message: null, since: null };

export class EmbeddedServiceProcess {
  private current: ServiceConnection | null = null;
  private child: ForkedProcess | null = null;
  private stopping = false;
  /** Failed starts and unexpected exits since the service was last up. */
  private failures = 0;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private currentState: EmbeddedState = {
    up: false,
    restarting: true,
    message: 'The built-in tracking service is starting.',
    since: null,
  };

  constructor(private readonly options: EmbeddedLauncherOptions) {}

  /** Null until the service is up (or while it is down). */
  connection(): ServiceConnection | null {
    return this.current;
  }

  state(): EmbeddedState {
    return this.currentState;
  }

  /** Resolves when the service answers, rejects with the reason when this start fails. */
  start(): Promise<ServiceConnection> {
    this.stopping = false;
    this.cancelRetry();
    return this.launch();
  }

  /** Starts the next attempt now instead of after the backoff; false when none is waiting. */
  retryNow(): boolean {
    if (!this.retryTimer || this.stopping) return false;
    this.cancelRetry();
    this.restart();
    return true;
  }

  private setState(state: EmbeddedState): void {
    this.currentState = state;
    this.options.onState?.(state);
  }

  private cancelRetry(): void {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
  }

  private restart(): void {
    this.setState({
      ...this.currentState,
      up: false,
      restarting: true,
      message: 'Restarting the built-in tracking service.',
    });
    // A failure is reported through the state and schedules the next attempt.
    this.launch().catch(() => undefined);
  }

  /** Records that the service is down and schedules the next start after the backoff. */
  private scheduleRestart(reason: string): void {
    if (this.stopping) return;
    const initial = this.options.restartDelayMs ?? 1_000;
    const delay = Math.min(this.options.maxRestartDelayMs ?? 30_000, initial * 2 ** this.failures);
    this.failures++;
    this.setState({
      up: false,
      restarting: false,
      message: `${reason} Restarting in ${Math.max(1, Math.round(delay / 1000))} s.`,
      since: this.currentState.since ?? Date.now(),
    });
    this.cancelRetry();
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      if (!this.stopping) this.restart();
    }, delay);
    this.retryTimer.unref?.();
  }

  private launch(): Promise<ServiceConnection> {
    const { fork, startTimeoutMs = 60_000, dataDir, simSpeed, seed } = this.options;
    const resumeAt = this.options.resumeAt?.();
    const options: EmbeddedProcessOptions = {
      dataDir,
      simSpeed,
      seed,
      ...(resumeAt !== undefined ? { resumeAt } : {}),
    };
    const child = fork({ [OPTIONS_ENV]: JSON.stringify(options) });
    this.child = child;
    return new Promise((resolve, reject) => {
      let settled = false;
      let failure: string | null = null;
      const timer = setTimeout(() => {
        if (settled) return;
        settled = true;
        failure = 'The built-in tracking service did not start within a minute.';
        reject(new Error(failure));
        // Its exit schedules the next attempt.
        child.kill();
      }, startTimeoutMs);
      child.onMessage((raw) => {
        const message = raw as EmbeddedProcessMessage;
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        if (message.type === 'ready') {
          this.current = { baseUrl: message.baseUrl, apiKey: message.apiKey };
          this.failures = 0;
          this.options.onSimulatedTime?.(message.simNow, message.simSpeed);
          this.setState(UP);
          resolve(this.current);
        } else {
          failure = `The built-in tracking service failed to start: ${message.message}`;
          reject(new Error(failure));
        }
      });
      child.onExit((code) => {
        if (this.child !== child) return;
        this.child = null;
        this.current = null;
        const exited =
          code === null
            ? 'The built-in tracking service stopped unexpectedly.'
            : `The built-in tracking service exited (code ${String(code)}).`;
        if (!settled) {
          settled = true;
          clearTimeout(timer);
          reject(new Error(exited));
        }
        this.scheduleRestart(failure ?? exited);
      });
    });
  }

  /** Asks the process to shut down cleanly, and kills it if it has not within 5 s. */
  stop(): Promise<void> {
    this.stopping = true;
    this.cancelRetry();
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
