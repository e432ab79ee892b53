import type { RequestOrigin } from '@authz/proto/identity/v1/identity';
import { keyedHash } from '@authz/shared/crypto';
import { InvalidTokenError, ValidationError } from '@authz/shared/errors';
import type { VerificationStore } from './verification-store.js';

export interface VerifyEmailDeps {
  verifications: Pick<VerificationStore, 'consume'>;
  secretHashKey: Buffer;
}

const TOKEN_PATTERN = /^[0-9a-f]{64}$/i;

/**
 * interface.md 4.2 GET /auth/verify, docs/decisions.md #5: malformed → validation error; unknown, expired
 * or used → InvalidTokenError. Consuming is one conditional UPDATE, so of two concurrent
 * uses exactly one wins.
 */
export async function verifyEmail(
  deps: VerifyEmailDeps,
  token: string,
  origin: RequestOrigin | undefined,
): Promise<string> {
  if (!TOKEN_PATTERN.test(token)) {
    throw new ValidationError([{ path: 'token', message: 'must be 64 hexadecimal characters' }]);
  }
  const tokenHash = keyedHash(deps.secretHashKey, token.toLowerCase());
  const email = await deps.verifications.consume(tokenHash, { type: 'email_verification', origin });
  if (email === undefined) throw new InvalidTokenError();
  return email;
}
