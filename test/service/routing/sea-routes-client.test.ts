/**
 * The service's sea routes come from a worker thread (sea-routes-client.ts): the same routes the
 * in-process router finds, each computed once, with a build that needs several getting them all.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { marineSeaRoutes } from '../../../src/service/routing/sea-routes-client';
import { marineSeaRouter } from '../../../src/service/routing/network';
import { antimeridianCrossings } from '../../../src/shared/geo/antimeridian';
import { runModuleScript } from '../../support/module-script';

const SHANGHAI: [number, number] = [121.8, 31.2];
const LOS_ANGELES: [number, number] = [-118.26, 33.73];
const ROTTERDAM: [number, number] = [4.05, 51.95];

describe('sea routes on the routing worker', () => {
  it('answers a build needing several routes with the routes the in-process router finds', async () => {
    const routes = marineSeaRoutes();
    let builds = 0;
    const lengths = await routes.withRoutes((router) => {
      builds++;
      return [router.seaRoute(SHANGHAI, LOS_ANGELES), router.seaRoute(SHANGHAI, ROTTERDAM)].map(
        (route) => route.lengthKm,
      );
    });
    const local = marineSeaRouter();
    expect(lengths[0]).toBeCloseTo(local.seaRoute(SHANGHAI, LOS_ANGELES).lengthKm, 6);
    expect(lengths[1]).toBeCloseTo(local.seaRoute(SHANGHAI, ROTTERDAM).lengthKm, 6);
    // Run again for each route it did not have yet.
    expect(builds).toBe(3);
  }, 60_000);

  it('keeps what it computed: the next build runs once and gets the same route', async () => {
    const routes = marineSeaRoutes();
    const first = await routes.withRoutes((router) => router.seaRoute(SHANGHAI, LOS_ANGELES));
    let builds = 0;
    const again = await routes.withRoutes((router) => {
      builds++;
      return router.seaRoute([SHANGHAI[0], SHANGHAI[1]], [LOS_ANGELES[0] + 360, LOS_ANGELES[1]]);
    });
    expect(builds).toBe(1);
    expect(again).toBe(first);
    // Across the Pacific, not round the world: the path is unwrapped over the antimeridian.
    expect(antimeridianCrossings(first.path)).toEqual([]);
    expect(first.lengthKm).toBeLessThan(12_000);
  }, 60_000);

  it('passes on what a build throws that is not a missing route', async () => {
    await expect(
      marineSeaRoutes().withRoutes(() => {
        throw new TypeError('broken build');
      }),
    ).rejects.toThrow('broken build');
  });

  /** Runs a module script in a fresh Node process; resolves with how it ended. */
  const runScript = async (script: string) => {
    const { code, killed, stdout } = await runModuleScript(script);
    return { code, killed, out: stdout };
  };
  const client = JSON.stringify(
    fileURLToPath(new URL('../../../src/service/routing/sea-routes-client.ts', import.meta.url)),
  );

  it('never keeps a process alive once nothing waits on a route', async () => {
    // Started, a route got, then nothing left to do: the process ends by itself.
    const routed = await runScript(`
      const { marineSeaRoutes } = await import(${client});
      await marineSeaRoutes().ready();
      await marineSeaRoutes().withRoutes((router) => router.seaRoute([121.8, 31.2], [4.05, 51.95]));
      console.log('routed');`);
    expect(routed).toEqual({ code: 0, killed: false, out: 'routed\n' });
    // A warm-up (as a service starts one) neither: a closed service's process is not held.
    const warming = await runScript(`
      const { marineSeaRoutes } = await import(${client});
      marineSeaRoutes().warmUp();
      console.log('warming');`);
    expect(warming).toEqual({ code: 0, killed: false, out: 'warming\n' });
  }, 150_000);
});
