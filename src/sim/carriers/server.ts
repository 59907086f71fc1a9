/**
 * Carriers' DCSA Track & Trace 2.2 endpoints, one base path per line:
 *
 *   GET {base}/v2/events                          event query with cursor pagination
 *   GET {base}/v2/events/{eventID}                one event
 *   GET {base}/x-import-deadlines/{equipmentRef}  the line's last free day (vendor extension)
 *
 * where {base} is /carriers/{SCAC}. Only events whose creation time has come are shown.
 */
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { Value } from 'typebox/value';
import type { Clock } from '../../shared/clock';
import { isoString } from '../../shared/clock';
import { DcsaEventsQuery } from '../../shared/feeds/dcsa';
import type { LineImportDeadlines } from '../../shared/feeds/line-deadlines';
import { FaultInjector, type ErrorRates } from '../faults';
import { lfdAt } from '../terminals/status';
import type { World } from '../world/world';
import { feedsAuthBlock, simCarrierAuth, SimTokenIssuer, type SimCarrierAuth } from './auth';
import { CarrierEventLog, type DcsaEventRecord } from './events';
import { SimSubscriptions } from './subscriptions';

export const DCSA_API_VERSION = '2.2.0';
const DEFAULT_LIMIT = 100;
const MAX_LIMIT = 1000;

type Query = Record<string, string>;

interface CursorState {
  /** The filters of the first page. */
  q: Query;
  /** Offset of the page. */
  o: number;
  /** The instant the first page was answered: later pages show the same snapshot. */
  t: number;
}

const encodeCursor = (c: CursorState): string =>
  Buffer.from(JSON.stringify(c)).toString('base64url');

function decodeCursor(text: string): CursorState | null {
  try {
    const c = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as CursorState;
    if (typeof c !== 'object' || c === null || typeof c.o !== 'number' || typeof c.t !== 'number')
      return null;
    if (typeof c.q !== 'object' || c.q === null || !Value.Check(DcsaEventsQuery, c.q)) return null;
    return c;
  } catch {
    return null;
  }
}

const list = (v: string | undefined): string[] | null => (v ? v.split(',') : null);

function matches(e: DcsaEventRecord, q: Query, now: number): boolean {
  const s = e.shipment;
  const body = e.body;
  const call = body.transportCall as Record<string, unknown> | undefined;
  const vessel = call?.vessel as Record<string, unknown> | undefined;
  const booking = q.carrierBookingReference ?? q.bookingReference;
  if (booking && (s.booking !== booking || now < s.bookingReceivedAt)) return false;
  // A bill of lading the line does not know yet finds nothing.
  if (
    q.transportDocumentReference &&
    (s.billOfLading !== q.transportDocumentReference || now < s.blKnownFrom)
  )
    return false;
  if (q.equipmentReference) {
    if (!s.containers.some((c) => c.number === q.equipmentReference)) return false;
    if (e.equipmentReference !== null && e.equipmentReference !== q.equipmentReference)
      return false;
  }
  const types = list(q.eventType);
  if (types && !types.includes(e.eventType)) return false;
  const codeFilter = (param: string, type: string): boolean => {
    const codes = list(q[param]);
    return !codes || (e.eventType === type && codes.includes(e.typeCode));
  };
  if (!codeFilter('shipmentEventTypeCode', 'SHIPMENT')) return false;
  if (!codeFilter('transportEventTypeCode', 'TRANSPORT')) return false;
  if (!codeFilter('equipmentEventTypeCode', 'EQUIPMENT')) return false;
  const docTypes = list(q.documentTypeCode);
  if (
    docTypes &&
    !(e.eventType === 'SHIPMENT' && docTypes.includes(body.documentTypeCode as string))
  )
    return false;
  if (q.transportCallID && call?.transportCallID !== q.transportCallID) return false;
  if (q.vesselIMONumber && vessel?.vesselIMONumber !== q.vesselIMONumber) return false;
  const voyage = q.carrierVoyageNumber ?? q.exportVoyageNumber;
  if (voyage && call?.carrierVoyageNumber !== voyage) return false;
  if (q.carrierServiceCode && call?.carrierServiceCode !== q.carrierServiceCode) return false;
  if (q.UNLocationCode && call?.UNLocationCode !== q.UNLocationCode) return false;
  const created = e.createdAt;
  const cmp: [string, (a: number, b: number) => boolean][] = [
    ['eventCreatedDateTime', (a, b) => a === b],
    ['eventCreatedDateTime:eq', (a, b) => a === b],
    ['eventCreatedDateTime:gte', (a, b) => a >= b],
    ['eventCreatedDateTime:gt', (a, b) => a > b],
    ['eventCreatedDateTime:lte', (a, b) => a <= b],
    ['eventCreatedDateTime:lt', (a, b) => a < b],
  ];
  for (const [param, op] of cmp) {
    // Compare at the second resolution the timestamps are published with.
    if (q[param] && !op(Math.floor(created / 1000), Math.floor(Date.parse(q[param]) / 1000)))
      return false;
  }
  return true;
}

