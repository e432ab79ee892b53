import type { AuthenticatedClient } from '../client-authentication/authenticated-client.js';
import type { DpopBinding } from '../dpop/dpop-binding.js';
import type { RequestOrigin } from '../identity-port.js';
import type { Registry } from '../../registry.js';
import type { TokenParameters } from '../token/token-parameters.js';
import type { TokenSet } from '../token/token-set.js';

export interface GrantRequest {
  client: AuthenticatedClient;
  /** Only the parameters the grant declared. */
  parameters: TokenParameters;
  origin: RequestOrigin;
  /** The key of the request's DPoP proof: access tokens issued are bound to it (RFC 9449 section 5). */
  dpop?: DpopBinding;
}

/** A grant module (docs/conventions.md #3). */
export interface Grant {
  grantType: string;
  parameters: readonly string[];
  /** A feature-gated grant (interface.md 4.3, 4.4): absent means always on. */
  enabled?(deps: Registry): boolean;
  handle(deps: Registry, request: GrantRequest): Promise<TokenSet>;
}
