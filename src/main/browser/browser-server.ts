/**
 * Browser mode: serves the built renderer on 127.0.0.1 and carries the bridge contract over HTTP
 * (requests: POST /bridge/<method>) and server-sent events (pushes: GET /bridge/events).
 *
 * Guarded by a per-launch token: bridge requests must carry it in `X-Quayside-Token`. The event
 * stream and document files (an EventSource and a new tab cannot set headers) take a cookie the
 * launch page sets (HttpOnly, SameSite=Strict), never a token in the url, which would land in
 * history. The cookie holds a value derived from the token, not the token: cookies do not keep
 * to a port, and what another local server might see of it opens no bridge call. Requests
 * naming another Host are refused, so a web page cannot reach the bridge through DNS rebinding.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { MAX_DOCUMENT_BYTES, sniffDocumentType } from '../../shared/documents';
import { MAX_SPREADSHEET_BYTES } from '../../shared/spreadsheet-import';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';
import type { BridgeReply } from '../../shared/bridge';
import { identifierOfLink, MAX_IDENTIFIER_LENGTH } from '../../shared/find-link';
import { endConnectionsOnClose } from '../../shared/server-close';
import type { AppCore } from '../core/app-core';
import { APP_ICON_ICO } from '../app-resources';

export const TOKEN_HEADER = 'x-quayside-token';

/** The renderer's CSP in browser mode; the Electron build carries the same policy in a meta tag. */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  // Leaflet positions map panes with inline style attributes.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

export interface BrowserServerOptions {
  core: AppCore;
  /** Folder with the built renderer (index.html and assets). */
  rendererDir: string;
  host?: string;
  port?: number;
  token?: string;
  /** The favicon (default: the app icon rendered by `npm run icons`). */
  faviconFile?: string;
}

export interface BrowserServer {
  app: FastifyInstance;
  url: string;
  origin: string;
  token: string;
  close(): Promise<void>;
}

const statusForReply = (reply: BridgeReply): number => {
  if (reply.ok) return 200;
  switch (reply.error.code) {
    case 'invalid_argument':
      return 400;
    case 'unknown_method':
      return 404;
    case 'forbidden':
      return 401;
    case 'superseded':
      // The request was fine and answered: a newer one took its place (the envelope says so).
      return 200;
    default:
      return 500;
  }
};

/** How long the closing app waits for bridge calls still running before it cuts them. */
const CLOSE_GRACE_MS = 2_000;

function tokensMatch(expected: Buffer, presented: unknown): boolean {
  if (typeof presented !== 'string') return false;
  const candidate = Buffer.from(presented);
  return candidate.length === expected.length && timingSafeEqual(candidate, expected);
}

/** The cookie's name: one per port, so two running copies never overwrite each other's. */
export const launchCookieName = (port: number): string => `quayside_launch_${port}`;

/** One cookie's value from a Cookie header, or undefined. */
function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

