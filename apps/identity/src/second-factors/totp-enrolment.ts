import type {
  BeginTotpEnrolmentRequest,
  ConfirmTotpEnrolmentRequest,
  RemoveTotpRequest,
} from '@authz/proto/identity/v1/second_factors';
import { ConflictError, InvalidCodeError, ValidationError } from '@authz/shared/errors';
import { SECOND_FACTOR_CHANGED_JOB } from '@authz/shared/mail';
import type { AccountStore } from '../accounts/account-store.js';
import { outboxMail } from '../recovery/account-token.js';
import { checkAccountPassword, type CheckAccountPasswordDeps } from './check-account-password.js';
import { newRecoveryCodes, recoveryCodeHash } from './recovery-codes.js';
import type { SecondFactorStore } from './second-factor-store.js';
import { matchingTotpStep, newTotpSecret, openTotpSecret, otpauthUri, sealTotpSecret } from './totp.js';

export interface TotpEnrolmentDeps extends CheckAccountPasswordDeps {
  accounts: Pick<AccountStore, 'findById'>;
  secondFactors: SecondFactorStore;
  keyEncryptionKey: Buffer;
  secretHashKey: Buffer;
  outboxKey: Buffer;
  issuer: string;
  onMailQueued(): void;
}

/**
 * POST /auth/mfa/totp (docs/strong-authentication.md #2): after the password, a new secret,
 * pending until one code confirms it; a second call replaces a pending secret. An account
 * with a confirmed authenticator app gets ConflictError: removing it comes first.
 */
export async function beginTotpEnrolment(
  deps: TotpEnrolmentDeps,
  request: BeginTotpEnrolmentRequest,
): Promise<{ secret: string; otpauthUri: string }> {
  const email = await checkAccountPassword(deps, request);
  const secret = newTotpSecret();
  const saved = await deps.secondFactors.savePendingTotp(
    request.userId,
    sealTotpSecret(deps.keyEncryptionKey, request.userId, secret),
  );
  if (!saved) throw new ConflictError({ message: 'An authenticator app is already enrolled' });
  return { secret, otpauthUri: otpauthUri(secret, deps.issuer, email) };
}

/**
 * POST /auth/mfa/totp/confirm (docs/strong-authentication.md #2, #4): one valid code confirms
 * the pending secret (its step counts as used) and ten recovery codes are made, answered once
 * and stored as keyed hashes. A notice mail and an audit event follow.
 */
export async function confirmTotpEnrolment(
  deps: TotpEnrolmentDeps,
  request: ConfirmTotpEnrolmentRequest,
): Promise<string[]> {
  if (request.code.trim() === '') throw new ValidationError([{ path: 'code', message: 'is required' }]);
  const [totp, user] = await Promise.all([
    deps.secondFactors.findTotp(request.userId),
    deps.accounts.findById(request.userId),
  ]);
  const step =
    totp && !totp.confirmed && user
      ? matchingTotpStep(
          openTotpSecret(deps.keyEncryptionKey, request.userId, totp.secretEncrypted),
          request.code.trim(),
          Date.now(),
        )
      : undefined;
  if (step === undefined || !user) {
    await deps.audit.record({
      type: 'second_factor_failure',
      actorUserId: request.userId,
      origin: request.origin,
      details: { enrolment: true },
    });
    throw new InvalidCodeError();
  }
  const codes = newRecoveryCodes();
  const confirmed = await deps.secondFactors.confirmTotp(
    request.userId,
    step,
    codes.map((code) => recoveryCodeHash(deps.secretHashKey, request.userId, code)),
    outboxMail(deps, SECOND_FACTOR_CHANGED_JOB, {
      to: user.email,
      factor: 'authenticator_app',
      change: 'added',
    }),
  );
  if (!confirmed) throw new InvalidCodeError({ detail: 'enrolment confirmed concurrently' });
  deps.onMailQueued();
  await deps.audit.record({ type: 'totp_enrolled', actorUserId: request.userId, origin: request.origin });
  return codes;
}

/** DELETE /auth/mfa/totp (docs/strong-authentication.md #9): the password, then the app and its recovery codes go. */
export async function removeTotp(deps: TotpEnrolmentDeps, request: RemoveTotpRequest): Promise<void> {
  const email = await checkAccountPassword(deps, request);
  const removed = await deps.secondFactors.removeTotp(
    request.userId,
    outboxMail(deps, SECOND_FACTOR_CHANGED_JOB, {
      to: email,
      factor: 'authenticator_app',
      change: 'removed',
    }),
  );
  if (!removed) return;
  deps.onMailQueued();
  await deps.audit.record({ type: 'totp_removed', actorUserId: request.userId, origin: request.origin });
}

/** GET /auth/mfa: what the account has (docs/strong-authentication.md #10). */
export async function getSecondFactors(
  deps: Pick<TotpEnrolmentDeps, 'secondFactors'>,
  userId: string,
): Promise<{ totp: boolean; recoveryCodesLeft: number }> {
  const [totp, recoveryCodesLeft] = await Promise.all([
    deps.secondFactors.findTotp(userId),
    deps.secondFactors.recoveryCodesLeft(userId),
  ]);
  return { totp: totp?.confirmed === true, recoveryCodesLeft };
}
