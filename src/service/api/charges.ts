/**
 * `GET /v2/containers/{id}/charges` (Quayside extension): the container's D&D statement
 * (src/shared/charges/statement.ts) from what the service knows: the container, its shipment,
 * its POD terminal and its transport events, priced with the default cost tables. Hold history
 * is not kept by the service: the holds of the terminal's last check stand from that check on.
 */
import { Type, type TSchema } from 'typebox';
import { DateTime } from 'luxon';
import {
  chargesStatement,
  PASS_THROUGH_LIMITS,
  passThroughStatement,
  type ChargesInput,
} from '../../shared/charges/statement';
import { DEFAULT_COST_TABLES } from '../../shared/cost-clock';
import { ApiError, notFound } from '../jsonapi/errors';
import type { Resource } from '../jsonapi/include';
import { IdParams, accountOf, isUuid, sendDocument, type ApiPlugin } from './http';

const EXTENSION = { 'x-quayside-extension': true } as const;

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const NullableString = Nullable(Type.String());
const LocalDate = Type.String({ format: 'date', description: 'A calendar day of `zone`' });
const Money = Type.Object({ amount: Type.Number(), currency: Type.String() });

const Day = Type.Object({
  date: LocalDate,
  weekday: Type.String(),
  weekend: Type.Boolean(),
  day_number: Type.Integer({ description: '1 = the first day after free time' }),
  tier: Type.Integer({ description: 'The first charged day of the rate tier that applies' }),
  rate: Type.Number(),
  amount: Type.Number(),
  facts: Type.Array(Type.String(), {
    description: 'The day at the terminal: holds and who placed them, availability, gate',
  }),
  dispute: Nullable(
    Type.Object({ reasons: Type.Array(Type.String()), evidence: Type.Array(Type.String()) }),
  ),
});

const Section = Type.Object({
  kind: Type.Union([Type.Literal('demurrage'), Type.Literal('detention')]),
  billed_by: Type.String(),
  zone: Type.String(),
  free_time_start: Nullable(LocalDate),
  free_time_end: Nullable(LocalDate),
  free_days: Nullable(Type.Integer()),
  deadline_source: NullableString,
  running: Type.Boolean(),
  days: Type.Array(Day),
  tariff_rule: Type.String(),
  currency: Type.String(),
  estimate: Type.Number(),
  reported: Nullable(Type.Number()),
  total: Type.Number(),
  total_source: Type.Union([Type.Literal('terminal'), Type.Literal('tariff')]),
  disputed_amount: Type.Number(),
  disputes: Type.Array(
    Type.Object({
      reason: Type.String(),
      from: LocalDate,
      to: LocalDate,
      days: Type.Integer(),
      amount: Type.Number(),
      summary: Type.String(),
      evidence: Type.Array(Type.String()),
    }),
  ),
  invoice_fields: Type.Array(
    Type.Object(
      { key: Type.String(), label: Type.String(), value: NullableString },
      { description: '46 CFR 541.6 invoice contents; null: only the invoice can state it' },
    ),
  ),
  notes: Type.Array(Type.String()),
});

export const ContainerChargesDocument = Type.Object({
  data: Type.Object({
    id: Type.String({ description: "The container's id" }),
    type: Type.Literal('container_charges'),
    attributes: Type.Object({
      container_number: NullableString,
      bill_of_lading: NullableString,
      line_scac: NullableString,
      line_name: NullableString,
      terminal_name: NullableString,
      port_of_discharge: NullableString,
      customer: NullableString,
      zone: Type.String(),
      generated_at: Type.String({ format: 'date-time' }),
      demurrage: Nullable(Section),
      detention: Nullable(Section),
      total: Nullable(Money),
      disputed: Nullable(Money),
      lfd_changes: Type.Array(
        Type.Object({
          at: Type.String({ format: 'date-time' }),
          source: NullableString,
          from: NullableString,
          to: NullableString,
        }),
      ),
      invoice: Type.Null({ description: 'Received invoices are entered in the desktop app' }),
    }),
    relationships: Type.Object({
      container: Type.Object({
        data: Type.Object({ type: Type.Literal('container'), id: Type.String() }),
      }),
    }),
  }),
});

const snake = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** The statement's members in the API's snake_case. */
function snakeKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(snakeKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [snake(k), snakeKeys(v)]));
}

/** More events than any container has: the statement reads its whole history. */
const ALL_EVENTS = { size: 10_000, offset: 0 };

const MAX_PASS_THROUGH_CONTAINERS = PASS_THROUGH_LIMITS.containers;
const MAX_PASS_THROUGH_DAYS = PASS_THROUGH_LIMITS.days;

const LocalDateParam = (description: string) =>
  Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description });

export const PassThroughDocument = Type.Object({
  data: Type.Object({
    id: Type.String({ description: "The party's id" }),
    type: Type.Literal('party_charges'),
    attributes: Type.Object({
      customer: Type.String(),
      from: LocalDate,
      to: LocalDate,
      lines: Type.Array(
        Type.Object({
          container_id: Type.String(),
          container_number: NullableString,
          bill_of_lading: NullableString,
          currency: Type.String(),
          days: Type.Integer(),
          demurrage: Type.Number(),
          detention: Type.Number(),
          disputed: Type.Number(),
          total: Type.Number(),
        }),
      ),
      totals: Type.Array(
        Type.Object({
          currency: Type.String(),
          demurrage: Type.Number(),
          detention: Type.Number(),
          disputed: Type.Number(),
          total: Type.Number(),
        }),
      ),
    }),
    relationships: Type.Object({
      party: Type.Object({ data: Type.Object({ type: Type.Literal('party'), id: Type.String() }) }),
    }),
  }),
});

