import type { PresentedDpopProof } from '../dpop/dpop-binding.js';
import type { RequestOrigin } from '../identity-port.js';
import type { RawParameter } from './token-parameters.js';

/** RFC 6749 section 2.3.1: Basic credentials, already Base64- and form-decoded. */
export interface BasicCredentials {
  clientId: string;
  clientSecret: string;
}

/** A token endpoint request as posted (interface.md 4.3). */
export interface TokenRequest {
  parameters: readonly RawParameter[];
  basic?: BasicCredentials;
  origin: RequestOrigin;
  /** The DPoP header, when one was sent (RFC 9449 section 5). */
  dpop?: PresentedDpopProof;
}

/** An introspection or revocation request (RFC 7662, RFC 7009): posted the same way. */
export type TokenManagementRequest = TokenRequest;
