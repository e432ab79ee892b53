import { InvalidClientError } from '@authz/shared/errors';
import type { FastifyRequest } from 'fastify';
import type { RateLimitBudget } from '../plugins/rate-limit.js';
import { withFailureBudget } from './failure-budget.js';

const BUCKET = 'client-auth-failure';

/**
 * The endpoints a client authenticates to have no per-address budget of their own: oauth
 * limits them per authenticated client (docs/security.md #11). What an address may not do is
 * guess client secrets: each invalid_client answer counts against the address, and an address
 * that spent its budget is refused before its credentials are even checked, so a right guess
 * after the budget is spent is never confirmed. The check is in memory; only failures touch
 * Redis.
 */
export async function withClientAuthFailureBudget<T>(
  request: FastifyRequest,
  budget: RateLimitBudget,
  call: () => Promise<T>,
): Promise<T> {
  return withFailureBudget(request, BUCKET, budget, (error) => error instanceof InvalidClientError, call);
}
