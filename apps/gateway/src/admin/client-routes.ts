import type { FastifyInstance } from 'fastify';
import { requestOrigin } from '../http/request-origin.js';
import { noStore } from '../http/no-store.js';
import * as schemas from './admin-schemas.js';
import { given, pageLimitOf, toAdminClientView } from './admin-views.js';
import { adminOf } from './require-admin.js';
import type { AdminRouteOptions } from './admin-route-options.js';

/**
 * interface.md 4.15 clients of every developer. clients applies the change (the environment by
 * the operator command's own function, docs/decisions.md #14); identity then records it as the
 * admin's action (docs/admin-api.md #8).
 */
export async function adminClientRoutes(app: FastifyInstance, { upstreams, route }: AdminRouteOptions) {
  app.get<{ Querystring: { developerId?: string; cursor?: string; limit?: string } }>(
    '/admin/clients',
    { ...route, schema: { querystring: schemas.clientListQuery, response: { 200: schemas.clientList } } },
    async (request, reply) => {
      const { developerId, cursor, limit } = request.query;
      const page = await upstreams.clientAdmin.listAllClients({
        ...(given(developerId) === undefined ? {} : { developerId }),
        ...(given(cursor) === undefined ? {} : { cursor }),
        limit: pageLimitOf(limit),
      });
      return noStore(reply).send({
        clients: page.clients.map(toAdminClientView),
        nextCursor: page.nextCursor ?? null,
      });
    },
  );

  app.patch<{ Params: { id: string }; Body: { enabled?: boolean; environment?: string } }>(
    '/admin/clients/:id',
    {
      ...route,
      schema: {
        params: schemas.idParams,
        body: schemas.updateClientBody,
        response: { 200: schemas.adminClient },
      },
    },
    async (request, reply) => {
      const { enabled, environment } = request.body;
      const { client, revokedApiKeys } = await upstreams.clientAdmin.administerClient({
        id: request.params.id,
        ...(enabled === undefined ? {} : { enabled }),
        ...(environment === undefined ? {} : { environment }),
      });
      const view = toAdminClientView(client);
      await upstreams.admin.recordAdminEvent({
        adminUserId: adminOf(request),
        type: 'admin_client_updated',
        origin: requestOrigin(request),
        details: {
          clientId: view.clientId,
          ...(enabled === undefined ? {} : { enabled: String(enabled) }),
          ...(environment === undefined ? {} : { environment, revokedApiKeys: String(revokedApiKeys) }),
        },
      });
      return noStore(reply).send(view);
    },
  );
}
