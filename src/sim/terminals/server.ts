/**
 * One HTTP server speaking the terminal feed contract (src/shared/feeds/terminal.ts) for every
 * marine terminal and rail ramp in the world: the facility answering is the one holding the box.
 */
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import { Value } from 'typebox/value';
import type { Clock } from '../../shared/clock';
import {
  TerminalQuery,
  type TerminalContainerStatus,
  type TerminalQueryResult,
} from '../../shared/feeds/terminal';
import { FaultInjector, type ErrorRates } from '../faults';
import type { World } from '../world/world';
import { terminalStatusAt } from './status';

export interface TerminalServerOptions {
  world: World;
  clock: Clock;
  host: string;
  port?: number;
  errorRates?: ErrorRates;
  authToken?: string;
}

export interface TerminalServer {
  app: FastifyInstance;
  baseUrl: string;
  close(): Promise<void>;
}

const CONTAINER_NUMBER = /^[A-Z]{4}[0-9]{7}$/;

export async function startTerminalServer(opts: TerminalServerOptions): Promise<TerminalServer> {
  const { world, clock } = opts;
  const faults = new FaultInjector(world.seed, 'terminals', opts.errorRates);
  const app = Fastify({ logger: false, forceCloseConnections: true });

  const statusOf = (number: string): TerminalContainerStatus | null => {
    const now = clock.now();
    const hit = world.findContainer(number, now);
    return hit ? terminalStatusAt(hit.shipment, hit.container, now) : null;
  };

  /** Auth, then the injected fate; returns true when the request has been answered. */
  const gate = (authorization: string | undefined, reply: FastifyReply): boolean => {
    if (opts.authToken && authorization !== `Bearer ${opts.authToken}`) {
      reply.status(401).send({ error: 'unauthorized', message: 'Missing or wrong bearer token' });
      return true;
    }
    const fate = faults.next();
    if (fate === 'server_error') {
      reply.status(502).send({
        error: 'upstream_unavailable',
        message: 'Terminal operating system did not answer',
      });
      return true;
    }
    if (fate === 'timeout') {
      reply.hijack();
      return true;
    }
    if (fate === 'malformed') {
      reply.status(200).header('content-type', 'application/json').send('{"container_number":"');
      return true;
    }
    return false;
  };

  app.get<{ Params: { number: string } }>('/containers/:number', async (req, reply) => {
    if (gate(req.headers.authorization, reply)) return reply;
    const number = req.params.number;
    if (!CONTAINER_NUMBER.test(number)) {
      return reply.status(400).send({
        error: 'invalid_container_number',
        message: 'Container numbers are 4 letters and 7 digits',
      });
    }
    const status = statusOf(number);
    if (!status)
      return reply
        .status(404)
        .send({ error: 'not_found', message: `${number} is not known at any facility here` });
    return reply.send(status);
  });

  app.post('/containers/query', async (req, reply) => {
    if (gate(req.headers.authorization, reply)) return reply;
    if (!Value.Check(TerminalQuery, req.body)) {
      const first = Value.Errors(TerminalQuery, req.body)[0];
      return reply.status(400).send({
        error: 'invalid_query',
        message: `${first?.instancePath || 'body'}: ${first?.message ?? 'invalid body'}`,
      });
    }
    const result: TerminalQueryResult = { containers: [], not_found: [] };
    for (const number of req.body.container_numbers) {
      const status = statusOf(number);
      if (status) result.containers.push(status);
      else result.not_found.push(number);
    }
    return reply.send(result);
  });

  app.setNotFoundHandler((req, reply) =>
    reply.status(404).send({ error: 'not_found', message: `No route ${req.method} ${req.url}` }),
  );
  app.setErrorHandler((err: { statusCode?: number; message: string }, _req, reply) => {
    const status =
      err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
    return reply
      .status(status)
      .send({ error: status === 500 ? 'internal_error' : 'bad_request', message: err.message });
  });

  await app.listen({ host: opts.host, port: opts.port ?? 0 });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { app, baseUrl: `http://${opts.host}:${port}`, close: () => app.close() };
}
