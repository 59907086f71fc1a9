/**
 * Probes every configured source once, the way the service will use it: carriers and terminals
 * through their configured auth with one lookup of a reference no source knows (a `not_found`
 * answer proves the endpoint and the credentials work), AIS TCP sources by connecting, AIS UDP
 * sources by binding their port. Each probe is bounded by a timeout and never throws.
 */
import { createSocket } from 'node:dgram';
import { connect, isIPv6 } from 'node:net';
import { aisSourceLabel } from './ais/sources';
import { DEFAULT_AIS_UDP_HOST } from './ais/udp';
import { createAuthenticator } from './auth';
import type { AisFeed, FeedsConfig } from './config/load';
import { DcsaClient } from './dcsa/client';
import { TerminalClient } from './terminal/client';

export interface ProbeResult {
  source: string;
  target: string;
  ok: boolean;
  detail: string;
  latencyMs: number;
}

/** A container number no carrier will have. */
export const PROBE_CONTAINER = 'QSPU0000000';
const PROBE_TIMEOUT_MS = 10_000;

export async function probeFeeds(config: FeedsConfig): Promise<ProbeResult[]> {
  const probes: Promise<ProbeResult>[] = [];
  for (const carrier of config.carriers) {
    probes.push(
      timed(`carrier ${carrier.scac}`, carrier.dcsaBaseUrl, async () => {
        const client = new DcsaClient(carrier.scac, {
          baseUrl: carrier.dcsaBaseUrl,
          signer: createAuthenticator(carrier.auth, { timeoutMs: PROBE_TIMEOUT_MS }),
          timeoutMs: carrier.timeoutMs ?? PROBE_TIMEOUT_MS,
          maxPages: 1,
          pageSize: 1,
        });
        const result = await client.lookup({ kind: 'equipmentReference', value: PROBE_CONTAINER });
        if (result.outcome === 'found' || result.outcome === 'not_found') {
          return { ok: true, detail: `auth ${carrier.auth.type}, lookup answered` };
        }
        return { ok: false, detail: `${result.outcome}: ${result.error}` };
      }),
    );
  }
  for (const terminal of config.terminals) {
    probes.push(
      timed(`terminal ${terminal.id}`, terminal.url, async () => {
        const client = new TerminalClient({
          baseUrl: terminal.url,
          signer: createAuthenticator(terminal.auth, { timeoutMs: PROBE_TIMEOUT_MS }),
          timeoutMs: terminal.timeoutMs ?? PROBE_TIMEOUT_MS,
        });
        const result = await client.getContainer(PROBE_CONTAINER);
        if (result.outcome === 'found' || result.outcome === 'not_found') {
          return { ok: true, detail: `auth ${terminal.auth.type}, lookup answered` };
        }
        return { ok: false, detail: `${result.outcome}: ${result.error}` };
      }),
    );
  }
  config.ais.forEach((source, index) => {
    probes.push(
      timed(`ais ${index} ${source.type}`, aisSourceLabel(source), () => probeAis(source)),
    );
  });
  return Promise.all(probes);
}

async function timed(
  source: string,
  target: string,
  run: () => Promise<{ ok: boolean; detail: string }>,
): Promise<ProbeResult> {
  const started = performance.now();
  let outcome: { ok: boolean; detail: string };
  try {
    outcome = await run();
  } catch (err) {
    outcome = { ok: false, detail: err instanceof Error ? err.message : String(err) };
  }
  return { source, target, ...outcome, latencyMs: Math.round(performance.now() - started) };
}

function probeAis(source: AisFeed): Promise<{ ok: boolean; detail: string }> {
  if (source.type === 'nmea_tcp') {
    return new Promise((resolve) => {
      const socket = connect({ host: source.host, port: source.port });
      const finish = (ok: boolean, detail: string): void => {
        socket.destroy();
        resolve({ ok, detail });
      };
      socket.setTimeout(PROBE_TIMEOUT_MS, () => finish(false, 'no connection within timeout'));
      socket.once('connect', () => finish(true, 'connected'));
      socket.once('error', (err) => finish(false, `cannot connect: ${err.message}`));
    });
  }
  return new Promise((resolve) => {
    const host = source.host ?? DEFAULT_AIS_UDP_HOST;
    const socket = createSocket(isIPv6(host) ? 'udp6' : 'udp4');
    socket.once('error', (err) => {
      socket.close();
      resolve({ ok: false, detail: `cannot listen: ${err.message}` });
    });
    socket.bind(source.port, host, () => {
      socket.close();
      resolve({ ok: true, detail: 'port can be bound for listening' });
    });
  });
}
