/**
 * `/mcp`: the assistant tools over streamable HTTP, beside `/v2`, authorised by the same API
 * key hook. Stateless: each POST gets its own server over the caller's account, so nothing of
 * one account is ever held where another's request could reach it.
 */
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createQuaysideMcpServer } from '../../shared/mcp/tools';
import type { ServiceContext } from '../context';
import { serviceMcpSource } from './service-source';

export const MCP_PATH = '/mcp';
const VERSION = '0.1.0';

export function registerMcpRoute(
  app: FastifyInstance,
  root: FastifyInstance,
  ctx: ServiceContext,
): void {
  // JSON-RPC, not a /v2 resource: kept out of the OpenAPI document.
  const options = { schema: { hide: true } };
  app.post('/', options, async (request: FastifyRequest, reply: FastifyReply) => {
    const source = serviceMcpSource(root, request.headers.authorization ?? '', ctx.clock);
    const server = createQuaysideMcpServer(source, VERSION);
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    reply.hijack();
    reply.raw.once('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(request.raw, reply.raw, request.body);
  });
  // Stateless: no server-sent stream to open and no session to end.
  const notAllowed = async (_request: FastifyRequest, reply: FastifyReply) =>
    reply
      .code(405)
      .header('allow', 'POST')
      .send({
        jsonrpc: '2.0',
        error: { code: -32000, message: 'Method not allowed: POST only.' },
        id: null,
      });
  app.get('/', options, notAllowed);
  app.delete('/', options, notAllowed);
}
