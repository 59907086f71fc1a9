import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { ScaledClock } from '../../src/shared/clock';
import { startSimWorld } from '../../src/sim';

describe('the world on a scaled clock (--sim-speed 3600)', () => {
  it('streams AIS ticks every quarter of a real second and serves events', async () => {
    const clock = new ScaledClock(Date.UTC(2026, 2, 10, 6), 3600);
    const sim = await startSimWorld({ seed: 5, clock });
    const socket = net.connect(sim.ais.port, sim.ais.host);
    try {
      let text = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => (text += chunk));
      await new Promise((r) => socket.once('connect', r));
      // The greeting holds one position report per ship; after ~0.8 s (48 simulated minutes) two
      // or three more 15-minute ticks must have arrived.
      await new Promise((r) => setTimeout(r, 800));
      const positions = text.split('\r\n').filter((l) => /^!AIVDM,1,1,,[AB],1/.test(l));
      const ships = sim.world.vessels().length;
      expect(positions.length).toBeGreaterThanOrEqual(ships * 2.5);
      const res = await fetch(`${sim.carriers.MSCU!.dcsaBaseUrl}/v2/events?limit=5`);
      expect(res.status).toBe(200);
    } finally {
      socket.destroy();
      await sim.close();
    }
  });
});
