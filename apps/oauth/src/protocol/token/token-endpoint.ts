import {
  InvalidRequestError,
  UnauthorizedClientError,
  UnsupportedGrantTypeError,
} from '@authz/shared/errors';
import type { AuthenticatedClient } from '../client-authentication/authenticated-client.js';
import { authenticateClient } from '../client-authentication/client-authentication.js';
import { checkProofRequired, checkTokenRequestProof } from '../dpop/check-token-request-proof.js';
import { grants, type Grant } from '../grants/index.js';
import type { Registry } from '../../registry.js';
import { readTokenParameters, type TokenParameters } from './token-parameters.js';
import type { TokenRequest } from './token-request.js';
import type { TokenSet } from './token-set.js';

/** interface.md 4.3 POST /oauth/token: an ordered list of checks, then the grant's handler. */
export async function handleTokenRequest(deps: Registry, request: TokenRequest): Promise<TokenSet> {
  const parameters = readTokenParameters(request.parameters);
  const grant = selectGrant(deps, parameters);
  // RFC 9449 section 8: the proof and its nonce before anything is spent, so the retry after
  // use_dpop_nonce finds its code, refresh token and client assertion unused.
  const dpop = await checkTokenRequestProof(deps, request.dpop);
  const client = await authenticateClient(deps, {
    parameters,
    basic: request.basic,
    grantType: grant.grantType,
    sharedSecretOnly: false,
  });
  checkGrantAllowed(client, grant);
  checkProofRequired(client, dpop);
  return grant.handle(deps, {
    client,
    parameters: parameters.pick(grant.parameters),
    origin: request.origin,
    ...(dpop ? { dpop } : {}),
  });
}

// RFC 6749 section 5.2: a missing grant_type is invalid_request, an unknown one (or one whose
// feature is off, interface.md 4.3) unsupported_grant_type.
function selectGrant(deps: Registry, parameters: TokenParameters): Grant {
  const grantType = parameters.get('grant_type');
  if (!grantType) throw new InvalidRequestError({ message: 'grant_type is required' });
  const grant = grants.get(grantType);
  if (!grant || !(grant.enabled?.(deps) ?? true))
    throw new UnsupportedGrantTypeError({ detail: `grant_type ${grantType}` });
  return grant;
}

// RFC 6749 section 5.2: unauthorized_client (interface.md 7: grant not in client grant types).
function checkGrantAllowed(client: AuthenticatedClient, grant: Grant): void {
  if (!client.grantTypes.includes(grant.grantType)) {
    throw new UnauthorizedClientError({ message: `The client may not use ${grant.grantType}` });
  }
}
