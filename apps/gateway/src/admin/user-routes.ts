import type { FastifyInstance, FastifyRequest } from 'fastify';
import { requestOrigin } from '../http/request-origin.js';
import { noStore } from '../http/no-store.js';
import * as schemas from './admin-schemas.js';
import { given, pageLimitOf, toAdminUserView } from './admin-views.js';
import { adminOf } from './require-admin.js';
import type { AdminRouteOptions } from './admin-route-options.js';

interface ById {
  Params: { id: string };
}

export const PASSWORD_RESET_SENT_MESSAGE = 'Password reset email queued';

/**
 * interface.md 4.15 accounts. identity checks the admin role again on every call and owns the
 * accounts; oauth ends tokens (docs/tokens.md #31) and orchestrates deletion (docs/identity.md #19).
 */
export async function adminUserRoutes(app: FastifyInstance, { upstreams, route }: AdminRouteOptions) {
  const target = (request: FastifyRequest<ById>) => ({
    adminUserId: adminOf(request),
    userId: request.params.id,
    origin: requestOrigin(request),
  });

  app.get<{ Querystring: { query?: string; cursor?: string; limit?: string } }>(
    '/admin/users',
    { ...route, schema: { querystring: schemas.userListQuery, response: { 200: schemas.userList } } },
    async (request, reply) => {
      const { query, cursor, limit } = request.query;
      const page = await upstreams.admin.listUsers({
        adminUserId: adminOf(request),
        ...(given(query) === undefined ? {} : { query }),
        ...(given(cursor) === undefined ? {} : { cursor }),
        limit: pageLimitOf(limit),
      });
      return noStore(reply).send({
        users: page.users.map(toAdminUserView),
        nextCursor: page.nextCursor ?? null,
      });
    },
  );

  app.get<ById>(
    '/admin/users/:id',
    { ...route, schema: { params: schemas.idParams, response: { 200: schemas.adminUser } } },
    async (request, reply) => {
      const { adminUserId, userId } = target(request);
      const { user } = await upstreams.admin.getAdminUser({ adminUserId, userId });
      return noStore(reply).send(toAdminUserView(user));
    },
  );

  app.patch<ById & { Body: { disabled?: boolean; emailVerified?: boolean } }>(
    '/admin/users/:id',
    {
      ...route,
      schema: {
        params: schemas.idParams,
        body: schemas.updateUserBody,
        response: { 200: schemas.adminUser },
      },
    },
    async (request, reply) => {
      const { disabled, emailVerified } = request.body;
      const { user } = await upstreams.admin.updateAdminUser({
        ...target(request),
        ...(disabled === undefined ? {} : { disabled }),
        ...(emailVerified === undefined ? {} : { emailVerified }),
      });
      // docs/admin-api.md #4: identity ended the sessions; the refresh families and the live
      // access tokens end here, before the answer (idempotent, so a repeat is harmless).
      if (disabled === true) await upstreams.userTokens.revokeUserTokens({ userId: user!.id });
      return noStore(reply).send(toAdminUserView(user));
    },
  );

  app.delete<ById>(
    '/admin/users/:id',
    { ...route, schema: { params: schemas.idParams, response: { 204: schemas.noContent } } },
    async (request, reply) => {
      await upstreams.accountLifecycle.deleteAccountAsAdmin(target(request));
      return reply.code(204).send();
    },
  );

  app.post<ById>(
    '/admin/users/:id/sessions/revoke',
    { ...route, schema: { params: schemas.idParams, response: { 200: schemas.endedSessions } } },
    async (request, reply) => {
      const { endedSessions } = await upstreams.admin.endUserSessions(target(request));
      // Session ends reach oauth through identity's outbox (back-channel logout included,
      // docs/identity.md #17); tokens issued outside a session end here.
      await upstreams.userTokens.revokeUserTokens({ userId: request.params.id.toLowerCase() });
      return noStore(reply).send({ endedSessions });
    },
  );

  app.post<ById>(
    '/admin/users/:id/password-reset',
    { ...route, schema: { params: schemas.idParams, response: { 202: schemas.message } } },
    async (request, reply) => {
      await upstreams.admin.sendPasswordReset(target(request));
      return noStore(reply).code(202).send({ message: PASSWORD_RESET_SENT_MESSAGE });
    },
  );
}
