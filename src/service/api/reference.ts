import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import {
  MetroAreaDocument,
  PortDocument,
  ShippingLineDocument,
  ShippingLineListDocument,
  TerminalDocument,
  VesselDocument,
} from '../../shared/api/documents';
import type { ServiceContext } from '../context';
import { notFound } from '../jsonapi/errors';
import { accountOf, sendDocument } from './http';
import {
  renderMetro,
  renderPort,
  renderRailTerminal,
  renderShippingLine,
  renderTerminal,
  renderVessel,
} from './render';

const params = (name: string, description: string) =>
  Type.Object({ [name]: Type.String({ description }) });

/** Reference data: looked up by id or by natural key (UN/LOCODE, IMO, SCAC). */
export function registerReferenceRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  const { ref, db } = ctx;

  app.get(
    '/ports/:id',
    {
      schema: {
        tags: ['Ports'],
        summary: 'Get a port by id or UN/LOCODE',
        params: params('id', 'Port id or UN/LOCODE'),
        response: { 200: PortDocument },
      },
    },
    async (request, reply) => {
      accountOf(request);
      const { id } = request.params as { id: string };
      const port = ref.portsById.get(id) ?? ref.portsByLocode.get(id.toUpperCase());
      if (!port) throw notFound();
      return sendDocument(reply, 200, { data: renderPort(port) });
    },
  );

  app.get(
    '/metro_areas/:id',
    {
      schema: {
        tags: ['Metro Areas'],
        summary: 'Get a metro area by id or UN/LOCODE',
        params: params('id', 'Metro area id or UN/LOCODE'),
        response: { 200: MetroAreaDocument },
      },
    },
    async (request, reply) => {
      accountOf(request);
      const { id } = request.params as { id: string };
      const metro = ref.metrosById.get(id) ?? ref.metrosByLocode.get(id.toUpperCase());
      if (!metro) throw notFound();
      return sendDocument(reply, 200, { data: renderMetro(metro) });
    },
  );

  app.get(
    '/terminals/:id',
    {
      schema: {
        tags: ['Terminals'],
        summary: 'Get a terminal (marine or rail) by id or FIRMS code',
        params: params('id', 'Terminal id or FIRMS code'),
        response: { 200: TerminalDocument },
      },
    },
    async (request, reply) => {
      accountOf(request);
      const { id } = request.params as { id: string };
      const marine = ref.terminalsById.get(id) ?? ref.terminalsByFirms.get(id.toUpperCase());
      if (marine) return sendDocument(reply, 200, { data: renderTerminal(marine) });
      const rail = ref.railTerminalsById.get(id) ?? ref.railTerminalsByFirms.get(id.toUpperCase());
      if (rail) return sendDocument(reply, 200, { data: renderRailTerminal(rail) });
      throw notFound();
    },
  );

  app.get(
    '/vessels/:id',
    {
      schema: {
        tags: ['Vessels'],
        summary: 'Get a vessel by id or IMO number',
        params: params('id', 'Vessel id or 7-digit IMO number'),
        response: { 200: VesselDocument },
      },
    },
    async (request, reply) => {
      accountOf(request);
      const { id } = request.params as { id: string };
      const column = /^[0-9]{7}$/.test(id) ? 'imo' : 'id';
      const vessel = await db
        .selectFrom('vessels')
        .selectAll()
        .where(column, '=', id)
        .executeTakeFirst();
      if (!vessel) throw notFound();
      return sendDocument(reply, 200, { data: renderVessel(vessel) });
    },
  );

  app.get(
    '/shipping_lines',
    {
      schema: {
        tags: ['Shipping Lines'],
        summary: 'List the supported shipping lines (not paginated)',
        response: { 200: ShippingLineListDocument },
      },
    },
    async (request, reply) => {
      accountOf(request);
      const supported = ctx.config.supportedScacs;
      const lines = supported ? ref.lines.filter((l) => supported.includes(l.scac)) : ref.lines;
      return sendDocument(reply, 200, {
        data: lines.map(renderShippingLine),
        links: { self: `${request.protocol}://${request.host}${request.url}` },
      });
    },
  );

  app.get(
    '/shipping_lines/:id',
    {
      schema: {
        tags: ['Shipping Lines'],
        summary: 'Get a shipping line by id or SCAC',
        params: params('id', 'Shipping line id or SCAC'),
        response: { 200: ShippingLineDocument },
      },
    },
    async (request, reply) => {
      accountOf(request);
      const { id } = request.params as { id: string };
      const line = ref.lines.find((l) => l.id === id) ?? ref.linesByAnyScac.get(id.toUpperCase());
      if (!line) throw notFound();
      return sendDocument(reply, 200, { data: renderShippingLine(line) });
    },
  );
}
