import type { RequestOrigin } from '@authz/proto/identity/v1/identity';
import { RateLimitedError, ValidationError } from '@authz/shared/errors';
import type { Logger } from '@authz/shared/logger';
import { PASSWORD_RESET_JOB } from '@authz/shared/mail';
import type { Redis } from 'ioredis';
import { EMAIL_MESSAGE, emailKey, parseEmail } from '../accounts/email.js';
import { takeResendSlot, type ResendLimits } from '../verification/resend-limits.js';
import type { AccountRecoveryStore } from './account-recovery-store.js';
import { newLinkToken, outboxMail, type AccountTokenDeps } from './account-token.js';

export interface RequestPasswordResetDeps extends AccountTokenDeps {
  recovery: Pick<AccountRecoveryStore, 'issuePasswordReset'>;
  redis: Redis;
  resendLimits: ResendLimits;
  passwordResetTokenTtlSeconds: number;
  log: Logger;
  onMailQueued(): void;
}

/**
 * POST /auth/forgot-password (interface.md 4.10, docs/identity.md #18): the same answer, 429
 * and work shape for known and unknown addresses (the limit check, then one transaction locking
 * the user row; only a real reset's inserts differ), as resend-verification does
 * (docs/identity.md #6). Its own counters, under the RESEND_VERIFICATION_* values.
 */
export async function requestPasswordReset(
  deps: RequestPasswordResetDeps,
  rawEmail: string,
  origin: RequestOrigin | undefined,
): Promise<void> {
  const email = parseEmail(rawEmail);
  if (!email)
    throw new ValidationError([{ path: 'email', message: rawEmail.trim() ? EMAIL_MESSAGE : 'is required' }]);
  const key = emailKey(email);
  const wait = await takeResendSlot({ ...deps, limits: deps.resendLimits }, `password-reset:${key}`);
  if (wait > 0) throw new RateLimitedError({ attributes: { retryAfterSeconds: String(wait) } });
  await issuePasswordResetMail(deps, key, origin);
}

/**
 * The reset link and its mail for the account of `emailLower` (nothing for an unknown one),
 * without the per-address limits: the forgot-password path after them, and the operator's
 * forced reset (docs/admin-api.md #5).
 */
export async function issuePasswordResetMail(
  deps: Omit<RequestPasswordResetDeps, 'redis' | 'resendLimits' | 'log'>,
  emailLower: string,
  origin: RequestOrigin | undefined,
): Promise<boolean> {
  const queued = await deps.recovery.issuePasswordReset(
    emailLower,
    (user) => {
      const { tokenHash, url } = newLinkToken(deps, '/ui/reset-password');
      return {
        tokenHash,
        expiresAt: new Date(Date.now() + deps.passwordResetTokenTtlSeconds * 1000),
        mail: outboxMail(deps, PASSWORD_RESET_JOB, { to: user.email, resetUrl: url }),
      };
    },
    { origin },
  );
  if (queued) deps.onMailQueued();
  return queued;
}
