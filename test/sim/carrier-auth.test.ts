import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/shared/clock';
import { createAuthenticator } from '../../src/service/feeds/auth';
import { parseFeedsConfig, type FeedsConfig } from '../../src/service/feeds/config';
import Fastify from 'fastify';
import { CallbackVerifier, dcsaCallbackPlugin } from '../../src/service/feeds/dcsa/callback';
import { DcsaClient } from '../../src/service/feeds/dcsa/client';
import type { DcsaEvent } from '../../src/shared/feeds/dcsa';
import { DcsaSubscriptionClient } from '../../src/service/feeds/dcsa/subscriptions';
import { startSimWorld, type RunningSimWorld } from '../../src/sim';
import { SimTokenIssuer } from '../../src/sim/carriers/auth';
import { buildEvents } from '../../src/sim/carriers/events';

const START = Date.UTC(2026, 2, 10, 6);
let clock: ManualClock;
let sim: RunningSimWorld;
let config: FeedsConfig;

beforeAll(async () => {
  clock = new ManualClock(START);
  sim = await startSimWorld({ seed: 42, clock, carrierAuth: true });
  config = parseFeedsConfig(sim.feedsDocument(), 'simulated world', {
    env: {},
    readFile: () => {
      throw new Error('no files');
    },
  });
});
afterAll(async () => {
  await sim.close();
});

/** A box of the carrier when it has one; an unknown number still proves the credentials. */
function boxOf(scac: string): string {
  const shipment = sim.world.model.shipments.find((s) => s.scac === scac && s.containers.length);
  return shipment?.containers[0]?.number ?? 'ABCU1234560';
}
const ANSWERED = ['found', 'not_found'];

function clientFor(scac: string, withAuth = true): DcsaClient {
  const carrier = config.carriers.find((c) => c.scac === scac)!;
  return new DcsaClient(scac, {
    baseUrl: carrier.dcsaBaseUrl,
    ...(withAuth ? { signer: createAuthenticator(carrier.auth) } : {}),
  });
}

describe('simulated carriers require authentication', () => {
  it('offers OAuth2, header-key and bearer carriers through a valid feeds document', () => {
    const kinds = config.carriers.map((c) => c.auth.type);
    expect(kinds[0]).toBe('oauth2_client_credentials');
    expect(kinds[1]).toBe('headers');
    expect(config.ais[0]?.type).toBe('nmea_tcp');
    expect(config.terminals[0]?.id).toBe('sim');
  });

  it('has boxes to track for most carriers', () => {
    const withBoxes = config.carriers.filter((c) => boxOf(c.scac) !== 'ABCU1234560');
    expect(withBoxes.length).toBeGreaterThan(0);
  });

  it('answers every carrier that presents its credentials and refuses those that do not', async () => {
    for (const carrier of config.carriers) {
      const box = boxOf(carrier.scac);
      const found = await clientFor(carrier.scac).lookup({
        kind: 'equipmentReference',
        value: box,
      });
      expect(ANSWERED, carrier.scac).toContain(found.outcome);
      const refused = await clientFor(carrier.scac, false).lookup({
        kind: 'equipmentReference',
        value: box,
      });
      expect(refused.outcome, carrier.scac).toBe('rejected');
    }
  });

  it('makes the OAuth2 client fetch a new token once its token is revoked', async () => {
    const scac = config.carriers[0]!.scac;
    const client = clientFor(scac);
    const box = boxOf(scac);
    expect(ANSWERED).toContain(
      (await client.lookup({ kind: 'equipmentReference', value: box })).outcome,
    );
    const issued = sim.carrierTokens.issued;
    sim.carrierTokens.revokeAll();
    expect(ANSWERED).toContain(
      (await client.lookup({ kind: 'equipmentReference', value: box })).outcome,
    );
    expect(sim.carrierTokens.issued).toBe(issued + 1);
  });

  it('refuses a wrong client secret at the token endpoint', async () => {
    const carrier = config.carriers[0]!;
    if (carrier.auth.type !== 'oauth2_client_credentials') throw new Error('auth type');
    const response = await fetch(carrier.auth.tokenUrl, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: carrier.auth.clientId.reveal(),
        client_secret: 'wrong',
      }).toString(),
    });
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ error: 'invalid_client' });
  });

  it('pushes signed events to a subscriber, the same events polling finds', async () => {
    const carrier = config.carriers.find((c) => c.subscriptions)!;
    expect(carrier.auth.type).toBe('headers');
    // A shipment of that carrier with events still to come.
    const shipment = sim.world.model.shipments.find(
      (s) =>
        s.scac === carrier.scac &&
        s.containers.length > 0 &&
        buildEvents(s, sim.world.model.seed).some((e) => e.createdAt > clock.now()),
    )!;
    const box = shipment.containers[0]!.number;
    const signer = createAuthenticator(carrier.auth);
    const poll = new DcsaClient(carrier.scac, { baseUrl: carrier.dcsaBaseUrl, signer });
    const idsNow = async (): Promise<string[]> => {
      const result = await poll.lookup({ kind: 'equipmentReference', value: box });
      return result.outcome === 'found' ? result.events.map((e) => String(e.eventID)) : [];
    };

    const received: DcsaEvent[] = [];
    const app = Fastify();
    let secret = '';
    await app.register(dcsaCallbackPlugin, {
      prefix: '/callbacks/dcsa',
      verifier: new CallbackVerifier(() => ({ scac: carrier.scac, secret })),
      sink: (d) => {
        received.push(...d.events);
        return Promise.resolve();
      },
    });
    await app.listen({ host: '127.0.0.1', port: 0 });
    try {
      const address = app.server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      const before = new Set(await idsNow());
      const subscriptions = new DcsaSubscriptionClient(carrier.scac, {
        baseUrl: carrier.dcsaBaseUrl,
        signer,
      });
      const created = await subscriptions.create(
        { kind: 'equipmentReference', value: box },
        `http://127.0.0.1:${port}/callbacks/dcsa/sub`,
      );
      if (created.outcome !== 'created') throw new Error(JSON.stringify(created));
      secret = created.secret;
      // Up to its next event, while the living world still holds the shipment.
      const next = Math.min(
        ...buildEvents(shipment, sim.world.model.seed)
          .map((e) => e.createdAt)
          .filter((t) => t > clock.now()),
      );
      clock.advance(next - clock.now() + 60_000);
      await sim.pushCarrierSubscriptions();
      const expected = (await idsNow()).filter((id) => !before.has(id));
      expect(expected.length).toBeGreaterThan(0);
      expect(received.map((e) => String(e.eventID)).sort()).toEqual(expected.sort());
      // Nothing new: nothing pushed twice.
      await sim.pushCarrierSubscriptions();
      expect(received).toHaveLength(expected.length);
      expect((await subscriptions.delete(created.subscriptionID)).outcome).toBe('deleted');
    } finally {
      await app.close();
    }
  });

  it('expires tokens after their lifetime', () => {
    let now = 0;
    const issuer = new SimTokenIssuer(60, () => now);
    const { access_token: token } = issuer.issue('MAEU');
    expect(issuer.valid('MAEU', token)).toBe(true);
    expect(issuer.valid('HLCU', token)).toBe(false);
    now += 60_000;
    expect(issuer.valid('MAEU', token)).toBe(false);
  });
});
