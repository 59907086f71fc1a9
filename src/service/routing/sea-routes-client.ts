/**
 * Sea routes for the service, computed on a worker thread (sea-route-worker.ts): building the
 * network graph takes a quarter of a second of CPU and a route a millisecond or two, so a burst of
 * routes (one for each vessel at sea, after a first sync) as long again; on the service's own
 * thread that held up every request meanwhile.
 *
 * The map builders stay synchronous (route-map.ts, future-positions.ts): they get a lookup that
 * answers from the routes computed so far and throws RouteNotKnown for one it does not have.
 * `withRoutes` runs a build, has the worker compute the route it missed, and runs the build
 * again. Routes are kept, so once a journey's routes are known its builds run once.
 */
import type { Worker } from 'node:worker_threads';
import type { Position } from 'geojson';
import {
  NoSeaRoute,
  RouteNotKnown,
  routeKey,
  type RouteLookup,
  type SeaRoute,
} from '../../shared/geo/sea-routes';
import { startWorkerThread } from '../../native/worker-entry';

export interface SeaRoutes {
  /**
   * Runs `build` with a lookup holding every route it asks for: missing routes are computed and
   * the build is run again. Rejects when the routes cannot be computed (the worker failed).
   */
  withRoutes<T>(build: (router: RouteLookup) => T): Promise<T>;
  /**
   * Resolves once routes can be computed without waiting for the network graph; the process
   * stays up meanwhile.
   */
  ready(): Promise<void>;
  /** Starts building the network graph, without keeping the process up for it. */
  warmUp(): void;
}

/** For tests and benches that hold a router of their own: builds run once, in process. */
export function inProcessSeaRoutes(router: RouteLookup): SeaRoutes {
  return { withRoutes: async (build) => build(router), ready: async () => {}, warmUp: () => {} };
}

/** Routes kept (and "no route" answers), oldest dropped first: as many as the router used to keep. */
const MAX_ROUTES = 2000;
/**
 * Builds in a row that may each find a route missing: a build stops at the first, so a journey
 * takes a round per route it needs (two or three per leg at most); the bound only ends a build
 * whose routes are dropped as fast as they come.
 */
const MAX_ROUNDS = 64;
/** How long a route may take, the graph build included, on a busy machine. */
const ROUTE_TIME_LIMIT_MS = 60_000;

type WorkerReply =
  | { ready: true }
  | { id: number; route: SeaRoute }
  | { id: number; noRoute: true }
  | { id: number; error: string };

interface Pending {
  resolve(route: SeaRoute | null): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
  worker: Worker;
}

class WorkerSeaRoutes implements SeaRoutes {
  private worker: Worker | undefined;
  private built: Promise<void> | undefined;
  /** By routeKey; null where the network has no route. */
  private readonly known = new Map<string, SeaRoute | null>();
  private readonly computing = new Map<string, Promise<void>>();
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;

  async withRoutes<T>(build: (router: RouteLookup) => T): Promise<T> {
    for (let round = 0; ; round++) {
      const missing = new Map<string, [Position, Position]>();
      const lookup: RouteLookup = {
        seaRoute: (from, to) => {
          const key = routeKey(from, to);
          const route = this.known.get(key);
          if (route) return route;
          if (route === null) throw new NoSeaRoute(from, to);
          missing.set(key, [from, to]);
          throw new RouteNotKnown(key);
        },
      };
      let outcome: { result: T } | { failure: unknown };
      try {
        outcome = { result: build(lookup) };
      } catch (failure) {
        outcome = { failure };
      }
      // Whatever a build made without a route it asked for is not the answer, even where it
      // caught the lookup's error and went on.
      if (missing.size === 0) {
        if ('failure' in outcome) throw outcome.failure;
        return outcome.result;
      }
      if (round + 1 >= MAX_ROUNDS) throw new Error('sea routes were dropped faster than computed');
      await Promise.all([...missing].map(([key, [from, to]]) => this.compute(key, from, to)));
    }
  }