/** A bare calendar date that exists (`2026-02-30` does not). */
function dateParam(value: unknown, name: string): string {
  const text = typeof value === 'string' ? value : '';
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text) || !DateTime.fromISO(text, { zone: 'UTC' }).isValid) {
    throw new ApiError(400, `${name} must be a date (yyyy-MM-dd)`, { source: { parameter: name } });
  }
  return text;
}

export const chargesRoutes: ApiPlugin = async (app, { ctx }) => {
  const reads = ctx.stores.reads;

  /** One rendered container's statement, from its shipment, terminal and events. */
  async function statementOf(accountId: string, container: Resource) {
    const rel = (name: string) => {
      const data = container.relationships?.[name]?.data;
      return data && !Array.isArray(data) ? data.id : null;
    };
    const shipmentId = rel('shipment');
    const terminalId = rel('pod_terminal');
    const [shipments, terminals, events] = await Promise.all([
      shipmentId ? ctx.render.load(accountId, 'shipment', [shipmentId]) : [],
      terminalId ? ctx.render.load(accountId, 'terminal', [terminalId]) : [],
      reads.transportEvents(container.id, ALL_EVENTS),
    ]);
    const terminalName = terminals[0]?.attributes.name;
    return chargesStatement({
      container: container.attributes as unknown as ChargesInput['container'],
      shipment: (shipments[0]?.attributes ?? null) as ChargesInput['shipment'],
      terminalName: typeof terminalName === 'string' ? terminalName : null,
      events: events.rows.map((e) => ({ event: e.event, timestamp: e.timestamp })),
      tables: DEFAULT_COST_TABLES,
      now: ctx.clock.now(),
    });
  }

  app.get(
    '/containers/:id/charges',
    {
      schema: {
        tags: ['Containers'],
        summary: "A container's demurrage and detention statement, day by day",
        description:
          'Quayside extension. Free time for demurrage (terminal or line) and detention (line), each charged day with its rate and the facts of the day, the days an importer would dispute flagged with reason and evidence (holds by the line or the terminal, exams, the terminal not making the box available, a last free day moved earlier), and the fields 46 CFR 541.6 requires of a D&D invoice. Amounts: the fees the terminal reports, else the default tariffs.',
        ...EXTENSION,
        params: IdParams,
        response: { 200: ContainerChargesDocument },
      },
    },
    async (request, reply) => {
      const account = accountOf(request);
      const id = request.params.id;
      const key = isUuid(id) ? await reads.ownedContainerKey(account.id, id) : undefined;
      const [container] = key ? await ctx.render.containersByKey([key], undefined) : [];
      if (!container) throw notFound();
      const statement = await statementOf(account.id, container);
      return sendDocument(reply, 200, {
        data: {
          id: container.id,
          type: 'container_charges',
          attributes: snakeKeys(statement),
          relationships: { container: { data: { type: 'container', id: container.id } } },
        },
      });
    },
  );

  app.get(
    '/parties/:id/charges',
    {
      schema: {
        tags: ['Parties'],
        summary: "A customer's pass-through D&D statement for a date range",
        description: `Quayside extension. Each of the party's containers (on shipments whose customer it is, at most ${MAX_PASS_THROUGH_CONTAINERS}) with its demurrage and detention for the charged days from \`filter[from]\` to \`filter[to]\` (both included, at most ${MAX_PASS_THROUGH_DAYS} days), at the tariff day by day; totals per currency. Containers without a charged day in the range are left out.`,
        ...EXTENSION,
        params: IdParams,
        querystring: Type.Object({
          'filter[from]': LocalDateParam('First day of the range (yyyy-MM-dd)'),
          'filter[to]': LocalDateParam('Last day of the range (yyyy-MM-dd)'),
        }),
        response: { 200: PassThroughDocument },
      },
    },
    async (request, reply) => {
      const account = accountOf(request);
      const id = request.params.id;
      const query = request.query;
      const from = dateParam(query['filter[from]'], 'filter[from]');
      const to = dateParam(query['filter[to]'], 'filter[to]');
      const span = DateTime.fromISO(to, { zone: 'UTC' }).diff(
        DateTime.fromISO(from, { zone: 'UTC' }),
        'days',
      ).days;
      if (span < 0) {
        throw new ApiError(400, 'filter[to] must not be before filter[from]', {
          source: { parameter: 'filter[to]' },
        });
      }
      if (span >= MAX_PASS_THROUGH_DAYS) {
        throw new ApiError(400, `The range may span at most ${MAX_PASS_THROUGH_DAYS} days`, {
          source: { parameter: 'filter[to]' },
        });
      }
      const party = isUuid(id) ? await ctx.stores.parties.owned(account.id, id) : undefined;
      if (!party) throw notFound();
      const keys = await ctx.stores.parties.containerKeys(
        account.id,
        party.id,
        MAX_PASS_THROUGH_CONTAINERS,
      );
      const containers = await ctx.render.containersByKey(keys, undefined);
      const items = [];
      for (const container of containers) {
        items.push({
          containerId: container.id,
          statement: await statementOf(account.id, container),
        });
      }
      const statement = passThroughStatement(party.company_name, from, to, items);
      return sendDocument(reply, 200, {
        data: {
          id: party.id,
          type: 'party_charges',
          attributes: snakeKeys(statement),
          relationships: { party: { data: { type: 'party', id: party.id } } },
        },
      });
    },
  );
};
