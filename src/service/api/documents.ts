/**
 * /documents: list (filters, sort, include, pagination), upload (JSON with a base64 `data:` URL,
 * or multipart/form-data as a Quayside extension), get, patch, delete, the type list, signed
 * download links and the re-extract / re-classify / re-link / rotate actions; plus the account's
 * document settings (tracking mode and inbox address, a Quayside extension). The rules live in
 * src/service/documents (records.ts, uploads.ts); these routes type, call and render.
 */
import multipart from '@fastify/multipart';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { ServiceContext } from '../context';
import { MAX_DOCUMENT_BYTES } from '../documents/files';
import {
  DOWNLOAD_LINK_SECONDS,
  deleteDocument,
  documentOf,
  documentSettings,
  downloadLink,
  editDocument,
  listDocuments,
  reextractDocument,
  relinkDocument,
  rotateDocument,
  setDocumentTrackingMode,
  signedDownload,
} from '../documents/records';
import { DOCUMENT_TYPES } from '../documents/types';
import {
  MAX_SHIPMENTS,
  jsonFile,
  uploadDocument,
  type IncomingDocument,
} from '../documents/uploads';
import { ApiError } from '../jsonapi/errors';
import { resolveIncludes, type Resource } from '../jsonapi/include';
import { parsePage } from '../jsonapi/pagination';
import { DELIVERY_ORDER_UPLOAD_DOC } from '../documents/delivery-order-upload';
import { MAX_RECIPIENTS, SEND_DOC, sendDocumentByEmail } from '../documents/send-by-email';
import { TRACKING_MODES, type DocumentRow } from '../store/documents';
import {
  IdParams,
  PageQuery,
  accountOf,
  sendCollection,
  sendDocument,
  sendNoContent,
  type ApiPlugin,
} from './http';

const EXTENSION = { 'x-quayside-extension': true };
const TAGS = ['Documents'];

const INCLUDES: Record<string, string> = {
  shipments: 'shipments',
  cargos: 'cargos',
  account: 'account',
  user: 'user',
  last_document_representation: 'last_document_representation',
  current_extraction: 'last_document_representation',
  email_submission: 'email_submission',
  tracking_requests: 'tracking_requests',
};

function parseDocumentInclude(raw: string | undefined): string[][] {
  if (!raw) return [];
  return raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((name) => {
      const relationship = INCLUDES[name];
      if (!relationship) {
        throw new ApiError(400, `${name} is not a relationship that can be included on document`, {
          source: { parameter: 'include' },
        });
      }
      return [relationship];
    });
}

const ActionAccepted = Type.Object({ status: Type.Literal('accepted') });

/** Documents rendered, with what `include` asked for (representations and submissions here). */
async function documentBody(
  ctx: ServiceContext,
  accountId: string,
  rows: DocumentRow[],
  include: string[][],
) {
  const { store, renderer } = ctx.documents;
  const data = await renderer.documents(rows);
  const included = await resolveIncludes(data, include, async (type, ids) => {
    if (type === 'document_representation') {
      return rows
        .filter((r) => r.extraction_id && ids.includes(r.extraction_id))
        .flatMap((r) => renderer.representation(r) ?? []);
    }
    if (type === 'email_submission') {
      const subs = await store.emailSubmissionsByIds(accountId, ids);
      const docs = await store.byEmailSubmission(accountId, ids);
      return subs.map((s) =>
        renderer.emailSubmission(
          s,
          docs.filter((d) => d.email_submission_id === s.id),
        ),
      );
    }
    return ctx.render.load(accountId, type, ids);
  });
  return { data, included };
}

async function sendOne(
  ctx: ServiceContext,
  reply: FastifyReply,
  status: number,
  row: DocumentRow,
  include: string[][] = [],
) {
  const doc = await documentBody(ctx, row.account_id, [row], include);
  return sendDocument(reply, status, {
    data: doc.data[0],
    ...(include.length ? { included: doc.included } : {}),
    links: { self: `/v2/documents/${row.id}` },
  });
}

function settingsResource(
  ctx: ServiceContext,
  accountId: string,
  settings: Awaited<ReturnType<typeof documentSettings>>,
): Resource {
  return {
    id: accountId,
    type: 'document_settings',
    attributes: {
      tracking_mode: settings.trackingMode,
      inbox_address: settings.inboxAddress,
      outgoing_mail: ctx.config.outgoingMail !== undefined,
    },
  };
}

