import type { AuthenticatedClient } from '../client-authentication/authenticated-client.js';

// Clients a verified developer or this server vouches for (interface.md 5 resolution order).
const VOUCHED_FOR: ReadonlySet<string> = new Set(['pre_registered', 'first_party']);

/**
 * RFC 9700 section 4.11.2: anyone can register a redirect URI through open registration
 * (RFC 7591) or a client ID metadata document, so before the user has interacted only the
 * clients vouched for get their errors redirected (RFC 6749 section 4.1.2.1); the others' errors
 * are shown on the error page (docs/authorization.md #19). Unknown sources are not vouched for.
 */
export function mayRedirectErrors(client: Pick<AuthenticatedClient, 'source'>): boolean {
  return VOUCHED_FOR.has(client.source);
}
