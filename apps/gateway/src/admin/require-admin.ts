import { createHash } from 'node:crypto';
import { UnauthorizedError } from '@authz/shared/errors';
import type { FastifyRequest } from 'fastify';
import { bearerToken } from '../http/bearer-token.js';
import type { RateLimitBudget } from '../plugins/rate-limit.js';
import type { Upstreams } from '../plugins/upstreams.js';

const admins = new WeakMap<FastifyRequest, string>();

/**
 * interface.md 4.15, docs/admin-api.md #2: a live first-party user token (401 otherwise, with
 * the Bearer challenge), whose user identity finds holding the admin role on this very call
 * (403 otherwise), then the per-admin budget (docs/admin-api.md #12). A preValidation hook, so
 * nobody learns anything about a body or an id before being let in.
 */
export function requireAdmin(upstreams: Upstreams, budget: RateLimitBudget) {
  return async (request: FastifyRequest): Promise<void> => {
    const { sub } = await upstreams.tokens.verifyAccessToken({
      accessToken: bearerToken(request),
      requireFirstPartyUser: true,
    });
    await upstreams.admin.authorizeAdmin({ adminUserId: sub });
    await request.server.rateLimiter.consume('admin', budget, adminKey(sub));
    admins.set(request, sub);
  };
}

/** The admin `requireAdmin` let in for this request. */
export function adminOf(request: FastifyRequest): string {
  const admin = admins.get(request);
  if (!admin) throw new UnauthorizedError({ detail: 'route without requireAdmin' });
  return admin;
}

/** Redis keys never hold the user id itself. */
function adminKey(userId: string): string {
  return `admin:${createHash('sha256').update(userId.toLowerCase()).digest('hex')}`;
}
