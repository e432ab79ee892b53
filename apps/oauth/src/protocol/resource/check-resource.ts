import { InvalidTargetError } from '@authz/shared/errors';
import type { AuthenticatedClient } from '../client-authentication/authenticated-client.js';

// RFC 3986 section 4.3: absolute-URI = scheme ":" hier-part [ "?" query ] (no fragment).
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;

/**
 * RFC 8707 section 2 and docs/decisions.md #9: the aud of a token bound to the `resource` values
 * sent. No resource keeps the client's audience (interface.md 2.5). A client without an audience list
 * may name any absolute URI without a fragment; a client with one only its entries. Anything
 * else is invalid_target. One resource gives a string, several an array.
 */
export function checkResource(
  client: Pick<AuthenticatedClient, 'audienceList' | 'audience'>,
  resources: readonly string[],
): string | string[] {
  if (resources.length === 0) return client.audience;
  const named = [...new Set(resources)];
  for (const resource of named) {
    if (!isAbsoluteUriWithoutFragment(resource)) {
      throw new InvalidTargetError({
        message: 'resource must be an absolute URI without a fragment',
        detail: `resource ${resource}`,
      });
    }
    if (client.audienceList.length > 0 && !client.audienceList.includes(resource)) {
      throw new InvalidTargetError({
        message: 'The resource is not an audience of this client',
        detail: `resource ${resource} outside the audience list`,
      });
    }
  }
  return named.length === 1 ? named[0]! : named;
}

function isAbsoluteUriWithoutFragment(value: string): boolean {
  return SCHEME.test(value) && !value.includes('#') && !/\s/.test(value) && URL.canParse(value);
}