const ListQuery = Type.Object({
  ...PageQuery,
  include: Type.Optional(Type.String()),
  sort: Type.Optional(
    Type.String({ description: 'document_type, added_by or created_at; - for descending' }),
  ),
  'filter[filename]': Type.Optional(Type.String()),
  'filter[reference]': Type.Optional(
    Type.String({
      description: 'An extracted container, bill of lading or booking number.',
    }),
  ),
  'filter[document_types]': Type.Optional(
    Type.String({ description: 'Comma-separated document types.' }),
  ),
});

const listRoutes: ApiPlugin = async (app, { ctx }) => {
  app.get(
    '/documents',
    { schema: { tags: TAGS, summary: 'List documents', querystring: ListQuery } },
    async (request, reply) => {
      const account = accountOf(request);
      const { query } = request;
      const page = parsePage(query);
      const include = parseDocumentInclude(query.include);
      const filter = {
        fileName: query['filter[filename]'],
        reference: query['filter[reference]'],
        documentTypes: query['filter[document_types]'],
        sort: query.sort,
      };
      const { rows, total } = await listDocuments(ctx.documents, account.id, filter, page);
      const doc = await documentBody(ctx, account.id, rows, include);
      return sendCollection(request, reply, page, total, {
        data: doc.data,
        ...(include.length ? { included: doc.included } : {}),
      });
    },
  );

  app.get(
    '/documents/types',
    { schema: { tags: TAGS, summary: 'List document types' } },
    async (request, reply) => {
      accountOf(request);
      return sendDocument(reply, 200, { document_types: DOCUMENT_TYPES });
    },
  );
};

const settingsRoutes: ApiPlugin = async (app, { ctx }) => {
  app.get(
    '/documents/settings',
    {
      schema: {
        tags: TAGS,
        summary: "The account's document settings and inbox address",
        description:
          'Quayside extension. `tracking_mode`: off (extract only), ask (extract; the client offers to track) or automatic (extraction creates tracking requests). `inbox_address`: mail sent there with attachments becomes an email submission. `outgoing_mail`: whether the service has an outgoing mail server to send documents with (`POST /documents/{id}/send`).',
        ...EXTENSION,
      },
    },
    async (request, reply) => {
      const account = accountOf(request);
      const settings = await documentSettings(ctx.documents, account.id);
      return sendDocument(reply, 200, { data: settingsResource(ctx, account.id, settings) });
    },
  );

  app.patch(
    '/documents/settings',
    {
      schema: {
        tags: TAGS,
        summary: "Change the account's document tracking mode",
        ...EXTENSION,
        body: Type.Object({
          data: Type.Object({
            attributes: Type.Object(
              { tracking_mode: Type.Union(TRACKING_MODES.map((m) => Type.Literal(m))) },
              { additionalProperties: false },
            ),
          }),
        }),
      },
    },
    async (request, reply) => {
      const account = accountOf(request);
      const mode = request.body.data.attributes.tracking_mode;
      const settings = await setDocumentTrackingMode(ctx.documents, account.id, mode);
      return sendDocument(reply, 200, { data: settingsResource(ctx, account.id, settings) });
    },
  );
};

/** The file of a multipart upload: one `file` part, an optional `name`, `shipment_id` fields. */
async function multipartFile(request: FastifyRequest): Promise<IncomingDocument> {
  let bytes: Buffer | undefined;
  let fileName = 'document';
  let name: string | undefined;
  const shipmentIds: string[] = [];
  let deliveryOrderRaw: string | undefined;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        if (part.fieldname !== 'file' || bytes) {
          part.file.resume();
          throw new ApiError(422, 'Send exactly one file, in the part named file', {
            source: { pointer: '/file' },
          });
        }
        bytes = await part.toBuffer();
        fileName = part.filename || fileName;
      } else if (part.fieldname === 'name' && typeof part.value === 'string') {
        name = part.value;
      } else if (part.fieldname === 'shipment_id' && typeof part.value === 'string') {
        shipmentIds.push(part.value.trim());
      } else if (part.fieldname === 'delivery_order' && typeof part.value === 'string') {
        deliveryOrderRaw = part.value;
      }
    }
  } catch (err) {
    if (err instanceof ApiError) throw err;
    const code = (err as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') {
      throw new ApiError(413, `Documents may be at most ${MAX_DOCUMENT_BYTES} bytes`, {
        source: { pointer: '/file' },
      });
    }
    throw new ApiError(400, `The multipart body could not be read: ${(err as Error).message}`);
  }
  if (!bytes) {
    throw new ApiError(422, 'No file part: send the document in a part named file', {
      source: { pointer: '/file' },
    });
  }
  return { bytes, fileName, name, shipmentIds: [...new Set(shipmentIds)], deliveryOrderRaw };
}

