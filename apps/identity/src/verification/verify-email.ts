import type { RequestOrigin } from '@authz/proto/identity/v1/identity';
import { keyedHash } from '@authz/shared/crypto';
import { ConflictError, InvalidTokenError, ValidationError } from '@authz/shared/errors';
import { EMAIL_CHANGED_JOB } from '@authz/shared/mail';
import type { AccountRecoveryStore } from '../recovery/account-recovery-store.js';
import { outboxMail } from '../recovery/account-token.js';
import type { VerificationStore } from './verification-store.js';

export interface VerifyEmailDeps {
  verifications: Pick<VerificationStore, 'consume'>;
  recovery: Pick<AccountRecoveryStore, 'confirmEmailChange'>;
  secretHashKey: Buffer;
  outboxKey: Buffer;
  onMailQueued(): void;
}

const TOKEN_PATTERN = /^[0-9a-f]{64}$/i;

/**
 * interface.md 4.2 GET /auth/verify, docs/decisions.md #5: malformed → validation error; unknown, expired
 * or used → InvalidTokenError. Consuming is one conditional UPDATE, so of two concurrent
 * uses exactly one wins. The same link page confirms an email change (interface.md 4.10,
 * docs/identity.md #18): a token that is no sign-up verification is tried as one; the answer
 * is then the new address.
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
  const verified = await deps.verifications.consume(tokenHash, { type: 'email_verification', origin });
  if (verified !== undefined) return verified.email;
  const change = await deps.recovery.confirmEmailChange(
    tokenHash,
    (oldEmail) => outboxMail(deps, EMAIL_CHANGED_JOB, { to: oldEmail }),
    { origin },
  );
  if (change.outcome === 'taken') {
    throw new ConflictError({ message: 'Email change could not be completed', detail: 'address taken' });
  }
  if (change.outcome === 'invalid') throw new InvalidTokenError();
  deps.onMailQueued();
  return change.email;
}
