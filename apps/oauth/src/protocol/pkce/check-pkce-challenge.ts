import { InvalidRequestError } from '@authz/shared/errors';
import type { TokenParameters } from '../token/token-parameters.js';

// RFC 7636 section 4.2: BASE64URL(SHA256(verifier)) is 43 base64url characters, no padding.
const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

/**
 * RFC 7636 section 4.3 with OAuth 2.1 section 4.1.1 and interface.md 1.3: PKCE is required for every
 * client and S256 is the only method, so an absent method (which means plain) is refused too.
 * Returns the code_challenge.
 */
export function checkPkceChallenge(values: TokenParameters): string {
  const challenge = values.get('code_challenge');
  if (challenge === undefined) throw new InvalidRequestError({ message: 'code_challenge is required' });
  if (values.get('code_challenge_method') !== 'S256') {
    throw new InvalidRequestError({ message: 'code_challenge_method must be S256' });
  }
  if (!S256_CHALLENGE.test(challenge)) {
    throw new InvalidRequestError({ message: 'code_challenge must be 43 base64url characters' });
  }
  return challenge;
}
