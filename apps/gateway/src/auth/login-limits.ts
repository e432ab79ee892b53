import { createHash } from 'node:crypto';
import type { AppError } from '@authz/shared/errors';
import type { FastifyRequest } from 'fastify';
import { addressKeys } from '../plugins/address-keys.js';
import type { RateLimitBudget } from '../plugins/rate-limit.js';

/** The sign-in budget (interface.md 8) and how long a successful address is remembered. */
export interface LoginLimits extends RateLimitBudget {
  knownAddressTtlSeconds: number;
}

/**
 * Counts one sign-in attempt per IP and per account, so one address can't be guessed at from
 * many IPs (interface.md 8). POST /auth/login and the hosted POST /ui/login share both budgets: a
 * second door to the same passwords must not double the guesses. An IP the account signed in
 * from within `knownAddressTtlSeconds` is spared the account budget (its own per-IP budget
 * still applies), so failures from elsewhere never lock the owner out of the places they use
 * (docs/security.md #5).
 */
export async function consumeLoginBudgets(
  request: FastifyRequest,
  limits: LoginLimits,
  email: string | undefined,
): Promise<void> {
  const limiter = request.server.rateLimiter;
  await limiter.consumeAddress('login-ip', limits, request.ip);
  if (email === undefined) return;
  const account = accountKey(email);
  if (await limiter.isMarked('login-known', knownAddress(account, request))) return;
  await limiter.consume('login-account', limits, account);
}

/** After a successful sign-in: this IP is known to the account from now on. */
export async function rememberSignInAddress(
  request: FastifyRequest,
  limits: LoginLimits,
  email: string,
): Promise<void> {
  await request.server.rateLimiter.mark(
    'login-known',
    knownAddress(accountKey(email), request),
    limits.knownAddressTtlSeconds,
  );
}

// An IPv6 owner's address changes inside its /64 (RFC 8981): the /64 is what is remembered.
function knownAddress(account: string, request: FastifyRequest): string {
  return `${account}:${addressKeys(request.ip)[0]!.key}`;
}

/** Redis keys never hold the address itself. */
function accountKey(email: string): string {
  return `account:${createHash('sha256').update(email.trim().toLowerCase()).digest('hex')}`;
}

/** login_attempts_total's outcome for a sign-in that failed with `error`. */
export function loginOutcome(error: AppError): string {
  if (error.statusCode === 401) return 'failure';
  if (error.statusCode === 429) return 'rate_limited';
  // A malformed attempt (validation, a body that is not a form), not a guess.
  if (error.statusCode >= 400 && error.statusCode < 500) return 'invalid_request';
  return 'error';
}
