import { InvalidTargetError } from '@authz/shared/errors';
import type { AuthenticatedClient } from '../client-authentication/authenticated-client.js';
import { checkResource } from './check-resource.js';

/**
 * RFC 8707 section 2.2 at the token endpoint (authorization_code and refresh_token grants):
 * resources named now must have been authorized; none keeps the authorized ones (or the
 * client's audience when none were). The client's audience list is checked again, as it may
 * have changed since (docs/decisions.md #9). Returns the aud.
 */
export function checkAuthorizedResource(
  client: Pick<AuthenticatedClient, 'audienceList' | 'audience'>,
  authorized: readonly string[],
  requested: readonly string[],
): string | string[] {
  if (requested.length === 0) return checkResource(client, authorized);
  const outside = requested.filter((resource) => !authorized.includes(resource));
  if (outside.length > 0) {
    throw new InvalidTargetError({
      message: 'The resource was not part of the authorization',
      detail: `resource ${outside.join(' ')}`,
    });
  }
  return checkResource(client, requested);
}
