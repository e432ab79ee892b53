import type { RequestOrigin } from '@authz/proto/identity/v1/identity';
import { ValidationError } from '@authz/shared/errors';
import { PASSWORD_CHANGED_JOB } from '@authz/shared/mail';
import type { PasswordHasher } from '../passwords/password-hasher.js';
import { passwordProblem } from '../passwords/password-policy.js';
import type { AccountRecoveryStore } from './account-recovery-store.js';
import { invalidToken, outboxMail, presentedTokenHash, type AccountTokenDeps } from './account-token.js';

export interface ResetPasswordDeps extends AccountTokenDeps {
  recovery: Pick<AccountRecoveryStore, 'findLive' | 'completePasswordReset'>;
  hasher: PasswordHasher;
  commonPasswords: ReadonlySet<string>;
  onMailQueued(): void;
}

/**
 * POST /auth/reset-password (interface.md 4.10, docs/identity.md #18). A malformed token or
 * a weak password is a validation error that leaves the token usable; an unknown, used or
 * expired token is InvalidTokenError. The use itself is one conditional update, so of two
 * concurrent resets with one link exactly one wins. Answers the account id: the caller revokes
 * its tokens at oauth (docs/tokens.md #31).
 */
export async function resetPassword(
  deps: ResetPasswordDeps,
  request: { token: string; password: string; origin: RequestOrigin | undefined },
): Promise<string> {
  const tokenHash = presentedTokenHash(deps, request.token);
  if (request.password === '') throw new ValidationError([{ path: 'password', message: 'is required' }]);
  const live = (await deps.recovery.findLive(tokenHash, 'password_reset')) ?? invalidToken();
  const problem = passwordProblem(request.password, live.email, deps.commonPasswords);
  if (problem) throw new ValidationError([{ path: 'password', message: problem }]);
  const passwordHash = await deps.hasher.hash(request.password);
  const userId = await deps.recovery.completePasswordReset(
    tokenHash,
    passwordHash,
    (user) => outboxMail(deps, PASSWORD_CHANGED_JOB, { to: user.email }),
    { origin: request.origin },
  );
  if (userId === undefined) invalidToken();
  deps.onMailQueued();
  return userId;
}
