import net from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { BodyBufferPool } from '../../src/service/api/body-buffers';
import { serializeDocument } from '../../src/service/jsonapi/document';

/**
 * Bodies big enough that the loopback sockets cannot take them in while the client reads
 * nothing (a few MB fit), so the server's write stays unfinished.
 */
const STALLING_BYTES = 24 * 1024 * 1024;
const big = { pooledUpToBytes: 32 * 1024 * 1024, maxIdleBytes: 64 * 1024 * 1024 };

/** True when `text` is `length` times `mark` (a boolean: a failed diff of megabytes is no help). */
const allOf = (text: string, mark: string, length: number) =>
  text.length === length && text.split(mark).length === length + 1;

/** A document of about `bytes` bytes whose text says which one it is. */
const documentOf = (mark: string, bytes: number) => ({
  data: Array.from({ length: Math.ceil(bytes / 1000) }, (_, i) => ({
    id: String(i),
    type: 'container',
    attributes: { note: mark.repeat(1000) },
  })),
});

let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

async function listen(routes: (app: FastifyInstance) => void): Promise<number> {
  app = Fastify();
  routes(app);
  await app.listen({ host: '127.0.0.1', port: 0 });
  return (app.server.address() as net.AddressInfo).port;
}

/**
 * A client that sends its request and reads nothing until `resume()`. Its `body` resolves with
 * what followed the response's headers once the server has closed the connection.
 */
function stalledClient(port: number, path: string) {
  const socket = net.connect(port, '127.0.0.1');
  const chunks: Buffer[] = [];
  socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
  socket.pause();
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  const body = new Promise<string>((resolve, reject) => {
    socket.on('error', reject);
    socket.on('end', () => {
      const response = Buffer.concat(chunks).toString('utf8');
      resolve(response.slice(response.indexOf('\r\n\r\n') + 4));
    });
  });
  return { resume: () => socket.resume(), body };
}

/** Waits until `condition` holds, checking every few milliseconds (generous outer limit). */
async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('response body buffers', () => {
  it('does not write another response into a body a slow client is still reading', async () => {
    // Both bodies fall in one size class: were the first buffer given back before its response
    // finished, the second would be written over the bytes still to be sent.
    const pool = new BodyBufferPool(big);
    let underWay = 0;
    const port = await listen((app) =>
      app.get<{ Params: { mark: string } }>('/doc/:mark', (request, reply) => {
        underWay += 1;
        const document = documentOf(request.params.mark, STALLING_BYTES);
        return reply.send(serializeDocument(document, (length) => pool.take(length, reply)));
      }),
    );
    const slow = stalledClient(port, '/doc/a');
    await until(() => underWay === 1, 'the first response to be under way');
    const fast = await fetch(`http://127.0.0.1:${port}/doc/b`);
    const expected = (mark: string) => JSON.stringify(documentOf(mark, STALLING_BYTES));
    expect((await fast.text()) === expected('b'), 'the second body as sent').toBe(true);
    slow.resume();
    expect((await slow.body) === expected('a'), 'the first body intact').toBe(true);
  });

  it('uses a buffer again once its response has finished, and not before', async () => {
    const pool = new BodyBufferPool(big);
    const taken: Buffer[] = [];
    const port = await listen((app) =>
      app.get<{ Params: { mark: string } }>('/raw/:mark', (request, reply) => {
        const buffer = pool.take(STALLING_BYTES, reply)!;
        taken.push(buffer);
        buffer.fill(request.params.mark);
        return reply.send(buffer.subarray(0, STALLING_BYTES));
      }),
    );
    const first = await fetch(`http://127.0.0.1:${port}/raw/x`);
    expect((await first.arrayBuffer()).byteLength).toBe(STALLING_BYTES);
    await until(() => pool.heldBytes > 0, 'the first buffer to come back');
    const second = await fetch(`http://127.0.0.1:${port}/raw/y`);
    expect(allOf(await second.text(), 'y', STALLING_BYTES)).toBe(true);
    expect(taken[1] === taken[0], 'the same buffer').toBe(true);

    // A response still being written keeps its buffer: the next one gets another.
    const slow = stalledClient(port, '/raw/z');
    await until(() => taken.length === 3, 'the third response to be under way');
    await (await fetch(`http://127.0.0.1:${port}/raw/w`)).arrayBuffer();
    expect(taken[3] === taken[2], 'the same buffer').toBe(false);
    slow.resume();
    expect(allOf(await slow.body, 'z', STALLING_BYTES)).toBe(true);
  });

  it('keeps no more idle buffers than its budget, and pools neither small nor huge bodies', async () => {
    const pool = new BodyBufferPool({ maxIdleBytes: 1024 * 1024 });
    const answers: (Buffer | undefined)[] = [];
    const port = await listen((app) =>
      app.get('/sizes', (_request, reply) => {
        answers.push(pool.take(1024, reply), pool.take(64 * 1024 * 1024, reply));
        // Three of 512 KiB finish together: only two fit the budget when idle.
        for (let i = 0; i < 3; i++) pool.take(400 * 1024, reply);
        return reply.send('ok');
      }),
    );
    await (await fetch(`http://127.0.0.1:${port}/sizes`)).text();
    await until(() => pool.heldBytes > 0, 'the buffers to come back');
    expect(answers).toEqual([undefined, undefined]);
    expect(pool.heldBytes).toBe(1024 * 1024);
  });
});