/** Upload: multipart is parsed only on this route's scope. */
const uploadRoute: ApiPlugin = async (app, { ctx }) => {
  await app.register(multipart, {
    limits: {
      fileSize: MAX_DOCUMENT_BYTES,
      files: 1,
      fields: 6 + MAX_SHIPMENTS,
      // A delivery order's JSON (a few hundred bytes) is the longest field.
      fieldSize: 4096,
      parts: 7 + MAX_SHIPMENTS,
    },
  });
  app.post(
    '/documents',
    {
      schema: {
        tags: TAGS,
        summary: 'Upload a document',
        description:
          'JSON: `data.attributes.name` and `attached_document`, which Quayside takes as a `data:` URL with the base64 file (there is no separate blob upload). Quayside extension (`x-quayside-extension`): `multipart/form-data` with a `file` part and an optional `name` field. PDF, PNG or JPEG (judged by content) up to 20 MB; JSON bodies are bounded by the request body limit (1 MB by default), so send larger files as multipart. Extraction runs in the background; `extraction_status` tells when it is done. A file already stored for the account is a 409 `duplicate_document`. ' +
          `Quayside extension: the document can be attached to shipments of the account as it is uploaded (JSON: \`data.relationships.shipments.data\`, a list of \`{type: shipment, id}\`; multipart: one \`shipment_id\` field per shipment), at most ${MAX_SHIPMENTS}; it then lists them in its \`shipments\` relationship. An unknown shipment, or another account's, is a 422 naming it. ` +
          DELIVERY_ORDER_UPLOAD_DOC,
        ...EXTENSION,
      },
    },
    async (request, reply) => {
      const account = accountOf(request);
      const multipartBody = request.isMultipart();
      const incoming = multipartBody ? await multipartFile(request) : jsonFile(request.body);
      const row = await uploadDocument(ctx, account.id, incoming, multipartBody);
      return sendOne(ctx, reply, 201, row);
    },
  );
};

const EditBody = Type.Object({
  data: Type.Object({
    type: Type.Literal('document'),
    attributes: Type.Object(
      {
        document_type_manual: Type.Optional(
          Type.Union([...DOCUMENT_TYPES.map((t) => Type.Literal(t.code)), Type.Null()]),
        ),
        extracted_data_manual: Type.Optional(
          Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]),
        ),
      },
      { additionalProperties: false },
    ),
  }),
});

const documentRoutes: ApiPlugin = async (app, { ctx }) => {
  app.get(
    '/documents/:id',
    {
      schema: {
        tags: TAGS,
        summary: 'Get a document',
        params: IdParams,
        querystring: Type.Object({ include: Type.Optional(Type.String()) }),
      },
    },
    async (request, reply) => {
      const row = await documentOf(ctx.documents, accountOf(request).id, request.params.id);
      const include = parseDocumentInclude(request.query.include);
      return sendOne(ctx, reply, 200, row, include);
    },
  );

  app.patch(
    '/documents/:id',
    {
      schema: {
        tags: TAGS,
        summary: 'Edit a document',
        description: 'Manual type and extracted values (null clears the manual values).',
        params: IdParams,
        body: EditBody,
      },
    },
    async (request, reply) => {
      const edits = request.body.data.attributes;
      const accountId = accountOf(request).id;
      const row = await editDocument(ctx.documents, accountId, request.params.id, edits);
      return sendOne(ctx, reply, 200, row);
    },
  );

  app.delete(
    '/documents/:id',
    { schema: { tags: TAGS, summary: 'Delete a document', params: IdParams } },
    async (request, reply) => {
      await deleteDocument(ctx.documents, accountOf(request).id, request.params.id);
      return sendNoContent(reply);
    },
  );
};

