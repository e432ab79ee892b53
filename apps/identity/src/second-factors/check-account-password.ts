import type { RequestOrigin } from '@authz/proto/identity/v1/identity';
import { InvalidCredentialsError, ValidationError } from '@authz/shared/errors';
import type { AuditLog } from '../audit/audit-log.js';
import type { PasswordHasher } from '../passwords/password-hasher.js';
import type { AccountRecoveryStore } from '../recovery/account-recovery-store.js';

export interface CheckAccountPasswordDeps {
  recovery: Pick<AccountRecoveryStore, 'findPasswordCredential'>;
  hasher: PasswordHasher;
  audit: AuditLog;
}

/**
 * Adding or removing a factor needs the password again (docs/strong-authentication.md #9), so a
 * stolen access token alone cannot change how the account signs in. A wrong password is
 * InvalidCredentialsError, audited; the same argon2id cost either way (docs/decisions.md #4).
 * Answers the account's address, for the notice mail.
 */
export async function checkAccountPassword(
  deps: CheckAccountPasswordDeps,
  input: { userId: string; password: string; origin?: RequestOrigin | undefined },
): Promise<string> {
  if (input.password === '') throw new ValidationError([{ path: 'password', message: 'is required' }]);
  const credential = await deps.recovery.findPasswordCredential(input.userId);
  const matches = await deps.hasher.verify(credential?.passwordHash, input.password);
  if (!credential || !matches) {
    await deps.audit.record({
      type: 'second_factor_password_failure',
      actorUserId: credential ? input.userId : undefined,
      origin: input.origin,
    });
    throw new InvalidCredentialsError();
  }
  return credential.email;
}
