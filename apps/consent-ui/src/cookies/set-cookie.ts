import { SESSION_COOKIE } from '@authz/shared/protocol';

/** The sign-in form's pre-session cookie (docs/decisions.md #17, docs/hosted-pages.md #3). */
export const LOGIN_COOKIE = '__Host-service_login';

/** The pre-session cookie lives as long as a pending authorization (interface.md 2.6: 10 minutes). */
export const LOGIN_COOKIE_MAX_AGE_SECONDS = 600;

/** RFC 6265 section 4.1.1 cookie-octet: what a value may hold without quoting. */
const COOKIE_VALUE = /^[\x21\x23-\x2b\x2d-\x3a\x3c-\x5b\x5d-\x7e]*$/;

/**
 * A complete Set-Cookie value. The browser session's cookie is the gateway's to build from a
 * sign-in outcome (docs/hosted-pages.md #2). Every other cookie of the hosted pages is host-only with Path=/,
 * Secure (docs/decisions.md #18), HttpOnly and SameSite=Lax, as the `__Host-` prefix requires
 * (RFC 6265bis section 4.1.3.2): no script reads them, and a cross-site POST does not carry
 * them while the top-level return from the client (a GET) does.
 */
function setCookie(name: string, value: string, maxAgeSeconds?: number): string {
  if (!COOKIE_VALUE.test(value)) throw new Error(`cookie ${name}: value is not a cookie-octet string`);
  const maxAge = maxAgeSeconds === undefined ? '' : `; Max-Age=${maxAgeSeconds}`;
  return `${name}=${value}; Path=/; Secure; HttpOnly; SameSite=Lax${maxAge}`;
}

export function loginCookie(preSession: string): string {
  return setCookie(LOGIN_COOKIE, preSession, LOGIN_COOKIE_MAX_AGE_SECONDS);
}

/** RFC 6265 section 3.1: an already expired cookie removes the stored one. */
export function clearedLoginCookie(): string {
  return setCookie(LOGIN_COOKIE, '', 0);
}

/**
 * Removes the browser's session cookie once the session it names has ended (sign-out, account
 * deletion; docs/hosted-pages.md #26). Only ever a removal: the gateway alone sets a session.
 */
export function clearedSessionCookie(): string {
  return setCookie(SESSION_COOKIE, '', 0);
}

/** The browser's upstream sign-in flow (docs/federation.md #6); lives as long as the flow. */
export const FEDERATION_COOKIE = '__Host-service_federation';

export function federationCookie(binder: string, maxAgeSeconds: number): string {
  return setCookie(FEDERATION_COOKIE, binder, maxAgeSeconds);
}

export function clearedFederationCookie(): string {
  return setCookie(FEDERATION_COOKIE, '', 0);
}
