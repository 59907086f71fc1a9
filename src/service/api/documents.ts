/**
 * /documents: list (filters, sort, include, pagination), upload (JSON with a base64 `data:` URL,
 * or multipart/form-data as a Quayside extension), get, patch, delete, the type list, signed
 * download links and the re-extract / re-classify / re-link / rotate actions; plus the account's
 * document settings (tracking mode and inbox address, a Quayside extension).
 */
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { ServiceContext } from '../context';
import { DocumentService } from '../documents/service';
import { DOCUMENT_TYPES, isDocumentType } from '../documents/types';
import { MAX_DOCUMENT_BYTES, sha256Hex } from '../documents/files';
import { ApiError, notFound } from '../jsonapi/errors';
import { resolveIncludes, type Resource } from '../jsonapi/include';
import { parsePage } from '../jsonapi/pagination';
import { TRACKING_MODES, type DocumentRow, type TrackingMode } from '../store/documents';
import { DELIVERY_ORDER_UPLOAD_DOC, checkedDeliveryOrder } from './delivery-order-upload';
import { IdParams, PageQuery, accountOf, isUuid, sendCollection, sendDocument } from './http';

const EXTENSION = { 'x-quayside-extension': true };

/** How many shipments one upload may be attached to. */
const MAX_SHIPMENTS = 10;

type Incoming = {
  bytes: Uint8Array;
  fileName: string;
  name?: string;
  shipmentIds: string[];
  /** The `delivery_order` member as sent (checked by `checkedDeliveryOrder`). */
  deliveryOrderRaw?: unknown;
};

/** How long a download link stays valid. */
export const DOWNLOAD_LINK_SECONDS = 15 * 60;

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

const SORTS = ['document_type', 'added_by', 'created_at'] as const;

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

function parseSort(raw: string | undefined) {
  const text = raw?.trim() || '-created_at';
  const descending = text.startsWith('-');
  const field = text.replace(/^-/, '');
  if (!(SORTS as readonly string[]).includes(field)) {
    throw new ApiError(400, `sort must be one of ${SORTS.join(', ')} (prefix - for descending)`, {
      source: { parameter: 'sort' },
    });
  }
  return { field: field as (typeof SORTS)[number], descending };
}

const ActionAccepted = Type.Object({ status: Type.Literal('accepted') });

