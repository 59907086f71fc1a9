/** Messages between the app and its embedded service process. */
export interface EmbeddedProcessOptions {
  dataDir: string;
  simSpeed: number;
  seed: number;
  /** The earliest simulated time to resume at (the app's clock, which never moves backwards). */
  resumeAt?: number;
}

export type EmbeddedProcessMessage =
  | {
      type: 'ready';
      baseUrl: string;
      apiKey: string;
      /** The simulated world's time when it became ready, and its speed. */
      simNow: number;
      simSpeed: number;
    }
  | { type: 'failed'; message: string };

export type EmbeddedControlMessage = { type: 'shutdown' };

export const OPTIONS_ENV = 'QUAYSIDE_EMBEDDED_OPTIONS';
