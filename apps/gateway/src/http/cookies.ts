import { InternalError } from '@authz/shared/errors';
import { SESSION_COOKIE } from '@authz/shared/protocol';
import { sessionTokenOf } from '@authz/shared/sessions';
import type { FastifyRequest } from 'fastify';

/**
 * The request's cookies, parsed on demand: only the hosted pages, the authorization endpoint
 * and the consents API read them, so no other route pays for it. The first of two cookies of
 * one name wins (RFC 6265 section 5.4 orders longer paths first).
 */
export function requestCookies(request: FastifyRequest): Record<string, string> {
  const header = request.headers.cookie;
  return header ? { ...request.server.parseCookie(header) } : {};
}

/** The browser session cookie's value (interface.md 5), when the browser sent one. */
export function sessionToken(request: FastifyRequest): string | undefined {
  return sessionTokenOf(requestCookies(request));
}

/**
 * interface.md 4.3: the Set-Cookie value that removes the session cookie once its session ended
 * (RFC 6265 section 5.3 step 11: Max-Age=0 expires it at once), with the same attributes the
 * `__Host-` prefix requires.
 */
export function clearedSessionCookie(): string {
  return `${SESSION_COOKIE}=; Path=/; Secure; HttpOnly; SameSite=Lax; Max-Age=0`;
}

/** RFC 6265 section 4.1.1 cookie-octet: what a value may hold without quoting. */
const COOKIE_VALUE = /^[\x21\x23-\x2b\x2d-\x3a\x3c-\x5b\x5d-\x7e]+$/;

/**
 * The Set-Cookie value of a browser session a hosted sign-in opened (docs/hosted-pages.md #2):
 * host-only with Path=/ and Secure as the `__Host-` prefix requires, HttpOnly, and Lax so the
 * top-level GET back from a client carries it while a cross-site POST does not. Without a
 * lifetime it has no Max-Age or Expires: the browser drops it with its own session while
 * identity enforces the real one.
 */
export function sessionCookie(sessionToken: string, maxAgeSeconds?: bigint): string {
  if (!COOKIE_VALUE.test(sessionToken)) {
    throw new InternalError({ detail: 'session token is not a cookie-octet string' });
  }
  const maxAge = maxAgeSeconds === undefined ? '' : `; Max-Age=${maxAgeSeconds < 0n ? 0n : maxAgeSeconds}`;
  return `${SESSION_COOKIE}=${sessionToken}; Path=/; Secure; HttpOnly; SameSite=Lax${maxAge}`;
}
