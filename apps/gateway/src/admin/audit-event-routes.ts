import type { FastifyInstance } from 'fastify';
import { noStore } from '../http/no-store.js';
import * as schemas from './admin-schemas.js';
import { given, pageLimitOf, toAuditEventView } from './admin-views.js';
import { adminOf } from './require-admin.js';
import type { AdminRouteOptions } from './admin-route-options.js';

interface AuditQuery {
  userId?: string;
  type?: string;
  since?: string;
  cursor?: string;
  limit?: string;
}

/** interface.md 4.15 audit log, newest first (docs/admin-api.md #6, #8). */
export async function adminAuditEventRoutes(app: FastifyInstance, { upstreams, route }: AdminRouteOptions) {
  app.get<{ Querystring: AuditQuery }>(
    '/admin/audit-events',
    {
      ...route,
      schema: { querystring: schemas.auditEventQuery, response: { 200: schemas.auditEventList } },
    },
    async (request, reply) => {
      const { userId, type, since, cursor, limit } = request.query;
      const page = await upstreams.admin.listAuditEvents({
        adminUserId: adminOf(request),
        ...(given(userId) === undefined ? {} : { userId }),
        ...(given(type) === undefined ? {} : { type }),
        ...(given(since) === undefined ? {} : { since: BigInt(since!) }),
        ...(given(cursor) === undefined ? {} : { cursor }),
        limit: pageLimitOf(limit),
      });
      return noStore(reply).send({
        events: page.events.map(toAuditEventView),
        nextCursor: page.nextCursor ?? null,
      });
    },
  );
}
