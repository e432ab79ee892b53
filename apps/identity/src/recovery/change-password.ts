import type { ChangePasswordRequest } from '@authz/proto/identity/v1/account_recovery';
import {
  InvalidCredentialsError,
  UnauthorizedError,
  ValidationError,
  type FieldViolation,
} from '@authz/shared/errors';
import { PASSWORD_CHANGED_JOB } from '@authz/shared/mail';
import type { AuditLog } from '../audit/audit-log.js';
import type { PasswordHasher } from '../passwords/password-hasher.js';
import { passwordProblem } from '../passwords/password-policy.js';
import type { AccountRecoveryStore } from './account-recovery-store.js';
import { outboxMail, type AccountTokenDeps } from './account-token.js';

export interface ChangePasswordDeps extends Pick<AccountTokenDeps, 'outboxKey'> {
  recovery: Pick<AccountRecoveryStore, 'findPasswordCredential' | 'changePassword'>;
  audit: AuditLog;
  hasher: PasswordHasher;
  commonPasswords: ReadonlySet<string>;
  onMailQueued(): void;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * POST /auth/change-password (interface.md 4.10, docs/identity.md #18): the current password
 * is checked first (InvalidCredentialsError, audited), then the new one against the policy;
 * every session but the caller's ends with the change.
 */
export async function changePassword(
  deps: ChangePasswordDeps,
  request: ChangePasswordRequest,
): Promise<void> {
  const problems: FieldViolation[] = [];
  if (request.currentPassword === '') problems.push({ path: 'currentPassword', message: 'is required' });
  if (request.newPassword === '') problems.push({ path: 'newPassword', message: 'is required' });
  if (problems.length > 0) throw new ValidationError(problems);
  if (!UUID.test(request.userId) || !UUID.test(request.keepSessionId)) {
    throw new UnauthorizedError({ detail: 'malformed user or session id' });
  }
  const credential = await deps.recovery.findPasswordCredential(request.userId);
  // A dummy verify when there is no credential: the same cost either way (docs/decisions.md #4).
  const matches = await deps.hasher.verify(credential?.passwordHash, request.currentPassword);
  if (!credential || !matches) {
    await deps.audit.record({
      type: 'password_change_failure',
      actorUserId: credential ? request.userId : undefined,
      origin: request.origin,
    });
    throw new InvalidCredentialsError();
  }
  const problem = passwordProblem(request.newPassword, credential.email, deps.commonPasswords);
  if (problem) throw new ValidationError([{ path: 'newPassword', message: problem }]);
  await deps.recovery.changePassword(
    request.userId,
    request.keepSessionId,
    await deps.hasher.hash(request.newPassword),
    outboxMail(deps, PASSWORD_CHANGED_JOB, { to: credential.email }),
    { origin: request.origin },
  );
  deps.onMailQueued();
}