export async function startBrowserServer(options: BrowserServerOptions): Promise<BrowserServer> {
  const host = options.host ?? '127.0.0.1';
  const token = options.token ?? randomBytes(24).toString('base64url');
  const expectedToken = Buffer.from(token);
  const expectedCookie = Buffer.from(
    createHmac('sha256', token).update('quayside launch cookie').digest('base64url'),
  );
  let cookieName = '';
  /** Reads that cannot carry a header (the event stream, a document tab) show the cookie. */
  const hasLaunchCookie = (request: FastifyRequest): boolean =>
    tokensMatch(expectedCookie, cookieValue(request.headers.cookie, cookieName));
  const app = Fastify({ logger: false, bodyLimit: 1024 * 1024 });
  let allowedHosts = new Set<string>();
  const eventStreams = new Set<FastifyReply>();

  const refuse = (reply: FastifyReply, status: number, message: string) =>
    reply
      .code(status)
      .send({ ok: false, error: { code: 'forbidden', message } } satisfies BridgeReply);

  endConnectionsOnClose(app, CLOSE_GRACE_MS);

  app.addHook('onRequest', async (request, reply) => {
    if (!allowedHosts.has(request.headers.host ?? '')) {
      return refuse(reply, 403, 'This address is served for 127.0.0.1 only.');
    }
    reply.header('Content-Security-Policy', CONTENT_SECURITY_POLICY);
    reply.header('X-Content-Type-Options', 'nosniff');
    // The launch url carries the token: never leak it in a Referer.
    reply.header('Referrer-Policy', 'no-referrer');
    reply.header('Cache-Control', 'no-store');
    // The launch page: its url carries the token; the answer sets the cookie for the reads
    // that cannot send a header.
    const query = request.query as { token?: unknown } | undefined;
    if (request.method === 'GET' && tokensMatch(expectedToken, query?.token)) {
      reply.header(
        'Set-Cookie',
        `${cookieName}=${expectedCookie.toString()}; Path=/; HttpOnly; SameSite=Strict`,
      );
    }
    return undefined;
  });

  const bridgeRoute = async (method: string, request: FastifyRequest, reply: FastifyReply) => {
    if (!tokensMatch(expectedToken, request.headers[TOKEN_HEADER])) {
      return refuse(reply, 401, 'Missing or wrong launch token: open the url Quayside printed.');
    }
    const body = request.body as { argument?: unknown } | null | undefined;
    if (body === null || typeof body !== 'object' || Array.isArray(body)) {
      return reply.code(400).send({
        ok: false,
        error: {
          code: 'invalid_argument',
          message: 'The request body must be {"argument": ...}.',
        },
      } satisfies BridgeReply);
    }
    const result = await options.core.dispatch(method, body.argument);
    return reply.code(statusForReply(result)).send(result);
  };
  app.post('/bridge/:method', (request: FastifyRequest<{ Params: { method: string } }>, reply) =>
    bridgeRoute(request.params.method, request, reply),
  );
  // An upload carries the file in base64; only these methods get room for it.
  app.post(
    '/bridge/uploadDocument',
    { bodyLimit: Math.ceil(MAX_DOCUMENT_BYTES / 3) * 4 + 64 * 1024 },
    (request, reply) => bridgeRoute('uploadDocument', request, reply),
  );
  app.post(
    '/bridge/readTrackingSpreadsheet',
    { bodyLimit: Math.ceil(MAX_SPREADSHEET_BYTES / 3) * 4 + 64 * 1024 },
    (request, reply) => bridgeRoute('readTrackingSpreadsheet', request, reply),
  );

  // A find link: the renderer opens on what the identifier names (its find view resolves it).
  app.get(
    '/find',
    async (request: FastifyRequest<{ Querystring: { q?: string; token?: string } }>, reply) => {
      const { q, token } = request.query;
      if (!tokensMatch(expectedToken, token)) {
        return refuse(reply, 401, 'Missing or wrong launch token: open the url Quayside printed.');
      }
      const identifier = identifierOfLink(`/find?q=${encodeURIComponent(q ?? '')}`);
      if (!identifier) {
        return reply
          .code(400)
          .type('text/plain')
          .send(
            `Give what to find as q: a container, B/L, booking or reference number (at most ${MAX_IDENTIFIER_LENGTH} characters).`,
          );
      }
      return reply.redirect(
        `/?token=${encodeURIComponent(token as string)}#/find/${encodeURIComponent(identifier)}`,
      );
    },
  );

  // A cached document, for the tab to show (there is no OS viewer to hand it to).
  app.get(
    '/documents/:id/file',
    async (request: FastifyRequest<{ Params: { id: string } }>, reply) => {
      if (!hasLaunchCookie(request)) {
        return refuse(reply, 401, 'Missing or wrong launch cookie: open the url Quayside printed.');
      }
      const { documents } = options.core;
      const doc = /^[A-Za-z0-9-]{1,64}$/.test(request.params.id)
        ? documents.get(request.params.id)
        : null;
      if (!doc || !documents.hasFile(doc.id)) {
        return reply.code(404).type('text/plain').send('This document is not in the local cache.');
      }
      const bytes = readFileSync(documents.filePath(doc.id));
      const fileName = doc.fileName.replace(/[^\w.-]/g, '_');
      // The app's policy (object-src 'none') would keep the browser's own PDF viewer from
      // showing it; the response is a PDF or an image only, never a page of ours.
      reply.removeHeader('Content-Security-Policy');
      return reply
        .type(sniffDocumentType(bytes) ?? 'application/octet-stream')
        .header('Content-Disposition', `inline; filename="${fileName}"`)
        .send(bytes);
    },
  );

  app.get('/bridge/events', (request, reply) => {
    if (!hasLaunchCookie(request)) {
      return refuse(reply, 401, 'Missing or wrong launch cookie: open the url Quayside printed.');
    }
    reply.hijack();
    reply.raw.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      Connection: 'keep-alive',
      'X-Content-Type-Options': 'nosniff',
    });
    reply.raw.write(': connected\n\n');
    eventStreams.add(reply);
    const heartbeat = setInterval(() => reply.raw.write(': keep-alive\n\n'), 20_000);
    request.raw.on('close', () => {
      clearInterval(heartbeat);
      eventStreams.delete(reply);
    });
    return reply;
  });

  const unsubscribe = options.core.events.subscribe((event, payload) => {
    const frame = `event: ${event}\ndata: ${JSON.stringify(payload)}\n\n`;
    for (const stream of eventStreams) stream.raw.write(frame);
  });

  // Browsers ask for /favicon.ico on every page load: answer with the app icon, not a 404.
  const favicon = readFileSync(options.faviconFile ?? APP_ICON_ICO);
  app.get('/favicon.ico', async (_request, reply) =>
    reply.type('image/x-icon').header('Cache-Control', 'public, max-age=86400').send(favicon),
  );

  if (existsSync(options.rendererDir)) {
    // No Cache-Control of its own: the onRequest hook's no-store stays (the launch page's url
    // carries the token).
    await app.register(fastifyStatic, {
      root: options.rendererDir,
      index: ['index.html'],
      cacheControl: false,
    });
  } else {
    app.get('/', async (_request, reply) =>
      reply
        .code(503)
        .type('text/plain')
        .send('The renderer is not built yet: run `npm run build` (npm start does this for you).'),
    );
  }

  app.setNotFoundHandler((_request, reply) => reply.code(404).type('text/plain').send('Not found'));

  await app.listen({ host, port: options.port ?? 0 });
  const address = app.server.address();
  if (address === null || typeof address === 'string')
    throw new Error('browser server has no port');
  const origin = `http://${host}:${address.port}`;
  allowedHosts = new Set([`${host}:${address.port}`, `localhost:${address.port}`]);
  cookieName = launchCookieName(address.port);

  return {
    app,
    origin,
    token,
    url: `${origin}/?token=${token}`,
    async close() {
      unsubscribe();
      // An event stream never ends by itself: its socket goes with it.
      for (const stream of eventStreams) stream.raw.destroy();
      eventStreams.clear();
      await app.close();
    },
  };
}
