import type { CompleteSecondFactorRequest } from '@authz/proto/identity/v1/identity';
import { InvalidCodeError, InvalidTokenError, ValidationError } from '@authz/shared/errors';
import type { AccountStore } from '../accounts/account-store.js';
import {
  openSignInSession,
  type OpenSignInSessionDeps,
  type SignIn,
} from '../sessions/open-sign-in-session.js';
import {
  checkSecondStepBudget,
  closeMfaChallenge,
  countSecondStepFailure,
  findMfaChallenge,
  type MfaChallengeDeps,
} from './mfa-challenge.js';
import { useSecondFactorCode, type UseSecondFactorCodeDeps } from './use-second-factor-code.js';

export interface CompleteSecondFactorDeps
  extends OpenSignInSessionDeps, MfaChallengeDeps, UseSecondFactorCodeDeps {
  accounts: Pick<AccountStore, 'findById'>;
}

/** RFC 8176: both an authenticator-app code and a recovery code are one-time passwords. */
export const SECOND_STEP_AMR = ['pwd', 'otp', 'mfa'];

/**
 * POST /auth/login/mfa and the hosted second step (docs/strong-authentication.md #6, #7): the
 * mfa_token names the account whose password was right; a good code opens the session through
 * the same path as any sign-in. Wrong codes are counted per account and audited; the token
 * stays usable until it expires, is used, or the account's budget runs out.
 */
export async function completeSecondFactor(
  deps: CompleteSecondFactorDeps,
  request: CompleteSecondFactorRequest,
): Promise<SignIn> {
  if (request.code.trim() === '') throw new ValidationError([{ path: 'code', message: 'is required' }]);
  const challenge = await findMfaChallenge(deps, request.mfaToken);
  if (!challenge) throw new InvalidTokenError();
  const { userId } = challenge;
  await checkSecondStepBudget(deps, userId);
  const method = await useSecondFactorCode(deps, userId, request.code);
  if (method === undefined) {
    await countSecondStepFailure(deps, userId);
    await deps.audit.record({ type: 'second_factor_failure', actorUserId: userId, origin: request.origin });
    throw new InvalidCodeError();
  }
  if (method === 'recovery_code') {
    await deps.audit.record({ type: 'recovery_code_used', actorUserId: userId, origin: request.origin });
  }
  if (!(await closeMfaChallenge(deps, request.mfaToken))) throw new InvalidTokenError();
  const user = await deps.accounts.findById(userId);
  if (!user || user.deletingAt !== null) throw new InvalidTokenError({ detail: 'account gone' });
  return openSignInSession(deps, {
    user,
    amr: SECOND_STEP_AMR,
    browserSession: challenge.browserSession,
    origin: request.origin,
    auditDetails: { secondFactor: method },
  });
}
