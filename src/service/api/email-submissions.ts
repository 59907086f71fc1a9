/** /email_submissions: mail received on the account's inbox address, with its documents. */
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { ServiceContext } from '../context';
import { ApiError, notFound } from '../jsonapi/errors';
import { resolveIncludes } from '../jsonapi/include';
import { parsePage } from '../jsonapi/pagination';
import type { EmailSubmissionRow } from '../store/documents';
import { IdParams, PageQuery, accountOf, isUuid, sendCollection, sendDocument } from './http';

const INCLUDES = new Set(['documents', 'account', 'user']);

function parseInclude(raw: string | undefined): string[][] {
  if (!raw) return [];
  return raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((name) => {
      if (!INCLUDES.has(name)) {
        throw new ApiError(
          400,
          `${name} is not a relationship that can be included on email_submission`,
          { source: { parameter: 'include' } },
        );
      }
      return [name];
    });
}

export function registerEmailSubmissionRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  const { store, renderer } = ctx.documents;

  async function body(accountId: string, rows: EmailSubmissionRow[], include: string[][]) {
    const docs = await store.byEmailSubmission(
      accountId,
      rows.map((r) => r.id),
    );
    const data = rows.map((r) =>
      renderer.emailSubmission(
        r,
        docs.filter((d) => d.email_submission_id === r.id),
      ),
    );
    const included = await resolveIncludes(data, include, async (type, ids) =>
      type === 'document' ? renderer.documents(docs.filter((d) => ids.includes(d.id))) : [],
    );
    return { data, included };
  }

  app.get(
    '/email_submissions',
    {
      schema: {
        tags: ['Email Submissions'],
        summary: 'List email submissions, most recent first',
        querystring: Type.Object({ ...PageQuery, include: Type.Optional(Type.String()) }),
      },
    },
    async (request, reply) => {
      const account = accountOf(request);
      const query = request.query as Record<string, string | undefined>;
      const page = parsePage(query);
      const include = parseInclude(query.include);
      const { rows, total } = await store.listEmailSubmissions(account.id, {
        limit: page.size,
        offset: page.offset,
      });
      const doc = await body(account.id, rows, include);
      return sendCollection(request, reply, page, total, {
        data: doc.data,
        ...(include.length ? { included: doc.included } : {}),
      });
    },
  );

  app.get(
    '/email_submissions/:id',
    {
      schema: {
        tags: ['Email Submissions'],
        summary: 'Get an email submission',
        params: IdParams,
        querystring: Type.Object({ include: Type.Optional(Type.String()) }),
      },
    },
    async (request, reply) => {
      const account = accountOf(request);
      const { id } = request.params as { id: string };
      const include = parseInclude((request.query as { include?: string }).include);
      const row = isUuid(id) ? await store.emailSubmission(account.id, id) : undefined;
      if (!row) throw notFound("Couldn't find EmailSubmission");
      const doc = await body(account.id, [row], include);
      return sendDocument(reply, 200, {
        data: doc.data[0],
        ...(include.length ? { included: doc.included } : {}),
        links: { self: `/v2/email_submissions/${row.id}` },
      });
    },
  );
}
