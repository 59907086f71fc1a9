import type { FastifyInstance } from 'fastify';

/**
 * Lets a Fastify server close promptly. Fastify closes the connections idle at that moment, but
 * one still answering a request stays open afterwards for its keep-alive timeout (72 s by
 * default), and the close waits for it. From the start of the close every answer ends its
 * connection, and whatever is still open after `graceMs` is cut.
 */
export function endConnectionsOnClose(app: FastifyInstance, graceMs: number): void {
  let closing = false;
  let cutOff: ReturnType<typeof setTimeout> | undefined;
  app.addHook('preClose', (done) => {
    closing = true;
    cutOff = setTimeout(() => app.server.closeAllConnections(), graceMs);
    cutOff.unref();
    done();
  });
  app.addHook('onSend', async (_request, reply) => {
    if (closing) reply.header('Connection', 'close');
  });
  app.addHook('onClose', (_instance, done) => {
    clearTimeout(cutOff);
    done();
  });
}
