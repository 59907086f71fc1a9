/** Small helpers shared by the route modules. */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { serializeDocument } from '../jsonapi/document';
import { ApiError } from '../jsonapi/errors';
import { collectionLinks, type Page } from '../jsonapi/pagination';
import type { Account } from '../store/accounts';

export const JSON_API = 'application/vnd.api+json';

/**
 * Serializes once (reusing the remembered JSON of cached resources; the text is that of
 * JSON.stringify) and sends with the JSON:API media type, its charset named.
 */
export function sendDocument(reply: FastifyReply, status: number, body: unknown): FastifyReply {
  return reply.code(status).type(`${JSON_API}; charset=utf-8`).send(serializeDocument(body));
}

/** A page of a collection: its `data` (and `included`) with pagination links and meta. */
export function sendCollection(
  request: FastifyRequest,
  reply: FastifyReply,
  page: Page,
  total: number,
  body: { data: unknown; included?: unknown },
  options: { selfWithoutPage?: boolean } = {},
): FastifyReply {
  return sendDocument(reply, 200, {
    ...body,
    links: collectionLinks(
      requestBase(request),
      request.query as Record<string, unknown>,
      page,
      total,
      options,
    ),
    meta: { size: page.size, total },
  });
}

/** The authenticated account (set by the auth hook on every /v2 route). */
export function accountOf(request: FastifyRequest): Account {
  const account = request.account;
  if (!account) throw new ApiError(401, 'Invalid or missing API token.');
  return account;
}

/** Absolute URL of the request path without the query, for collection links. */
export function requestBase(request: FastifyRequest): string {
  const path = request.url.split('?')[0]!;
  return `${request.protocol}://${request.host}${path}`;
}

export const IdParams = Type.Object({ id: Type.String() });

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (value: string) => UUID_RE.test(value);

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
