/**
 * The Fastify application: /v2 routes, Token auth, per-account limits, JSON:API errors for every
 * failure (including Fastify's own validation and body parsing errors) and the served OpenAPI.
 */
import { Readable } from 'node:stream';
import swagger from '@fastify/swagger';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, {
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';
import { containerActionRoutes } from './api/container-actions';
import { chargesRoutes } from './api/charges';
import { containerRoutes } from './api/containers';
import { customFieldRoutes } from './api/custom-fields';
import { documentSchemaRoutes } from './api/document-schemas';
import { documentsRoutes } from './api/documents';
import { emailSubmissionRoutes } from './api/email-submissions';
import { JSON_API, JSON_API_UTF8 } from './api/http';
import { serializeDocument } from './jsonapi/document';
import { API_PREFIX } from './resources/render';
import { partyRoutes } from './api/parties';
import { referenceRoutes } from './api/reference';
import { searchRoutes } from './api/search';
import { shipmentRoutes } from './api/shipments';
import { trackingRequestRoutes } from './api/tracking-requests';
import { vesselRouteRoutes } from './api/vessel-routes';
import { webhookIpRoutes } from './api/webhook-ips';
import { webhookRoutes } from './api/webhooks';
import { MCP_PATH, registerMcpRoute } from './mcp/route';
import type { ServiceContext } from './context';
import { answerClientError, answerParserEdges, requireHostHeader } from './http-edges';
import { ApiError, boundedErrors, titleFor, type JsonApiErrorObject } from './jsonapi/errors';
import { RequestLimits } from './rate-limit';
import { operatorPlugin, type FeedMetrics } from './feeds/metrics';
import { CallbackVerifier, dcsaCallbackPlugin, storedReplayRecord } from './feeds/dcsa/callback';
import { CALLBACK_PATH, type LineSubscriptions } from './tracking/subscriptions';
import { isStoreUnavailable } from './store/dialect';
import { endConnectionsOnClose } from '../shared/server-close';
import { LazyValidators } from './api/lazy-validators';

/** How long a closing service lets requests still running finish before it cuts them. */
const SHUTDOWN_GRACE_MS = 10_000;

const TOKEN_RE = /^Token\s+(\S+)\s*$/i;

declare module 'fastify' {
  interface FastifyInstance {
    /** The routes' validators, built on each route's first request (api/lazy-validators.ts). */
    validators: LazyValidators;
  }
  interface FastifyRequest {
    /** A rate-limit take running beside the request: null once allowed, else the error. */
    pendingTake?: Promise<unknown>;
  }
  interface FastifyContextConfig {
    /** Counts against the tracking request creation limit. */
    trackingRequestCreation?: boolean;
    /** Counts against the container refresh limit. */
    containerRefresh?: boolean;
    /** Authorized by a signed link in the url instead of an API key. */
    signedLink?: boolean;
  }
}

/** Ajv validation error -> where it points (body pointer or query parameter) and a message. */
function validationErrors(error: FastifyError): {
  status: number;
  errors: Omit<JsonApiErrorObject, 'status' | 'title'>[];
} {
  const context = error.validationContext;
  const items = error.validation ?? [];
  const errors = items.map((v) => {
    const params = v.params as Record<string, unknown>;
    const missing = typeof params.missingProperty === 'string' ? params.missingProperty : undefined;
    const path = `${v.instancePath}${missing ? `/${missing}` : ''}`;
    const field = path.split('/').filter(Boolean).pop() ?? context ?? 'value';
    const allowed = Array.isArray(params.allowedValues)
      ? `: one of ${(params.allowedValues as unknown[]).join(', ')}`
      : '';
    const detail = missing
      ? `${field} is required`
      : `${field} ${v.message ?? 'is invalid'}${allowed}`;
    if (context === 'body') return { detail, source: { pointer: path || '/' } };
    const parameter = path.replace(/^\//, '') || context || 'query';
    return { detail, source: { parameter } };
  });
  // Bodies that parse but do not fit the schema are unprocessable; bad query or path is a 400.
  return { status: context === 'body' ? 422 : 400, errors };
}

/** A failure's answer: its status, error objects and headers. */
interface ErrorAnswer {
  status: number;
  errors: Omit<JsonApiErrorObject, 'status' | 'title'>[];
  headers?: Record<string, string>;
}

/**
 * Puts a failure's status, headers and type on the reply and returns its error document,
 * bounded in size whatever the request quoted (`boundedErrors`): to be sent, or returned from
 * an `onSend` hook in place of the payload.
 */
function errorReply(reply: FastifyReply, { status, errors, headers = {} }: ErrorAnswer) {
  for (const [k, v] of Object.entries(headers)) reply.header(k, v);
  reply.code(status).type(JSON_API_UTF8);
  return serializeDocument({
    errors: boundedErrors(errors).map((e) => ({
      status: String(status),
      title: titleFor(status),
      ...e,
    })),
  });
}

function sendErrors(reply: FastifyReply, status: number, errors: ErrorAnswer['errors']) {
  return reply.send(errorReply(reply, { status, errors }));
}

/** What a failure is answered with. */
function errorAnswer(error: unknown, request: FastifyRequest, bodyLimitBytes: number): ErrorAnswer {
  if (error instanceof ApiError) {
    return { status: error.status, errors: error.errors, headers: error.headers };
  }
  const fastifyError = error as FastifyError;
  if (fastifyError.validation) return validationErrors(fastifyError);
  if (isStoreUnavailable(error)) {
    // The database is unreachable or too slow right now: the request may be retried.
    request.log.warn({ err: error }, 'database unavailable');
    return {
      status: 503,
      errors: [{ detail: 'The database is unavailable; retry shortly' }],
      headers: { 'retry-after': '5' },
    };
  }
  const status =
    fastifyError.statusCode && fastifyError.statusCode >= 400 && fastifyError.statusCode < 500
      ? fastifyError.statusCode
      : 500;
  if (status === 500) request.log.error({ err: error }, 'unhandled error');
  const detail =
    status === 500
      ? 'The service could not complete the request'
      : fastifyError.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE'
        ? `Unsupported content type; send ${JSON_API} or application/json`
        : fastifyError.code === 'FST_ERR_CTP_BODY_TOO_LARGE'
          ? `Request body is larger than ${bodyLimitBytes} bytes`
          : fastifyError.message;
  return { status, errors: [{ detail }] };
}

export function buildApp(
  ctx: ServiceContext,
  options: {
    logger?: FastifyServerOptions['loggerInstance'];
    /** Served at /metrics with /healthz beside it (no API key, as any scrape target). */
    metrics?: FeedMetrics;
    /** Whether the database answers, reported (and decisive) at /healthz. */
    databaseHealth?: () => Promise<{ ok: boolean; detail?: string }>;
    /** Carrier subscriptions whose signed callbacks are answered under CALLBACK_PATH. */
    lineSubscriptions?: LineSubscriptions;
  } = {},
): FastifyInstance {
  const validators = new LazyValidators();
  const app = Fastify({
    ...(options.logger ? { loggerInstance: options.logger } : { logger: false }),
    bodyLimit: ctx.config.bodyLimitBytes,
    ajv: {
      customOptions: {
        strict: false,
        coerceTypes: 'array',
        removeAdditional: false,
        // The route schemas are fixed in the code and a test checks each one against the
        // meta-schema (lazy-validators.test.ts); compiling the meta-schema for that at every
        // start cost about a fifth of a second.
        validateSchema: false,
      },
    },
    schemaController: { compilersFactory: { buildValidator: validators.buildValidator } },
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    // Errors Fastify raises before routing (malformed url, over-long path parameter) get the
    // same JSON:API error body as everything else.
    frameworkErrors: (error, _request, reply) => {
      const status = error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 414 : 400;
      const detail =
        status === 414 ? 'A path parameter is too long' : 'The request url is not valid';
      return sendErrors(reply, status, [{ detail }]);
    },
    // Requests the HTTP parser rejects never reach Fastify; answer them as JSON:API too.
    clientErrorHandler: answerClientError,
    http: { requireHostHeader: false },
  });

  app.decorate('validators', validators);
  answerParserEdges(app.server);
  // A shutdown (SIGTERM, a rolling restart) is not held up by a balancer's keep-alive connection.
  endConnectionsOnClose(app, SHUTDOWN_GRACE_MS);
  app.addHook('onRequest', requireHostHeader);

  // Responses are pre-serialized strings; schemas are for validation and the OpenAPI document.
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  // Only JSON bodies are accepted; anything else is a 415.
  app.removeContentTypeParser(['text/plain']);
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser(
    JSON_API,
    { parseAs: 'string', bodyLimit: ctx.config.bodyLimitBytes },
    (request, body, done) => {
      // JSON:API: a request naming an extension (`ext`) the server does not support is a 415.
      if (/;\s*ext\s*=/i.test(request.headers['content-type'] ?? '')) {
        done(new ApiError(415, 'This service supports no JSON:API extensions (ext)'), undefined);
        return;
      }
      parseJson(request, body as string, done);
    },
  );

  const limits = new RequestLimits(ctx.wallClock, ctx.config, ctx.stores.sharedRateLimits);

  app.setErrorHandler((error: FastifyError, request, reply) => {
    return reply.send(errorReply(reply, errorAnswer(error, request, ctx.config.bodyLimitBytes)));
  });

  app.setNotFoundHandler((request, reply) =>
    sendErrors(reply, 404, [
      { detail: `No route for ${request.method} ${request.url.split('?')[0]}` },
    ]),
  );

  app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Quayside tracking service',
        version: '0.2.0',
        description:
          'Container tracking API under /v2 in JSON:API layout, compatible with the reference container tracking API. Members and parameters marked `x-quayside-extension` are Quayside additions (e.g. `updated_at` and `filter[updated_at][start]` for efficient sync).',
      },
      servers: [{ url: API_PREFIX }],
      components: {
        securitySchemes: {
          authorization: {
            type: 'apiKey',
            in: 'header',
            name: 'Authorization',
            description: 'Use `Authorization: Token YOUR_API_KEY`.',
          },
        },
      },
      security: [{ authorization: [] }],
    },
    // Paths are documented relative to the server URL (which ends in /v2).
    transform: ({ schema, url }) => ({
      schema,
      url: url.startsWith(API_PREFIX) ? url.slice(API_PREFIX.length) || '/' : url,
    }),
  });

  /** The API key check and per-account limits of every /v2 route and of /mcp. */
  const authenticate = async (request: FastifyRequest, { overlapReads = false } = {}) => {
    limits.checkAddress(request.ip);
    if (request.routeOptions.config.signedLink) return;
    const match = TOKEN_RE.exec(request.headers.authorization ?? '');
    const account = match ? await ctx.accounts.byKey(match[1]!) : undefined;
    if (!account) {
      limits.recordAuthFailure(request.ip);
      throw new ApiError(401, 'Invalid or missing API token.');
    }
    request.account = account;
    request.apiKey = match![1]!;
    // A read need not wait for its take when the shared budget surely has room: the take's
    // round trip runs beside the route's own reads, and its outcome is awaited before sending.
    const overlapped =
      overlapReads && (request.method === 'GET' || request.method === 'HEAD')
        ? limits.overlapRequestTake(account.id)
        : undefined;
    if (overlapped) request.pendingTake = overlapped;
    else await limits.takeRequest(account.id);
    if (request.routeOptions.config.trackingRequestCreation) {
      await limits.takeTrackingRequestCreation(account.id);
    }
    if (request.routeOptions.config.containerRefresh) await limits.takeContainerRefresh(account.id);
  };

  app.register(
    async (v2) => {
      v2.addHook('onRequest', async (request) => {
        if (request.routeOptions.url === `${API_PREFIX}/openapi.json`) return;
        await authenticate(request, { overlapReads: true });
      });
      // A request whose take ran beside it (authenticate) is answered only once the take
      // allowed it; over the limit after all, what it read is dropped for the 429.
      v2.addHook('onSend', async (request, reply, payload) => {
        const pending = request.pendingTake;
        if (!pending) return payload;
        request.pendingTake = undefined;
        const refused = await pending;
        if (refused === null) return payload;
        // A file being streamed is not sent: let go of it.
        if (payload instanceof Readable) payload.destroy();
        return errorReply(reply, errorAnswer(refused, request, ctx.config.bodyLimitBytes));
      });

      v2.get('/openapi.json', { schema: { hide: true } }, async (_request, reply) =>
        reply.type('application/json').send(JSON.stringify(app.swagger())),
      );
      // Route modules are plugins typed by their schemas (see api/http.ts, ApiPlugin).
      const api = v2.withTypeProvider<TypeBoxTypeProvider>();
      await api.register(trackingRequestRoutes, { ctx });
      await api.register(customFieldRoutes, { ctx });
      await api.register(documentsRoutes, { ctx });
      await api.register(webhookRoutes, { ctx });
      await api.register(emailSubmissionRoutes, { ctx });
      await api.register(webhookIpRoutes, { ctx });
      await api.register(documentSchemaRoutes, { ctx });
      await api.register(partyRoutes, { ctx });
      await api.register(containerRoutes, { ctx });
      await api.register(containerActionRoutes, { ctx });
      await api.register(chargesRoutes, { ctx });
      await api.register(shipmentRoutes, { ctx });
      await api.register(referenceRoutes, { ctx });
      await api.register(vesselRouteRoutes, { ctx });
      await api.register(searchRoutes, { ctx });
    },
    { prefix: API_PREFIX },
  );
  app.register(
    async (mcp) => {
      mcp.addHook('onRequest', async (request) => authenticate(request));
      registerMcpRoute(mcp, app, ctx);
    },
    { prefix: MCP_PATH },
  );
  if (options.metrics)
    app.register(operatorPlugin, {
      metrics: options.metrics,
      database: options.databaseHealth,
    });
  const subscriptions = options.lineSubscriptions;
  if (subscriptions) {
    // A subscription another instance created is read from the store before verifying.
    app.addHook('preHandler', async (request) => {
      const params: unknown = request.params;
      const id =
        typeof params === 'object' && params !== null && 'subscriptionId' in params
          ? params.subscriptionId
          : undefined;
      if (typeof id === 'string' && request.url.startsWith(CALLBACK_PATH))
        await subscriptions.loadOne(id);
    });
    app.register(dcsaCallbackPlugin, {
      prefix: CALLBACK_PATH,
      // Accepted bodies are remembered in the store: a retry reaching any instance is a replay.
      verifier: new CallbackVerifier(
        (id) => subscriptions.lookup(id),
        storedReplayRecord(ctx.stores.callbackReceipts, () => ctx.clock.now()),
      ),
      sink: (delivery) => subscriptions.receive(delivery),
      onVerdict: (verdict) => {
        const source = verdict.scac ? `carrier ${verdict.scac}` : 'unknown subscription';
        options.metrics?.recordCallback(source, verdict.kind);
        // Refusals are recorded: a forged signature is worth an operator's look.
        if (verdict.kind === 'refused') {
          app.log.warn({ source, reason: verdict.reason }, 'subscription callback refused');
        }
        // A pushed body is told once (a replay is not accepted again), so each skip is too.
        if (verdict.kind === 'accepted') {
          for (const d of verdict.skipped) {
            const record = {
              kind: 'carrier' as const,
              source: verdict.scac,
              type: d.eventType,
              id: d.eventID,
              reason: d.reason,
            };
            app.log.warn(record, 'feed record skipped as unusable');
            options.metrics?.recordSkipped(record);
          }
        }
      },
    });
  }

  return app;
}
