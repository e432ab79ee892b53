import type { RequestEmailChangeRequest } from '@authz/proto/identity/v1/account_recovery';
import {
  ConflictError,
  InvalidCredentialsError,
  UnauthorizedError,
  ValidationError,
  type FieldViolation,
} from '@authz/shared/errors';
import { EMAIL_CHANGE_JOB } from '@authz/shared/mail';
import { EMAIL_MESSAGE, emailKey, parseEmail } from '../accounts/email.js';
import type { AuditLog } from '../audit/audit-log.js';
import type { PasswordHasher } from '../passwords/password-hasher.js';
import type { AccountRecoveryStore } from './account-recovery-store.js';
import { newLinkToken, outboxMail, type AccountTokenDeps } from './account-token.js';

export interface RequestEmailChangeDeps extends AccountTokenDeps {
  recovery: Pick<AccountRecoveryStore, 'findPasswordCredential' | 'issueEmailChange'>;
  audit: AuditLog;
  hasher: PasswordHasher;
  verificationTokenTtlSeconds: number;
  onMailQueued(): void;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The generic 409 of interface.md 4.10 (docs/conventions.md #5): it names no account. */
function addressTaken(): never {
  throw new ConflictError({ message: 'Email change could not be completed', detail: 'address taken' });
}

/**
 * POST /auth/change-email (interface.md 4.10, docs/identity.md #18): the password is checked,
 * then a confirmation link goes to the new address; nothing changes until it is confirmed at
 * /ui/verify-email (VerifyEmail). The link lives VERIFICATION_TOKEN_TTL: it verifies an address.
 */
export async function requestEmailChange(
  deps: RequestEmailChangeDeps,
  request: RequestEmailChangeRequest,
): Promise<void> {
  const problems: FieldViolation[] = [];
  const newEmail = parseEmail(request.newEmail);
  if (!newEmail) {
    problems.push({ path: 'newEmail', message: request.newEmail.trim() ? EMAIL_MESSAGE : 'is required' });
  }
  if (request.password === '') problems.push({ path: 'password', message: 'is required' });
  if (!newEmail || problems.length > 0) throw new ValidationError(problems);
  if (!UUID.test(request.userId)) throw new UnauthorizedError({ detail: 'malformed user id' });
  const credential = await deps.recovery.findPasswordCredential(request.userId);
  const matches = await deps.hasher.verify(credential?.passwordHash, request.password);
  if (!credential || !matches) {
    await deps.audit.record({
      type: 'password_change_failure',
      actorUserId: credential ? request.userId : undefined,
      origin: request.origin,
      details: { emailChange: true },
    });
    throw new InvalidCredentialsError();
  }
  if (emailKey(newEmail) === emailKey(credential.email)) addressTaken();
  const { tokenHash, url } = newLinkToken(deps, '/ui/verify-email');
  const stored = await deps.recovery.issueEmailChange(
    request.userId,
    {
      tokenHash,
      newEmail,
      expiresAt: new Date(Date.now() + deps.verificationTokenTtlSeconds * 1000),
      mail: outboxMail(deps, EMAIL_CHANGE_JOB, { to: newEmail, confirmUrl: url }),
    },
    { origin: request.origin },
  );
  if (!stored) addressTaken();
  deps.onMailQueued();
}
