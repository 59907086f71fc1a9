/** The addresses webhook notifications are sent from, for receivers' firewall allow-lists. */
import os from 'node:os';
import { Type } from 'typebox';
import { accountOf, sendJson, type ApiPlugin } from './http';

/**
 * This host's external IPv4 addresses: deliveries leave from one of them. An operator behind NAT
 * sets `webhookSourceIps` in the service config instead.
 */
function hostAddresses(): string[] {
  return Object.values(os.networkInterfaces())
    .flatMap((list) => list ?? [])
    .filter((a) => a.family === 'IPv4' && !a.internal)
    .map((a) => a.address);
}

export const webhookIpRoutes: ApiPlugin = async (app, { ctx }) => {
  // Known when the service starts; the list changes only with the host's network setup.
  const lastUpdated = new Date(ctx.clock.now()).toISOString();
  app.get(
    '/webhooks/ips',
    {
      schema: {
        tags: ['Webhooks'],
        summary: 'The IP addresses webhook notifications are sent from',
        description:
          "The configured `webhookSourceIps`, else this host's external IPv4 addresses (deliveries leave from one of them).",
        response: {
          200: Type.Object({
            webhook_notification_ips: Type.Array(Type.String()),
            last_updated: Type.String({ format: 'date-time' }),
          }),
        },
      },
    },
    async (request, reply) => {
      accountOf(request);
      const ips = ctx.config.webhookSourceIps ?? hostAddresses();
      return sendJson(reply, 200, { webhook_notification_ips: ips, last_updated: lastUpdated });
    },
  );
};