export interface CarrierServerOptions {
  world: World;
  clock: Clock;
  host: string;
  port?: number;
  errorRates?: ErrorRates;
  /** When set, requests must carry `Authorization: Bearer <token>`. */
  authToken?: string;
  /**
   * Each carrier requires its own credentials (see auth.ts): OAuth2 client credentials with a
   * token endpoint at {base}/oauth2/token, an API-key header, or a bearer token.
   */
  carrierAuth?: boolean;
  /** Real seconds an issued OAuth2 token stays valid. */
  tokenLifetimeSeconds?: number;
}

export interface CarrierServer {
  app: FastifyInstance;
  baseUrl: string;
  carriers: Record<string, { dcsaBaseUrl: string }>;
  /** Per SCAC the credentials required, when `carrierAuth` is on. */
  credentials: Map<string, SimCarrierAuth>;
  tokens: SimTokenIssuer;
  subscriptions: SimSubscriptions;
  /** Pushes due subscription callbacks now (also runs every second); returns events pushed. */
  pushSubscriptions(): Promise<number>;
  /** The feeds document (as a user's YAML would parse) pointing at these carriers. */
  feedsDocument(): Record<string, unknown>;
  close(): Promise<void>;
}

export async function startCarrierServer(opts: CarrierServerOptions): Promise<CarrierServer> {
  const { world, clock } = opts;
  const log = new CarrierEventLog(world);
  const scacs = [...new Set(world.services.map((s) => s.spec.scac))].sort();
  const faults = new Map(
    scacs.map((scac) => [scac, new FaultInjector(world.seed, `dcsa:${scac}`, opts.errorRates)]),
  );

  const credentials: Map<string, SimCarrierAuth> = opts.carrierAuth
    ? simCarrierAuth(scacs, world.seed)
    : new Map();
  const tokens = new SimTokenIssuer(opts.tokenLifetimeSeconds);

  const app = Fastify({ logger: false, forceCloseConnections: true });
  const subscriptions = new SimSubscriptions();
  /** Carriers offering push: the API-key carrier, as Hapag-Lloyd-style portals do. */
  const offersSubscriptions = (scac: string): boolean => credentials.get(scac)?.type === 'header';

  const authorized = (scac: string, req: FastifyRequest): boolean => {
    const required = credentials.get(scac);
    if (!required) return true;
    const header = req.headers.authorization ?? '';
    switch (required.type) {
      case 'oauth2_client_credentials':
        return header.startsWith('Bearer ') && tokens.valid(scac, header.slice('Bearer '.length));
      case 'header':
        return req.headers[required.header.toLowerCase()] === required.key;
      case 'bearer':
        return header === `Bearer ${required.token}`;
    }
  };

  app.post<{ Params: { scac: string }; Body: Record<string, string> }>(
    '/carriers/:scac/oauth2/token',
    (req, reply) => {
      const required = credentials.get(req.params.scac);
      const form = req.body ?? {};
      if (required?.type !== 'oauth2_client_credentials') {
        return reply.status(404).send({ error: 'invalid_request' });
      }
      if (form.grant_type !== 'client_credentials') {
        return reply.status(400).send({ error: 'unsupported_grant_type' });
      }
      if (form.client_id !== required.clientId || form.client_secret !== required.clientSecret) {
        return reply.status(401).send({ error: 'invalid_client' });
      }
      return reply.header('Cache-Control', 'no-store').send(tokens.issue(req.params.scac));
    },
  );
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 4096 },
    (_req, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    },
  );

  const sendError = (
    req: FastifyRequest,
    reply: FastifyReply,
    status: number,
    reason: string,
    message: string,
  ): FastifyReply =>
    reply
      .status(status)
      .header('API-Version', DCSA_API_VERSION)
      .send({
        httpMethod: req.method,
        requestUri: req.url,
        errors: [{ reason: reason.slice(0, 100), message: message.slice(0, 200) }],
        statusCode: status,
        statusCodeText: statusText(status),
        errorDateTime: isoString(clock.now()),
      });

  /** Common gate: known carrier, auth, then the injected fate of this request. */
  const gate = (
    req: FastifyRequest<{ Params: { scac: string } }>,
    reply: FastifyReply,
  ): 'handled' | 'go' => {
    const scac = req.params.scac;
    const injector = faults.get(scac);
    if (!injector) {
      sendError(req, reply, 404, 'notFound', `No carrier with SCAC ${scac} here`);
      return 'handled';
    }
    if (opts.authToken && req.headers.authorization !== `Bearer ${opts.authToken}`) {
      sendError(req, reply, 401, 'unauthorized', 'Missing or wrong bearer token');
      return 'handled';
    }
    if (!authorized(scac, req)) {
      sendError(req, reply, 401, 'unauthorized', 'Missing, expired or wrong credentials');
      return 'handled';
    }
    const fate = injector.next();
    if (fate === 'server_error') {
      sendError(
        req,
        reply,
        503,
        'serviceUnavailable',
        'The carrier system is temporarily unavailable',
      );
      return 'handled';
    }
    if (fate === 'timeout') {
      // Never answer; the connection is dropped when the server closes.
      reply.hijack();
      return 'handled';
    }
    if (fate === 'malformed') {
      reply
        .status(200)
        .header('content-type', 'application/json')
        .header('API-Version', DCSA_API_VERSION)
        .send('[{"eventID":"');
      return 'handled';
    }
    return 'go';
  };

  app.get<{ Params: { scac: string }; Querystring: Query }>(
    '/carriers/:scac/v2/events',
    async (req, reply) => {
      if (gate(req, reply) === 'handled') return reply;
      const raw = req.query;
      if (!Value.Check(DcsaEventsQuery, raw)) {
        const first = Value.Errors(DcsaEventsQuery, raw)[0];
        const where = first?.instancePath ? first.instancePath.slice(1) : 'query';
        return sendError(
          req,
          reply,
          400,
          'invalidQuery',
          `${where}: ${first?.message ?? 'invalid query'}`,
        );
      }
      let state: CursorState;
      if (raw.cursor) {
        const decoded = decodeCursor(raw.cursor);
        if (!decoded)
          return sendError(
            req,
            reply,
            400,
            'invalidCursor',
            'cursor is not one this server issued',
          );
        state = decoded;
      } else {
        const { cursor: _cursor, ...q } = raw;
        state = { q, o: 0, t: clock.now() };
      }
      const q = state.q;
      const limit = Math.min(MAX_LIMIT, q.limit ? Number(q.limit) : DEFAULT_LIMIT);
      const [sortField, sortDir] = (q.sort ?? 'eventCreatedDateTime:ASC').split(':');
      const desc = sortDir === 'DESC';
      const all: DcsaEventRecord[] = log
        .eventsOf(req.params.scac, state.t)
        .filter((e) => e.createdAt <= state.t && matches(e, q, state.t))
        .sort((a, b) => {
          const d =
            sortField === 'eventDateTime'
              ? a.eventDateTime - b.eventDateTime
              : a.createdAt - b.createdAt;
          return (
            (desc ? -d : d) || (a.body.eventID as string).localeCompare(b.body.eventID as string)
          );
        });
      const page = all.slice(state.o, state.o + limit);
      const base = `http://${req.headers.host ?? opts.host}/carriers/${req.params.scac}/v2/events`;
      const link = (o: number): string => `${base}?cursor=${encodeCursor({ q, o, t: state.t })}`;
      reply.header('API-Version', DCSA_API_VERSION);
      reply.header('Current-Page', link(state.o));
      reply.header('First-Page', link(0));
      reply.header(
        'Last-Page',
        link(all.length === 0 ? 0 : Math.floor((all.length - 1) / limit) * limit),
      );
      if (state.o + limit < all.length) reply.header('Next-Page', link(state.o + limit));
      if (state.o > 0) reply.header('Prev-Page', link(Math.max(0, state.o - limit)));
      return reply.send(page.map((e) => e.body));
    },
  );

  app.get<{ Params: { scac: string; eventID: string } }>(
    '/carriers/:scac/v2/events/:eventID',
    async (req, reply) => {
      if (gate(req, reply) === 'handled') return reply;
      const now = clock.now();
      const found = log
        .eventsOf(req.params.scac, now)
        .find((e) => e.body.eventID === req.params.eventID && e.createdAt <= now);
      if (!found) return sendError(req, reply, 404, 'notFound', `No event ${req.params.eventID}`);
      return reply.header('API-Version', DCSA_API_VERSION).send(found.body);
    },
  );

  app.get<{ Params: { scac: string; equipmentReference: string } }>(
    '/carriers/:scac/x-import-deadlines/:equipmentReference',
    async (req, reply) => {
      if (gate(req, reply) === 'handled') return reply;
      const ref = req.params.equipmentReference;
      if (!/^[A-Z]{4}[0-9]{7}$/.test(ref))
        return sendError(
          req,
          reply,
          400,
          'invalidEquipmentReference',
          'equipmentReference must be 4 letters and 7 digits',
        );
      const now = clock.now();
      const hit = world.findContainer(ref, now);
      const plan = hit && hit.shipment.scac === req.params.scac ? hit.container.lineLfd : null;
      const lfd = plan ? lfdAt(plan, now) : null;
      if (!hit || !plan || lfd === null)
        return sendError(req, reply, 404, 'notFound', `No import deadlines published for ${ref}`);
      let updated = plan.setAt;
      for (const m of plan.moves) if (now >= m.at) updated = m.at;
      const body: LineImportDeadlines = {
        equipmentReference: ref,
        lastFreeDay: isoString(lfd),
        // The line's free time runs at the port of discharge, also for boxes moving on by rail.
        locode: hit.shipment.pod,
        updatedDateTime: isoString(updated),
      };
      return reply.send(body);
    },
  );

  app.post<{ Params: { scac: string } }>('/carriers/:scac/v2/event-subscriptions', (req, reply) => {
    if (gate(req, reply) === 'handled') return reply;
    if (!offersSubscriptions(req.params.scac)) {
      return sendError(req, reply, 404, 'notFound', 'This carrier offers no subscriptions');
    }
    const created = subscriptions.create(req.params.scac, req.body, clock.now());
    if (!created.ok) return sendError(req, reply, 400, 'invalidSubscription', created.message);
    const { secret: _secret, pushedUntil: _p, filter, ...rest } = created.subscription;
    return reply
      .status(201)
      .header('API-Version', DCSA_API_VERSION)
      .send({ ...rest, ...filter });
  });
  app.delete<{ Params: { scac: string; id: string } }>(
    '/carriers/:scac/v2/event-subscriptions/:id',
    (req, reply) => {
      if (gate(req, reply) === 'handled') return reply;
      if (!subscriptions.delete(req.params.scac, req.params.id)) {
        return sendError(req, reply, 404, 'notFound', 'No such subscription');
      }
      return reply.status(204).send();
    },
  );

  const pushSubscriptions = (): Promise<number> => {
    const now = clock.now();
    return subscriptions.push(now, (scac, filter) =>
      log.eventsOf(scac, now).filter((e) => e.createdAt <= now && matches(e, filter, now)),
    );
  };
  let pushing = false;
  const pushTimer = setInterval(() => {
    if (pushing || subscriptions.all().length === 0) return;
    pushing = true;
    void pushSubscriptions().finally(() => {
      pushing = false;
    });
  }, 1_000);
  pushTimer.unref();
  app.addHook('onClose', (_app, done) => {
    clearInterval(pushTimer);
    done();
  });

  app.setNotFoundHandler((req, reply) =>
    sendError(req, reply, 404, 'notFound', `No route ${req.method} ${req.url}`),
  );

  await app.listen({ host: opts.host, port: opts.port ?? 0 });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const baseUrl = `http://${opts.host}:${port}`;
  return {
    app,
    baseUrl,
    carriers: Object.fromEntries(
      scacs.map((scac) => [scac, { dcsaBaseUrl: `${baseUrl}/carriers/${scac}` }]),
    ),
    credentials,
    tokens,
    subscriptions,
    pushSubscriptions,
    feedsDocument: () => ({
      carriers: Object.fromEntries(
        scacs.map((scac) => {
          const base = `${baseUrl}/carriers/${scac}`;
          const auth = credentials.get(scac);
          return [
            scac,
            {
              dcsa: base,
              // The simulated lines serve the line-LFD extension too.
              import_deadlines: true,
              ...(auth ? { auth: feedsAuthBlock(auth, `${base}/oauth2/token`) } : {}),
              ...(offersSubscriptions(scac) ? { subscriptions: true } : {}),
            },
          ];
        }),
      ),
    }),
    close: () => app.close(),
  };
}

function statusText(status: number): string {
  return (
    (
      {
        400: 'Bad Request',
        401: 'Unauthorized',
        404: 'Not Found',
        503: 'Service Unavailable',
      } as Record<number, string>
    )[status] ?? 'Error'
  );
}
