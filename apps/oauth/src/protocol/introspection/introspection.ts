import { InvalidRequestError } from '@authz/shared/errors';
import type { AuthenticatedClient } from '../client-authentication/authenticated-client.js';
import { authenticateClient } from '../client-authentication/client-authentication.js';
import { introspectAccessToken } from './introspect-access-token.js';
import { introspectRefreshToken } from './introspect-refresh-token.js';
import { INACTIVE, type IntrospectedToken, type Introspection } from './introspection-result.js';
import type { Registry } from '../../registry.js';
import { readTokenParameters } from '../token/token-parameters.js';
import type { TokenManagementRequest } from '../token/token-request.js';
import { tokenKindsToTry, type TokenKind } from '../token/token-type-hint.js';

type Introspect = (
  deps: Registry,
  token: string,
  caller: AuthenticatedClient,
) => Promise<IntrospectedToken | undefined>;

const introspectors: Record<TokenKind, Introspect> = {
  access_token: introspectAccessToken,
  refresh_token: introspectRefreshToken,
};

/**
 * interface.md 4.3 POST /oauth/introspect (RFC 7662): an ordered list of checks, then the token looked
 * up as each kind in turn. Only confidential clients may ask (interface.md 5: shared secrets only);
 * whatever is not active for the caller is `{ active: false }`, with no reason given.
 */
export async function introspect(deps: Registry, request: TokenManagementRequest): Promise<Introspection> {
  const parameters = readTokenParameters(request.parameters);
  const caller = await authenticateClient(deps, {
    parameters,
    basic: request.basic,
    grantType: '',
    sharedSecretOnly: true,
  });
  // RFC 7662 section 2.1: token is REQUIRED.
  const token = parameters.get('token');
  if (token === undefined) throw new InvalidRequestError({ message: 'token is required' });
  for (const kind of tokenKindsToTry(parameters.get('token_type_hint'))) {
    const found = await introspectors[kind](deps, token, caller);
    if (found) return { active: true, token: found };
  }
  return INACTIVE;
}
