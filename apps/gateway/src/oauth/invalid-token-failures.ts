import { InvalidBearerTokenError } from '@authz/shared/errors';
import type { FastifyRequest } from 'fastify';
import type { RateLimitBudget } from '../plugins/rate-limit.js';
import { withFailureBudget } from './failure-budget.js';

const BUCKET = 'invalid-token';

/**
 * UserInfo has no per-address budget of its own: oauth limits it per client, counted against
 * the client of the access token once it verified (docs/security.md #11). What an address may
 * not do unbounded is present tokens that do not verify: each invalid_token answer (RFC 6750
 * section 3.1) counts against the address, and an address that spent its budget is refused
 * before its token is checked.
 */
export async function withInvalidTokenBudget<T>(
  request: FastifyRequest,
  budget: RateLimitBudget,
  call: () => Promise<T>,
): Promise<T> {
  return withFailureBudget(
    request,
    BUCKET,
    budget,
    (error) => error instanceof InvalidBearerTokenError,
    call,
  );
}