  ready(): Promise<void> {
    const worker = this.start();
    this.hold(worker);
    return this.built!.finally(() => this.release(worker));
  }

  warmUp(): void {
    this.start();
  }

  /**
   * The worker keeps the process up only while someone waits on it (a route asked, ready()):
   * an idle worker, or one warming up, never does.
   */
  private holds = 0;
  private hold(worker: Worker): void {
    if (this.holds++ === 0) worker.ref();
  }
  private release(worker: Worker): void {
    if (--this.holds === 0) worker.unref();
  }

  private compute(key: string, from: Position, to: Position): Promise<void> {
    if (this.known.has(key)) return Promise.resolve();
    let computing = this.computing.get(key);
    if (!computing) {
      computing = this.ask(from, to)
        .then((route) => {
          if (this.known.size >= MAX_ROUTES) this.known.delete(this.known.keys().next().value!);
          this.known.set(key, route);
        })
        .finally(() => this.computing.delete(key));
      this.computing.set(key, computing);
    }
    return computing;
  }

  private ask(from: Position, to: Position): Promise<SeaRoute | null> {
    const worker = this.start();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.stop(
          worker,
          new Error(`no sea route computed within ${ROUTE_TIME_LIMIT_MS / 1000} s`),
        );
      }, ROUTE_TIME_LIMIT_MS);
      timer.unref();
      this.pending.set(id, { resolve, reject, timer, worker });
      this.hold(worker);
      worker.postMessage({ id, from: [from[0], from[1]], to: [to[0], to[1]] });
    });
  }

  private settle(id: number, outcome: { route: SeaRoute | null } | { error: Error }): void {
    const waiting = this.pending.get(id);
    if (!waiting) return;
    this.pending.delete(id);
    clearTimeout(waiting.timer);
    this.release(waiting.worker);
    if ('error' in outcome) waiting.reject(outcome.error);
    else waiting.resolve(outcome.route);
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const worker = startWorkerThread('sea-route-worker', import.meta.url, {
      resourceLimits: HEAP_LIMITS,
    });
    this.worker = worker;
    this.built = new Promise<void>((resolve, reject) => {
      worker.on('message', (reply: WorkerReply) => {
        if ('ready' in reply) resolve();
        else if ('route' in reply) this.settle(reply.id, { route: reply.route });
        else if ('noRoute' in reply) this.settle(reply.id, { route: null });
        else this.settle(reply.id, { error: new Error(`sea route: ${reply.error}`) });
      });
      const failed = (error: Error) => {
        reject(error);
        this.stop(worker, error);
      };
      worker.on('error', failed);
      worker.on('exit', (code) => failed(new Error(`the sea-route worker stopped (exit ${code})`)));
    });
    // Nobody may be waiting on it (a warm-up): a failure is reported to whoever asks next.
    this.built.catch(() => {});
    // Unreferenced once its listeners are on (adding them refers it again); see hold().
    worker.unref();
    return worker;
  }

  /** Ends a worker that failed or hung: its requests fail, the next one starts a fresh worker. */
  private stop(worker: Worker, error: Error): void {
    if (this.worker !== worker) return;
    this.worker = undefined;
    this.built = undefined;
    for (const id of [...this.pending.keys()]) this.settle(id, { error });
    void worker.terminate();
  }
}

/**
 * The graph takes about 13 MB once built. A small young generation keeps the worker's idle
 * footprint near that (with V8's default it stays about 40 MB larger: nothing allocates after
 * the build to prompt a collection); the old generation's cap ends a runaway worker, not the
 * service (the next route starts a fresh one).
 */
const HEAP_LIMITS = { maxYoungGenerationSizeMb: 8, maxOldGenerationSizeMb: 256 };

let shared: WorkerSeaRoutes | undefined;

/** The process's sea routes over the marine network, on one worker shared by every service. */
export function marineSeaRoutes(): SeaRoutes {
  shared ??= new WorkerSeaRoutes();
  return shared;
}
