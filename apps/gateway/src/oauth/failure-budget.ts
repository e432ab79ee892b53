import type { FastifyRequest } from 'fastify';
import type { RateLimitBudget } from '../plugins/rate-limit.js';

/**
 * Runs `call` under a per-address budget of its failures (docs/security.md #11): an address
 * that spent the budget of `bucket` is refused before `call` runs; each error `isFailure`
 * accepts counts against the address, the answer itself unchanged (only the next request meets
 * the 429). The check is in memory; only failures touch Redis.
 */
export async function withFailureBudget<T>(
  request: FastifyRequest,
  bucket: string,
  budget: RateLimitBudget,
  isFailure: (error: unknown) => boolean,
  call: () => Promise<T>,
): Promise<T> {
  const limiter = request.server.rateLimiter;
  limiter.checkAddress(bucket, request.ip);
  try {
    return await call();
  } catch (error) {
    if (isFailure(error)) await limiter.countFailure(bucket, budget, request.ip);
    throw error;
  }
}