const downloadRoutes: ApiPlugin = async (app, { ctx }) => {
  app.get(
    '/documents/:id/download_url',
    {
      schema: {
        tags: TAGS,
        summary: 'Get a document download URL',
        description: `A signed link, valid for ${DOWNLOAD_LINK_SECONDS / 60} minutes, that needs no API key.`,
        params: IdParams,
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const path = await downloadLink(ctx.documents, ctx.wallClock, accountOf(request).id, id);
      const download_url = `${request.protocol}://${request.host}${path}`;
      return sendDocument(reply, 200, { download_url });
    },
  );

  app.get(
    '/documents/:id/download',
    {
      schema: {
        tags: TAGS,
        summary: 'Download a document file through a signed link',
        description:
          'Quayside extension: the target of `download_url`; the signature is the credential.',
        ...EXTENSION,
        security: [],
        params: IdParams,
        querystring: Type.Object({ expires: Type.Integer(), signature: Type.String() }),
      },
      config: { signedLink: true },
    },
    async (request, reply) => {
      const link = { id: request.params.id, ...request.query };
      const { row, bytes } = await signedDownload(ctx.documents, ctx.wallClock, link);
      const fileName = row.file_name.replace(/[^\w.-]/g, '_');
      return reply
        .code(200)
        .type(row.content_type)
        .header('Content-Disposition', `attachment; filename="${fileName}"`)
        .send(bytes);
    },
  );
};

/** POST /documents/:id/<name>: a use case run on the account's document, answered 202. */
const actionRoute =
  (name: string, summary: string, run: typeof reextractDocument): ApiPlugin =>
  async (app, { ctx }) => {
    app.post(
      `/documents/:id/${name}`,
      {
        schema: { tags: TAGS, summary, params: IdParams, response: { 202: ActionAccepted } },
      },
      async (request, reply) => {
        await run(ctx.documents, accountOf(request).id, request.params.id);
        return sendDocument(reply, 202, { status: 'accepted' });
      },
    );
  };

const rotateRoute: ApiPlugin = async (app, { ctx }) => {
  app.post(
    '/documents/:id/rotate',
    {
      schema: {
        tags: TAGS,
        summary: 'Rotate a document',
        params: IdParams,
        body: Type.Object({
          degrees: Type.Union([Type.Literal(90), Type.Literal(180), Type.Literal(270)]),
        }),
        response: { 202: ActionAccepted },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      await rotateDocument(ctx.documents, accountOf(request).id, id, request.body.degrees);
      return sendDocument(reply, 202, { status: 'accepted' });
    },
  );
};

const sendRoute: ApiPlugin = async (app, { ctx }) => {
  app.post(
    '/documents/:id/send',
    {
      schema: {
        tags: TAGS,
        summary: 'Email a document',
        description: SEND_DOC,
        ...EXTENSION,
        params: IdParams,
        body: Type.Object({
          data: Type.Optional(
            Type.Object({
              attributes: Type.Optional(
                Type.Object(
                  {
                    to: Type.Optional(
                      Type.Array(Type.String({ maxLength: 320 }), { maxItems: MAX_RECIPIENTS }),
                    ),
                  },
                  { additionalProperties: false },
                ),
              ),
            }),
          ),
        }),
      },
    },
    async (request, reply) => {
      const to = request.body.data?.attributes?.to;
      const row = await sendDocumentByEmail(ctx, accountOf(request).id, request.params.id, to);
      return sendOne(ctx, reply, 201, row);
    },
  );
};

/** The /documents routes. */
export const documentsRoutes: ApiPlugin = async (app, options) => {
  await app.register(listRoutes, options);
  await app.register(settingsRoutes, options);
  await app.register(uploadRoute, options);
  await app.register(documentRoutes, options);
  await app.register(downloadRoutes, options);
  await app.register(actionRoute('reextract', 'Re-extract a document', reextractDocument), options);
  await app.register(
    actionRoute('reclassify', 'Re-classify a document', reextractDocument),
    options,
  );
  const relink = 'Re-link a document (create tracking requests for what it names)';
  await app.register(actionRoute('relink', relink, relinkDocument), options);
  await app.register(rotateRoute, options);
  await app.register(sendRoute, options);
};
