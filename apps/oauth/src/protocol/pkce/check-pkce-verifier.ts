import { createHash } from 'node:crypto';
import { constantTimeEqual } from '@authz/shared/crypto';
import { InvalidGrantError } from '@authz/shared/errors';

// RFC 7636 section 4.1: code-verifier = 43*128unreserved.
const CODE_VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;

/**
 * RFC 7636 section 4.6: BASE64URL(SHA256(code_verifier)) must equal the code_challenge
 * (compared in constant time). OAuth 2.1 section 4.1.3: the verifier is required; as the
 * code was bound to a challenge, its absence fails the binding like a wrong one (invalid_grant).
 */
export function checkPkceVerifier(verifier: string | undefined, challenge: string): void {
  if (verifier === undefined) throw new InvalidGrantError({ message: 'code_verifier is required' });
  if (!CODE_VERIFIER.test(verifier)) {
    throw new InvalidGrantError({ message: 'code_verifier must be 43 to 128 unreserved characters' });
  }
  const computed = createHash('sha256').update(verifier, 'ascii').digest('base64url');
  if (!constantTimeEqual(computed, challenge)) {
    throw new InvalidGrantError({ message: 'code_verifier does not match the code_challenge' });
  }
}
