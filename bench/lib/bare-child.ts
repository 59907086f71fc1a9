/**
 * A bare Fastify server in a process of its own, sending fixed bytes for the container list and
 * detail paths and doing no other work (bare-process.ts starts it). Its 3-vs-1 ratio is what
 * adding processes costs on this machine before any of the service's own work. The bytes go
 * out as the service sends them: a list page as a Buffer, a detail document as a string.
 */
import Fastify from 'fastify';
import type { BareBodies } from './bare-process';

const bodies = await new Promise<BareBodies>((resolve) =>
  process.once('message', (message) => resolve(message as BareBodies)),
);
const listBytes = Buffer.from(bodies.list);
const app = Fastify();
app.get('/v2/containers', (_req, reply) => reply.type('application/vnd.api+json').send(listBytes));
app.get('/v2/containers/:id', (_req, reply) =>
  reply.type('application/vnd.api+json').send(bodies.detail),
);
await app.listen({ host: '127.0.0.1', port: 0 });
const address = app.server.address();
process.send!({ port: typeof address === 'object' && address ? address.port : 0 });
process.on('message', (message) => {
  if (message === 'cpu') {
    const { user, system } = process.cpuUsage();
    process.send!({ micros: user + system });
  } else void app.close().then(() => process.exit(0));
});
