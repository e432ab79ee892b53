import { mintAccessToken } from '../access-token/access-token.js';
import { checkClientScope } from '../scope/check-client-scope.js';
import { checkResource } from '../resource/check-resource.js';
import { checkSelfRegisteredResource } from '../resource/check-self-registered-resource.js';
import type { Registry } from '../../registry.js';
import { formatScope } from '../scope/scope.js';
import { tokenTypeOf } from '../dpop/dpop-binding.js';
import type { TokenSet } from '../token/token-set.js';
import type { GrantRequest } from './grant.js';

/**
 * RFC 6749 section 4.4 (interface.md 2.5, 4.3): the client acts for itself. sub is its client_id, no
 * user claims, no refresh token (RFC 6749 section 4.4.3). Only a client a developer owns names a
 * resource (docs/decisions.md #9).
 */
export const grantType = 'client_credentials';
export const parameters = ['scope', 'resource'] as const;

export async function handle(
  deps: Pick<Registry, 'keys' | 'config'>,
  { client, parameters, dpop }: GrantRequest,
): Promise<TokenSet> {
  const scope = checkClientScope(client, parameters.get('scope'));
  checkSelfRegisteredResource(client, parameters.getAll('resource'));
  const audience = checkResource(client, parameters.getAll('resource'));
  const accessToken = await mintAccessToken(deps, {
    sub: client.clientId,
    clientId: client.clientId,
    audience,
    scope,
    ...(dpop ? { dpopJkt: dpop.jkt } : {}),
  });
  return {
    accessToken: accessToken.token,
    expiresIn: accessToken.expiresIn,
    tokenType: tokenTypeOf(dpop),
    ...(scope.length > 0 ? { scope: formatScope(scope) } : {}),
  };
}
