/** GET /search: shipments, containers and tracking requests by any of their numbers. */
import { Type } from 'typebox';
import { SearchDocument } from '../../shared/api/documents';
import { searchRecords } from '../resources/search';
import { accountOf, sendDocument, type ApiPlugin } from './http';

export const searchRoutes: ApiPlugin = async (app, { ctx }) => {
  app.get(
    '/search',
    {
      schema: {
        tags: ['Search'],
        summary: 'Search shipments, containers and tracking requests',
        querystring: Type.Object({ query: Type.Optional(Type.String()) }),
        response: { 200: SearchDocument },
      },
    },
    async (request, reply) => {
      const data = await searchRecords(ctx, accountOf(request).id, request.query.query);
      return sendDocument(reply, 200, { data });
    },
  );
};