export function registerDocumentRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  const { documents } = ctx;
  const { store, service, renderer, files } = documents;

  async function loadDocument(request: FastifyRequest): Promise<DocumentRow> {
    const account = accountOf(request);
    const { id } = request.params as { id: string };
    const row = isUuid(id) ? await store.get(account.id, id) : undefined;
    if (!row) throw notFound("Couldn't find Document");
    return row;
  }

  /** Every attached shipment must be the account's; the error names the first that is not. */
  async function checkShipments(accountId: string, ids: string[], multipartBody: boolean) {
    const own = await store.ownShipmentIds(accountId, ids.filter(isUuid));
    const index = ids.findIndex((id) => !own.has(id));
    if (index < 0) return;
    throw new ApiError(422, `Couldn't find Shipment ${ids[index]}`, {
      source: multipartBody
        ? { parameter: 'shipment_id' }
        : { pointer: `/data/relationships/shipments/data/${index}/id` },
    });
  }

  async function documentBody(accountId: string, rows: DocumentRow[], include: string[][]) {
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
    reply: FastifyReply,
    status: number,
    accountId: string,
    row: DocumentRow,
    include: string[][] = [],
  ) {
    const doc = await documentBody(accountId, [row], include);
    return sendDocument(reply, status, {
      data: doc.data[0],
      ...(include.length ? { included: doc.included } : {}),
      links: { self: `/v2/documents/${row.id}` },
    });
  }

  app.get(
    '/documents',
    {
      schema: {
        tags: ['Documents'],
        summary: 'List documents',
        querystring: Type.Object({
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
        }),
      },
    },
    async (request, reply) => {
      const account = accountOf(request);
      const query = request.query as Record<string, string | undefined>;
      const page = parsePage(query);
      const include = parseDocumentInclude(query.include);
      const types = query['filter[document_types]']
        ?.split(',')
        .map((t) => t.trim())
        .filter(Boolean);
      const unknownType = types?.find((t) => !isDocumentType(t));
      if (unknownType) {
        throw new ApiError(400, `Unknown document type ${unknownType}`, {
          source: { parameter: 'filter[document_types]' },
        });
      }
      const { rows, total } = await store.list(account.id, {
        fileName: query['filter[filename]'],
        reference: query['filter[reference]'],
        documentTypes: types,
        sort: parseSort(query.sort),
        limit: page.size,
        offset: page.offset,
      });
      const doc = await documentBody(account.id, rows, include);
      return sendCollection(request, reply, page, total, {
        data: doc.data,
        ...(include.length ? { included: doc.included } : {}),
      });
    },
  );

  app.get(
    '/documents/types',
    { schema: { tags: ['Documents'], summary: 'List document types' } },
    async (request, reply) => {
      accountOf(request);
      return sendDocument(reply, 200, { document_types: DOCUMENT_TYPES });
    },
  );

  app.get(
    '/documents/settings',
    {
      schema: {
        tags: ['Documents'],
        summary: "The account's document settings and inbox address",
        description:
          'Quayside extension. `tracking_mode`: off (extract only), ask (extract; the client offers to track) or automatic (extraction creates tracking requests). `inbox_address`: mail sent there with attachments becomes an email submission.',
        ...EXTENSION,
      },
    },
    async (request, reply) => {
      const account = accountOf(request);
      return sendDocument(reply, 200, { data: await settingsResource(account.id) });
    },
  );

  app.patch(
    '/documents/settings',
    {
      schema: {
        tags: ['Documents'],
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
      const mode = (request.body as { data: { attributes: { tracking_mode: TrackingMode } } }).data
        .attributes.tracking_mode;
      await store.setTrackingMode(account.id, mode);
      return sendDocument(reply, 200, { data: await settingsResource(account.id) });
    },
  );

  async function settingsResource(accountId: string): Promise<Resource> {
    const settings = await store.settings(accountId);
    return {
      id: accountId,
      type: 'document_settings',
      attributes: {
        tracking_mode: settings.trackingMode,
        inbox_address: documents.inboxAddress(settings.inboxToken),
      },
    };
  }

  // Upload: multipart is parsed only on this route's scope.
  app.register(async (scope) => {
    await scope.register(multipart, {
      limits: {
        fileSize: MAX_DOCUMENT_BYTES,
        files: 1,
        fields: 6 + MAX_SHIPMENTS,
        // A delivery order's JSON (a few hundred bytes) is the longest field.
        fieldSize: 4096,
        parts: 7 + MAX_SHIPMENTS,
      },
    });
    scope.post(
      '/documents',
      {
        schema: {
          tags: ['Documents'],
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
        DocumentService.check(incoming);
        await checkShipments(account.id, incoming.shipmentIds, multipartBody);
        const order = await checkedDeliveryOrder(
          ctx,
          account.id,
          incoming.deliveryOrderRaw,
          multipartBody,
        );
        const existing = await store.byHash(account.id, sha256Hex(incoming.bytes));
        if (existing) {
          throw new ApiError(409, `This file was already uploaded as document ${existing.id}`, {
            code: 'duplicate_document',
          });
        }
        const row = await service.add(
          account.id,
          order
            ? {
                ...incoming,
                deliveryOrder: order.order,
                shipmentIds: [...new Set([...incoming.shipmentIds, order.shipmentId])],
              }
            : incoming,
          'api',
        );
        return sendOne(reply, 201, account.id, row);
      },
    );
  });

  app.get(
    '/documents/:id',
    {
      schema: {
        tags: ['Documents'],
        summary: 'Get a document',
        params: IdParams,
        querystring: Type.Object({ include: Type.Optional(Type.String()) }),
      },
    },
    async (request, reply) => {
      const row = await loadDocument(request);
      const include = parseDocumentInclude((request.query as { include?: string }).include);
      return sendOne(reply, 200, row.account_id, row, include);
    },
  );

  app.patch(
    '/documents/:id',
    {
      schema: {
        tags: ['Documents'],
        summary: 'Edit a document',
        description: 'Manual type and extracted values (null clears the manual values).',
        params: IdParams,
        body: Type.Object({
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
        }),
      },
    },
    async (request, reply) => {
      const row = await loadDocument(request);
      const attrs = (
        request.body as {
          data: {
            attributes: { document_type_manual?: string | null; extracted_data_manual?: unknown };
          };
        }
      ).data.attributes;
      await store.updateManual(row.account_id, row.id, {
        documentTypeManual: attrs.document_type_manual,
        extractedManual: attrs.extracted_data_manual,
      });
      return sendOne(reply, 200, row.account_id, (await store.get(row.account_id, row.id))!);
    },
  );

  app.delete(
    '/documents/:id',
    { schema: { tags: ['Documents'], summary: 'Delete a document', params: IdParams } },
    async (request, reply) => {
      const row = await loadDocument(request);
      await store.discard(row.account_id, row.id);
      // Files are stored once per content: the bytes go when no other document holds them.
      if (!(await store.fileInUse(row.sha256))) files.remove(row.sha256);
      return reply.code(204).send();
    },
  );

  app.get(
    '/documents/:id/download_url',
    {
      schema: {
        tags: ['Documents'],
        summary: 'Get a document download URL',
        description: `A signed link, valid for ${DOWNLOAD_LINK_SECONDS / 60} minutes, that needs no API key.`,
        params: IdParams,
      },
    },
    async (request, reply) => {
      const row = await loadDocument(request);
      // Real seconds: the link is handed to a person, whatever pace the service's clock keeps.
      const expires = Math.floor(ctx.wallClock.now() / 1000) + DOWNLOAD_LINK_SECONDS;
      const signature = files.sign(row.id, expires);
      const base = `${request.protocol}://${request.host}/v2/documents/${row.id}/download`;
      return sendDocument(reply, 200, {
        download_url: `${base}?expires=${expires}&signature=${signature}`,
      });
    },
  );

  app.get(
    '/documents/:id/download',
    {
      schema: {
        tags: ['Documents'],
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
      const { id } = request.params as { id: string };
      const { expires, signature } = request.query as { expires: number; signature: string };
      if (!isUuid(id) || !files.verify(id, expires, signature, ctx.wallClock.now())) {
        throw new ApiError(403, 'The download link is invalid or has expired', {
          source: { parameter: 'signature' },
        });
      }
      const row = await store.byIdForDownload(id);
      if (!row) throw notFound("Couldn't find Document");
      const bytes = await files.read(row.sha256);
      return reply
        .code(200)
        .type(row.content_type)
        .header(
          'Content-Disposition',
          `attachment; filename="${row.file_name.replace(/[^\w.-]/g, '_')}"`,
        )
        .send(bytes);
    },
  );

  const action = (
    name: string,
    summary: string,
    run: (row: DocumentRow, body: unknown) => Promise<void>,
    body?: ReturnType<typeof Type.Object>,
  ) =>
    app.post(
      `/documents/:id/${name}`,
      {
        schema: {
          tags: ['Documents'],
          summary,
          params: IdParams,
          ...(body ? { body } : {}),
          response: { 202: ActionAccepted },
        },
      },
      async (request, reply) => {
        const row = await loadDocument(request);
        await run(row, request.body);
        return sendDocument(reply, 202, { status: 'accepted' });
      },
    );

  const reextract = async (row: DocumentRow) => {
    await store.markPending(row.account_id, row.id);
    service.enqueue(row.account_id, row.id);
  };
  action('reextract', 'Re-extract a document', reextract);
  action('reclassify', 'Re-classify a document', reextract);
  action(
    'relink',
    'Re-link a document (create tracking requests for what it names)',
    async (row) => {
      await service.track(row.account_id, row.id);
    },
  );
  action(
    'rotate',
    'Rotate a document',
    async (row, body) => {
      const degrees = (body as { degrees: number }).degrees;
      await store.setRotation(row.account_id, row.id, (row.rotation + degrees) % 360);
    },
    Type.Object({
      degrees: Type.Union([Type.Literal(90), Type.Literal(180), Type.Literal(270)]),
    }),
  );
}

const DATA_URL_RE = /^data:([\w.+-]+\/[\w.+-]+)?(?:;[\w-]+=[^;,]*)*;base64,([A-Za-z0-9+/=\s]*)$/;

function jsonFile(body: unknown): Incoming {
  const attrs = (body as { data?: { type?: unknown; attributes?: Record<string, unknown> } })?.data
    ?.attributes;
  const pointer = (name: string) => ({ source: { pointer: `/data/attributes/${name}` } });
  if ((body as { data?: { type?: unknown } })?.data?.type !== 'document') {
    throw new ApiError(422, "data.type must be 'document'", { source: { pointer: '/data/type' } });
  }
  const name = attrs?.name;
  if (typeof name !== 'string' || !name.trim()) {
    throw new ApiError(422, "Name can't be blank", pointer('name'));
  }
  const attached = attrs?.attached_document;
  const match = typeof attached === 'string' ? DATA_URL_RE.exec(attached) : null;
  if (!match) {
    throw new ApiError(
      422,
      'attached_document must be a data: URL with the base64 file (or upload with multipart/form-data)',
      pointer('attached_document'),
    );
  }
  return {
    bytes: Buffer.from(match[2]!, 'base64'),
    fileName: name.trim(),
    name: name.trim(),
    shipmentIds: jsonShipmentIds(body),
    deliveryOrderRaw: attrs?.delivery_order,
  };
}

/** `data.relationships.shipments.data`: absent, or a list of shipment identifiers. */
function jsonShipmentIds(body: unknown): string[] {
  const relationships = (body as { data?: { relationships?: unknown } }).data?.relationships;
  if (relationships === undefined) return [];
  const shipments = (relationships as { shipments?: { data?: unknown } } | null)?.shipments;
  if (shipments === undefined) return [];
  const list = shipments?.data;
  if (!Array.isArray(list) || list.length > MAX_SHIPMENTS) {
    throw new ApiError(
      422,
      `relationships.shipments.data must be a list of at most ${MAX_SHIPMENTS} shipment identifiers`,
      { source: { pointer: '/data/relationships/shipments/data' } },
    );
  }
  return list.map((item: unknown, i) => {
    const ref = item as { type?: unknown; id?: unknown } | null;
    if (ref?.type !== 'shipment' || typeof ref.id !== 'string') {
      throw new ApiError(422, "Each shipment identifier is {type: 'shipment', id}", {
        source: { pointer: `/data/relationships/shipments/data/${i}` },
      });
    }
    return ref.id;
  });
}

async function multipartFile(request: FastifyRequest): Promise<Incoming> {
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
