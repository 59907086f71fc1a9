/**
 * Answers for requests Node's HTTP parser handles before Fastify sees them, as JSON:API error
 * documents like every other answer: malformed requests (`clientError`), an `Expect` other than
 * `100-continue` (`checkExpectation`), `CONNECT` (`connect`), and HTTP/1.1 requests without a
 * Host header (the server's own Host check is switched off so the answer can have a body).
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import { JSON_API } from './api/http';
import { ApiError, titleFor } from './jsonapi/errors';

function errorBody(status: number, detail: string): string {
  return JSON.stringify({ errors: [{ status: String(status), title: titleFor(status), detail }] });
}

/**
 * Writes a complete error response straight to a socket and closes it. The answer to a HEAD
 * request has headers only (RFC 9110 9.3.2): body bytes would be read as the next response.
 */
function endSocket(
  socket: Duplex,
  status: number,
  detail: string,
  options: { extra?: string; head?: boolean } = {},
): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const body = errorBody(status, detail);
  socket.end(
    `HTTP/1.1 ${status} ${titleFor(status)}\r\nContent-Type: ${JSON_API}\r\n${options.extra ?? ''}` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${options.head ? '' : body}`,
  );
}

/** Fastify's `clientErrorHandler`: requests the HTTP parser rejects. */
export function answerClientError(error: Error, socket: Duplex): void {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ECONNRESET' || socket.destroyed) return;
  const status =
    code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
  // The parser hands over the bytes it read; the method is their first word.
  const packet = (error as { rawPacket?: unknown }).rawPacket;
  const head = Buffer.isBuffer(packet) && packet.toString('latin1', 0, 5) === 'HEAD ';
  endSocket(socket, status, 'Malformed HTTP request', { head });
}

/** Listens for the parser events whose default answers are empty or a closed connection. */
export function answerParserEdges(server: Server): void {
  server.on('checkExpectation', (request: IncomingMessage, response) => {
    const body = errorBody(
      417,
      `Expect: ${request.headers.expect ?? ''} is not supported; only 100-continue is`,
    );
    response.writeHead(417, {
      'Content-Type': JSON_API,
      'Content-Length': Buffer.byteLength(body),
      Connection: 'close',
    });
    response.end(body);
  });
  server.on('connect', (_request: IncomingMessage, socket: Duplex) => {
    endSocket(socket, 405, 'CONNECT is not supported', {
      extra: 'Allow: GET, POST, PATCH, DELETE\r\n',
    });
  });
}

/** onRequest hook: HTTP/1.1 requires a Host header (RFC 9112 section 3.2). */
export async function requireHostHeader(request: FastifyRequest): Promise<void> {
  if (request.raw.httpVersionMajor === 1 && request.raw.httpVersionMinor >= 1) {
    if (!request.headers.host) {
      throw new ApiError(400, 'HTTP/1.1 requests must have a Host header');
    }
  }
}
