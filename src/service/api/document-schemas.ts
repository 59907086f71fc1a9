/** /document_schemas/{id}: what extraction yields for a document type (id = the type code). */
import { DOCUMENT_TYPES, SCHEMA_VERSION, isDocumentType, schemaPayload } from '../documents/types';
import { notFound } from '../jsonapi/errors';
import { IdParams, accountOf, sendDocument, type ApiPlugin } from './http';

export const documentSchemaRoutes: ApiPlugin = async (app) => {
  app.get(
    '/document_schemas/:id',
    {
      schema: {
        tags: ['Document Schemas'],
        summary: 'Get a document schema',
        description: `The id is a document type (${DOCUMENT_TYPES.map((t) => t.code).join(', ')}), optionally with @version.`,
        params: IdParams,
      },
    },
    async (request, reply) => {
      accountOf(request);
      const { id } = request.params;
      const [type, version] = id.split('@');
      if (!type || !isDocumentType(type) || (version && version !== SCHEMA_VERSION)) {
        throw notFound("Couldn't find DocumentSchema");
      }
      const label = DOCUMENT_TYPES.find((t) => t.code === type)!.label;
      const activeAt = `${SCHEMA_VERSION}T00:00:00.000Z`;
      return sendDocument(reply, 200, {
        data: {
          id: type,
          type: 'document_schema',
          attributes: {
            document_type: type,
            label,
            schema_version: SCHEMA_VERSION,
            full_version: `${type}@${SCHEMA_VERSION}`,
            current: true,
            draft: false,
            active_at: activeAt,
            schema_format: 'json_schema',
            description: `Values Quayside extracts from a ${label.toLowerCase()}; each carries its page and confidence.`,
            schema_payload: schemaPayload(type),
            created_at: activeAt,
            updated_at: activeAt,
          },
          links: { self: `/v2/document_schemas/${type}` },
        },
        links: { self: `/v2/document_schemas/${type}` },
      });
    },
  );
};
