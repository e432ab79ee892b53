import type { GetBrowserSessionResponse } from '@authz/proto/identity/v1/identity';
import { constantTimeEqual } from '@authz/shared/crypto';
import { InvalidCsrfTokenError } from '@authz/shared/errors';
import { requireBrowserSession as requireSession } from '@authz/shared/sessions';
import type { FastifyRequest } from 'fastify';
import type { Upstreams } from '../plugins/upstreams.js';
import { sessionToken } from './cookies.js';

/**
 * interface.md 5: the signed-in user of a cookie-authenticated API call. No cookie, or one identity
 * does not know (unknown, expired, ended), is UnauthorizedError; any other failure, identity
 * unreachable among them, propagates (@authz/shared/sessions).
 */
export function requireBrowserSession(
  upstreams: Upstreams,
  request: FastifyRequest,
): Promise<GetBrowserSessionResponse> {
  return requireSession(sessionToken(request), (token) =>
    upstreams.identity.getBrowserSession({ sessionToken: token }),
  );
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
