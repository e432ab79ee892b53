import type { Page } from '@authz/proto/consentui/v1/consentui';
import type { FastifyReply } from 'fastify';
import { allowFormActionOrigins, allowSameOriginScripts } from './form-action.js';

/** Pages show per-user state (sessions, CSRF tokens, pending authorizations): never cached. */
export const PAGE_CACHE_CONTROL = 'no-store';

/**
 * Writes a page consent-ui rendered as the response: its status, type, body, Location and
 * every Set-Cookie as given. The gateway's security headers (CSP, framing, referrer) are
 * already on the reply; the page may only widen form-action to the origins it names, and
 * allow our own scripts when it runs a WebAuthn ceremony.
 */
export function sendPage(reply: FastifyReply, page: Page, cacheControl = PAGE_CACHE_CONTROL): FastifyReply {
  reply.code(page.status).header('cache-control', cacheControl);
  if (page.location !== undefined) reply.header('location', page.location);
  if (page.setCookies.length > 0) reply.header('set-cookie', page.setCookies);
  allowFormActionOrigins(reply, page.formActionOrigins);
  if (page.sameOriginScripts) allowSameOriginScripts(reply);
  return reply.type(page.contentType).send(page.body);
}
