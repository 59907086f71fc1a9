/**
 * `GET /v2/containers/{id}/charges` and `GET /v2/parties/{id}/charges` (Quayside extensions):
 * D&D statements, built in src/service/charges/statements.ts; these routes type, call and render.
 */
import { Type, type TSchema } from 'typebox';
import {
  MAX_PASS_THROUGH_CONTAINERS,
  MAX_PASS_THROUGH_DAYS,
  containerCharges,
  partyCharges,
} from '../charges/statements';
import { IdParams, accountOf, sendDocument, type ApiPlugin } from './http';

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

const containerChargesRoute: ApiPlugin = async (app, { ctx }) => {
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
      const { containerId, statement } = await containerCharges(
        ctx,
        accountOf(request).id,
        request.params.id,
      );
      return sendDocument(reply, 200, {
        data: {
          id: containerId,
          type: 'container_charges',
          attributes: snakeKeys(statement),
          relationships: { container: { data: { type: 'container', id: containerId } } },
        },
      });
    },
  );
};

const partyChargesRoute: ApiPlugin = async (app, { ctx }) => {
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
      const range = { from: request.query['filter[from]'], to: request.query['filter[to]'] };
      const { partyId, statement } = await partyCharges(
        ctx,
        accountOf(request).id,
        request.params.id,
        range,
      );
      return sendDocument(reply, 200, {
        data: {
          id: partyId,
          type: 'party_charges',
          attributes: snakeKeys(statement),
          relationships: { party: { data: { type: 'party', id: partyId } } },
        },
      });
    },
  );
};

export const chargesRoutes: ApiPlugin = async (app, options) => {
  await app.register(containerChargesRoute, options);
  await app.register(partyChargesRoute, options);
};
