import { InvalidScopeError } from '@authz/shared/errors';
import type { AuthenticatedClient } from '../client-authentication/authenticated-client.js';
import { parseScope } from './scope.js';

/**
 * interface.md 5 and docs/decisions.md #8, deny-by-default: every requested scope must be in the client's
 * allow-list (else invalid_scope, RFC 6749 section 5.2); nothing requested grants nothing.
 * Returns the granted scope.
 */
export function checkClientScope(
  client: Pick<AuthenticatedClient, 'scopes'>,
  requested: string | undefined,
): string[] {
  const scope = parseScope(requested);
  const outside = scope.filter((token) => !client.scopes.includes(token));
  if (outside.length > 0) {
    throw new InvalidScopeError({
      message: 'The requested scope is not allowed for this client',
      detail: `outside the allow-list: ${outside.join(' ')}`,
    });
  }
  return scope;
}
