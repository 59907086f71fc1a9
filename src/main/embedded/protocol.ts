/** Messages between the app and its embedded service process. */
export interface EmbeddedProcessOptions {
  dataDir: string;
  simSpeed: number;
  seed: number;
}

export type EmbeddedProcessMessage =
  { type: 'ready'; baseUrl: string; apiKey: string } | { type: 'failed'; message: string };

export type EmbeddedControlMessage = { type: 'shutdown' };

export const OPTIONS_ENV = 'QUAYSIDE_EMBEDDED_OPTIONS';
