import type { GetBrowserSessionResponse } from '@authz/proto/identity/v1/identity';
import { constantTimeEqual } from '@authz/shared/crypto';
import { InvalidCsrfTokenError, NotFoundError, UnauthorizedError } from '@authz/shared/errors';
import type { FastifyRequest } from 'fastify';
import type { Upstreams } from '../plugins/upstreams.js';
import { sessionToken } from './cookies.js';

/**
 * interface.md 5: the signed-in user of a cookie-authenticated API call. No cookie, or one identity
 * does not know (unknown, expired, ended), is UnauthorizedError.
 */
export async function requireBrowserSession(
  upstreams: Upstreams,
  request: FastifyRequest,
): Promise<GetBrowserSessionResponse> {
  const token = sessionToken(request);
  if (token === undefined) throw new UnauthorizedError({ detail: 'no session cookie' });
  try {
    return await upstreams.identity.getBrowserSession({ sessionToken: token });
  } catch (error) {
    if (error instanceof NotFoundError) throw new UnauthorizedError({ detail: 'session unknown' });
    throw error;
  }
}

/**
 * interface.md 5 and docs/decisions.md #17: a state-changing API call proves it comes from our own pages
 * with the session's CSRF token in X-CSRF-Token, compared in constant time.
 */
export function checkCsrfHeader(request: FastifyRequest, session: GetBrowserSessionResponse): void {
  const sent = request.headers['x-csrf-token'];
  if (typeof sent !== 'string' || !session.csrfToken || !constantTimeEqual(sent, session.csrfToken)) {
    throw new InvalidCsrfTokenError({ detail: 'X-CSRF-Token missing or not the session token' });
  }
}
