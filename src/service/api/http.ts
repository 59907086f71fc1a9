/** Small helpers shared by the route modules. */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { ServiceContext } from '../context';
import { serializeDocument } from '../jsonapi/document';
import { BodyBufferPool } from './body-buffers';
import { ApiError } from '../jsonapi/errors';
import { collectionLinks, type Page } from '../jsonapi/pagination';
import type { Account } from '../store/accounts';

export const JSON_API = 'application/vnd.api+json';
/** What every JSON:API document is sent as: the media type with its charset named. */
export const JSON_API_UTF8 = `${JSON_API}; charset=utf-8`;

/** One pool for the process: what it holds is bounded, and any service's replies may share it. */
const bodyBuffers = new BodyBufferPool();

/**
 * A route module: a Fastify plugin whose handlers see their params, query and body typed from
 * the TypeBox schemas they declare (the schemas are also what Fastify validates against).
 */
export type ApiPlugin = FastifyPluginAsyncTypebox<{ ctx: ServiceContext }>;

/** The parts of a request a collection's links are built from. */
type CollectionRequest = Pick<FastifyRequest, 'url' | 'protocol' | 'host' | 'query'>;

/** The parsed query string as a record (Fastify's parser always gives an object). */
function queryRecord(query: unknown): Record<string, unknown> {
  return typeof query === 'object' && query !== null ? { ...query } : {};
}

/**
 * Serializes once (reusing the remembered JSON of cached resources; the text is that of
 * JSON.stringify) and sends with the JSON:API media type, its charset named.
 */
export function sendDocument(reply: FastifyReply, status: number, body: unknown): FastifyReply {
  const text = serializeDocument(body, (length) => bodyBuffers.take(length, reply));
  return reply.code(status).type(JSON_API_UTF8).send(text);
}

/** Plain JSON (not a JSON:API document), serialized by JSON.stringify. */
export function sendJson(reply: FastifyReply, status: number, body: unknown): FastifyReply {
  return reply.code(status).type('application/json').send(JSON.stringify(body));
}

/** JSON text serialized elsewhere (a stored or cached answer), sent as it is. */
export function sendJsonText(reply: FastifyReply, text: string | null): FastifyReply {
  return reply.code(200).type('application/json').send(text);
}

/** 304 Not Modified: the client's copy is current; no body. */
export function sendNotModified(reply: FastifyReply): FastifyReply {
  return reply.code(304).send();
}

/** 204 No Content: an empty answer. */
export function sendNoContent(reply: FastifyReply): FastifyReply {
  return reply.code(204).send();
}

/** A page of a collection: its `data` (and `included`) with pagination links and meta. */
export function sendCollection(
  request: CollectionRequest,
  reply: FastifyReply,
  page: Page,
  total: number,
  body: { data: unknown; included?: unknown },
  options: { selfWithoutPage?: boolean } = {},
): FastifyReply {
  return sendDocument(reply, 200, collectionDocument(request, page, total, body, options));
}

/** A page of a collection as a document: `body` with its pagination links and meta. */
export function collectionDocument(
  request: CollectionRequest,
  page: Page,
  total: number,
  body: { data: unknown; included?: unknown },
  options: { selfWithoutPage?: boolean } = {},
): object {
  return {
    ...body,
    links: collectionLinks(requestBase(request), queryRecord(request.query), page, total, options),
    meta: { size: page.size, total },
  };
}

/** A document serialized earlier (serializeDocument), sent as it is. */
export function sendSerializedDocument(reply: FastifyReply, body: Buffer | string): FastifyReply {
  return reply.code(200).type(JSON_API_UTF8).send(body);
}

/** The authenticated account (set by the auth hook on every /v2 route). */
export function accountOf(request: FastifyRequest): Account {
  const account = request.account;
  if (!account) throw new ApiError(401, 'Invalid or missing API token.');
  return account;
}

/** Absolute URL of the request path without the query, for collection links. */
export function requestBase(request: Pick<FastifyRequest, 'url' | 'protocol' | 'host'>): string {
  const path = request.url.split('?')[0]!;
  return `${request.protocol}://${request.host}${path}`;
}

export const IdParams = Type.Object({ id: Type.String() });

export { isUuid } from '../jsonapi/ids';

export const PageQuery = {
  'page[number]': Type.Optional(Type.Integer({ minimum: 1, default: 1 })),
  'page[size]': Type.Optional(
    Type.Integer({
      minimum: 1,
      default: 30,
      description: 'Values above 100 are truncated to 100.',
    }),
  ),
};
export const IncludeQuery = {
  include: Type.Optional(
    Type.String({
      description: 'Comma delimited list of relations to include (dotted paths allowed).',
    }),
  ),
};

/** Parses an ISO 8601 timestamp filter; a bad value is a 400 naming the parameter. */
export function isoFilter(value: string | undefined, parameter: string): string | undefined {
  if (value === undefined || value === '') return undefined;
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) {
    throw new ApiError(400, `${parameter} must be an ISO 8601 date-time`, {
      source: { parameter },
    });
  }
  return new Date(ms).toISOString();
}

declare module 'fastify' {
  interface FastifyRequest {
    account?: Account;
    apiKey?: string;
  }
}
