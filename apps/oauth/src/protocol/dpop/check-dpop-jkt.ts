import { InvalidRequestError } from '@authz/shared/errors';
import type { TokenParameters } from '../token/token-parameters.js';

// RFC 7638 with SHA-256: 32 bytes, base64url without padding.
const THUMBPRINT = /^[A-Za-z0-9_-]{43}$/;

/**
 * RFC 9449 section 10: dpop_jkt binds the code to a DPoP key; the token request must then prove
 * that key (docs/par-and-dpop.md #10).
 */
export function checkDpopJkt(values: TokenParameters): { dpopJkt?: string } {
  const dpopJkt = values.get('dpop_jkt');
  if (dpopJkt === undefined) return {};
  if (!THUMBPRINT.test(dpopJkt)) {
    throw new InvalidRequestError({ message: 'dpop_jkt must be a base64url SHA-256 JWK thumbprint' });
  }
  return { dpopJkt };
}
