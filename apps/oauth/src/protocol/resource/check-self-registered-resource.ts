import { InvalidTargetError } from '@authz/shared/errors';
import type { AuthenticatedClient } from '../client-authentication/authenticated-client.js';

/** Client records a verified developer owns (docs/clients.md), or the server's own client. */
const ACCOUNTABLE_SOURCES: ReadonlySet<string> = new Set(['pre_registered', 'first_party']);

/**
 * docs/decisions.md #9 and docs/security.md #12: a client acting for itself (RFC 6749 section
 * 4.4) names a resource only when someone answers for it. A client from open registration
 * (RFC 7591) or a client ID metadata document needs no account, so its `resource` would have
 * this server sign tokens for any API; it is invalid_target (RFC 8707 section 2), and its
 * tokens keep aud = its client_id (interface.md 2.5).
 */
export function checkSelfRegisteredResource(
  client: Pick<AuthenticatedClient, 'source'>,
  resources: readonly string[],
): void {
  if (resources.length === 0 || ACCOUNTABLE_SOURCES.has(client.source)) return;
  throw new InvalidTargetError({
    message: 'A self-registered client may not name a resource',
    detail: `client source ${client.source}`,
  });
}
