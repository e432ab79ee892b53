import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { RateLimitBudget } from '../plugins/rate-limit.js';

/**
 * interface.md 4.10 account deletion takes the password, so it is a door to guessing it: one
 * budget per address (an IPv6 address under its /64 and /48, docs/security.md #11) and one per
 * account, so a stolen access token cannot be used to guess from many addresses. The JSON
 * route and the account page share both (docs/security.md #13).
 */
export async function consumeAccountDeletionBudgets(
  request: FastifyRequest,
  budget: RateLimitBudget,
  userId: string | undefined,
): Promise<void> {
  const limiter = request.server.rateLimiter;
  await limiter.consumeAddress('account-deletion-ip', budget, request.ip);
  if (userId !== undefined) await limiter.consume('account-deletion-account', budget, accountKey(userId));
}

/** Redis keys never hold the user id itself. */
function accountKey(userId: string): string {
  return `account:${createHash('sha256').update(userId.toLowerCase()).digest('hex')}`;
}
