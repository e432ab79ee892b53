import { RateLimitedError, ValidationError } from '@authz/shared/errors';
import type { Logger } from '@authz/shared/logger';
import type { Redis } from 'ioredis';
import { EMAIL_MESSAGE, emailKey, parseEmail } from '../accounts/email.js';
import { newVerification, type IssueVerificationDeps } from './issue-verification.js';
import { takeResendSlot, type ResendLimits } from './resend-limits.js';
import type { VerificationStore } from './verification-store.js';

export interface ResendVerificationDeps extends IssueVerificationDeps {
  verifications: Pick<VerificationStore, 'reissue'>;
  redis: Redis;
  resendLimits: ResendLimits;
  log: Logger;
  /** Wakes the outbox relay once the new row is committed. */
  onMailQueued(): void;
}

/**
 * interface.md 4.2 POST /auth/resend-verification: the same answer for unknown, verified and
 * unverified addresses, with the same work shape (limit check, one transaction with a row
 * lock), so neither the body, the 429 nor the timing tells them apart.
 */
export async function resendVerification(deps: ResendVerificationDeps, rawEmail: string): Promise<void> {
  const email = parseEmail(rawEmail);
  if (!email) throw new ValidationError([{ path: 'email', message: EMAIL_MESSAGE }]);
  const key = emailKey(email);
  const wait = await takeResendSlot({ ...deps, limits: deps.resendLimits }, key);
  if (wait > 0) throw new RateLimitedError({ attributes: { retryAfterSeconds: String(wait) } });
  const queued = await deps.verifications.reissue(key, (user) => newVerification(deps, user.email));
  if (queued) deps.onMailQueued();
}
