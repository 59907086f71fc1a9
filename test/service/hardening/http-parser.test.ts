/**
 * Requests Node's HTTP parser answers on its own (no Host header, an unknown Expect, CONNECT,
 * garbage) still get a JSON:API error document, over a raw socket.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/service';

let t: TestService;
beforeAll(async () => {
  t = await startTestService();
});
afterAll(async () => t?.close());

/** Sends raw bytes and collects everything until the server closes (bounded by a timeout). */
function raw(request: string): Promise<{ status: number; headers: string; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(t.service.port, '127.0.0.1');
    let data = '';
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no complete answer within 10 s: ${JSON.stringify(data)}`));
    }, 10_000);
    socket.on('data', (chunk) => (data += chunk.toString()));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      const [head = '', body = ''] = data.split('\r\n\r\n');
      resolve({ status: Number(/^HTTP\/1\.1 (\d+)/.exec(head)?.[1]), headers: head, body });
    });
    socket.write(request);
  });
}

function expectJsonApiError(
  res: { status: number; headers: string; body: string },
  status: number,
) {
  expect(res.status).toBe(status);
  expect(res.headers).toMatch(/content-type: application\/vnd\.api\+json/i);
  const doc = JSON.parse(res.body) as {
    errors: { status: string; title: string; detail: string }[];
  };
  expect(doc.errors[0]!.status).toBe(String(status));
  expect(doc.errors[0]!.title).not.toBe('Error');
  expect(doc.errors[0]!.detail).toBeTruthy();
}

describe('answers from the HTTP parser', () => {
  it('a malformed HEAD request gets a 400 with headers only', async () => {
    const res = await raw(`HEAD /v2/shipments HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n`);
    expect(res.status).toBe(400);
    expect(res.headers).toMatch(/content-type: application\/vnd\.api\+json/i);
    expect(res.body).toBe('');
  });

  it('a HEAD request Fastify refuses gets a 400 with headers only', async () => {
    for (const path of ['/v2/%zz', `/v2/containers?include=nothing`]) {
      const res = await raw(
        `HEAD ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Token ${t.keyA}\r\nConnection: close\r\n\r\n`,
      );
      expect(res.status).toBe(400);
      expect(res.body).toBe('');
    }
  });

  it('no Host header on HTTP/1.1 is a JSON:API 400', async () => {
    expectJsonApiError(
      await raw(
        `GET /v2/shipments HTTP/1.1\r\nAuthorization: Token ${t.keyA}\r\nConnection: close\r\n\r\n`,
      ),
      400,
    );
  });

  it('an Expect other than 100-continue is a JSON:API 417', async () => {
    expectJsonApiError(
      await raw(
        `GET /v2/shipments HTTP/1.1\r\nHost: x\r\nExpect: 999-weird\r\nConnection: close\r\n\r\n`,
      ),
      417,
    );
  });

  it('CONNECT is a JSON:API 405', async () => {
    const res = await raw('CONNECT 127.0.0.1:22 HTTP/1.1\r\nHost: 127.0.0.1:22\r\n\r\n');
    expectJsonApiError(res, 405);
  });

  it('a malformed request line is a JSON:API 400', async () => {
    expectJsonApiError(await raw('GARBAGE\r\n\r\n'), 400);
  });

  it('HTTP/1.0 without Host and requests with Host still work', async () => {
    const old = await raw(`GET /v2/shipments HTTP/1.0\r\nAuthorization: Token ${t.keyA}\r\n\r\n`);
    expect(old.status).toBe(200);
    expect((await t.get('/shipments')).status).toBe(200);
  });
});
