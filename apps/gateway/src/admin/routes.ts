import type { FastifyInstance } from 'fastify';
import type { AdminRouteOptions } from './admin-route-options.js';
import type { RateLimitBudget } from '../plugins/rate-limit.js';
import type { Upstreams } from '../plugins/upstreams.js';
import { adminAuditEventRoutes } from './audit-event-routes.js';
import { adminClientRoutes } from './client-routes.js';
import { requireAdmin } from './require-admin.js';
import { adminSigningKeyRoutes } from './signing-key-routes.js';
import { adminUserRoutes } from './user-routes.js';

export interface AdminRoutesOptions {
  upstreams: Upstreams;
  /** docs/admin-api.md #12: per admin, over every admin route. */
  adminBudget: RateLimitBudget;
}

/** interface.md 4.15: the operator (admin) API, same-origin JSON with a Bearer token. */
export async function adminRoutes(app: FastifyInstance, { upstreams, adminBudget }: AdminRoutesOptions) {
  const options: AdminRouteOptions = {
    upstreams,
    route: { preValidation: requireAdmin(upstreams, adminBudget), config: { authChallenge: 'Bearer' } },
  };
  await adminUserRoutes(app, options);
  await adminClientRoutes(app, options);
  await adminAuditEventRoutes(app, options);
  await adminSigningKeyRoutes(app, options);
}
