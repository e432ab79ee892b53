import { SESSION_COOKIE } from '@authz/shared/protocol';
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
  return requestCookies(request)[SESSION_COOKIE] || undefined;
}
