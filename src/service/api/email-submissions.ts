/** /email_submissions: mail received on the account's inbox address, with its documents. */
import { Type } from 'typebox';
import type { ServiceContext } from '../context';
import { emailSubmissionOf, listEmailSubmissions } from '../documents/records';
import { ApiError } from '../jsonapi/errors';
import { resolveIncludes } from '../jsonapi/include';
import { parsePage } from '../jsonapi/pagination';
import type { EmailSubmissionRow } from '../store/documents';
import {
  IdParams,
  PageQuery,
  accountOf,
  sendCollection,
  sendDocument,
  type ApiPlugin,
} from './http';

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

const TAGS = ['Email Submissions'];

/** Submissions rendered with their documents, and the documents when `include` names them. */
async function body(
  ctx: ServiceContext,
  accountId: string,
  rows: EmailSubmissionRow[],
  include: string[][],
) {
  const { store, renderer } = ctx.documents;
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

export const emailSubmissionRoutes: ApiPlugin = async (app, { ctx }) => {
  app.get(
    '/email_submissions',
    {
      schema: {
        tags: TAGS,
        summary: 'List email submissions, most recent first',
        querystring: Type.Object({ ...PageQuery, include: Type.Optional(Type.String()) }),
      },
    },
    async (request, reply) => {
      const account = accountOf(request);
      const page = parsePage(request.query);
      const include = parseInclude(request.query.include);
      const { rows, total } = await listEmailSubmissions(ctx.documents, account.id, page);
      const doc = await body(ctx, account.id, rows, include);
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
        tags: TAGS,
        summary: 'Get an email submission',
        params: IdParams,
        querystring: Type.Object({ include: Type.Optional(Type.String()) }),
      },
    },
    async (request, reply) => {
      const account = accountOf(request);
      const include = parseInclude(request.query.include);
      const row = await emailSubmissionOf(ctx.documents, account.id, request.params.id);
      const doc = await body(ctx, account.id, [row], include);
      return sendDocument(reply, 200, {
        data: doc.data[0],
        ...(include.length ? { included: doc.included } : {}),
        links: { self: `/v2/email_submissions/${row.id}` },
      });
    },
  );
};
