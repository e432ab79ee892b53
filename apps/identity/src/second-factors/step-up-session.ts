import type { StepUpSessionRequest } from '@authz/proto/identity/v1/identity';
import { InvalidCodeError, ValidationError } from '@authz/shared/errors';
import { getBrowserSession, type GetBrowserSessionDeps } from '../sessions/get-browser-session.js';
import type { OpenSignInSessionDeps } from '../sessions/open-sign-in-session.js';
import type { SessionStore } from '../sessions/session-store.js';
import { checkSecondStepBudget, countSecondStepFailure, type MfaChallengeDeps } from './mfa-challenge.js';
import { useSecondFactorCode, type UseSecondFactorCodeDeps } from './use-second-factor-code.js';

export interface StepUpSessionDeps
  extends
    Omit<GetBrowserSessionDeps, 'sessions'>,
    Pick<OpenSignInSessionDeps, 'audit'>,
    MfaChallengeDeps,
    UseSecondFactorCodeDeps {
  sessions: Pick<SessionStore, 'findByTokenHash' | 'touch' | 'reauthenticate'>;
}

/**
 * docs/strong-authentication.md #14: a signed-in user whose session is weaker than an
 * authorization asks (acr_values) proves the second factor; the session then carries the
 * methods of both steps, and its auth_time becomes now, this being a real authentication
 * (OIDC Core 2 auth_time). Same per-account budget and audit as the sign-in's second step.
 */
export async function stepUpSession(
  deps: StepUpSessionDeps,
  request: StepUpSessionRequest,
): Promise<string[]> {
  const { session } = await getBrowserSession(deps, request.sessionToken);
  if (request.code.trim() === '') throw new ValidationError([{ path: 'code', message: 'is required' }]);
  const { userId } = session;
  await checkSecondStepBudget(deps, userId);
  const method = await useSecondFactorCode(deps, userId, request.code);
  if (method === undefined) {
    await countSecondStepFailure(deps, userId);
    await deps.audit.record({
      type: 'second_factor_failure',
      actorUserId: userId,
      origin: request.origin,
      details: { stepUp: true },
    });
    throw new InvalidCodeError();
  }
  if (method === 'recovery_code') {
    await deps.audit.record({ type: 'recovery_code_used', actorUserId: userId, origin: request.origin });
  }
  const amr = [...new Set([...session.amr, 'otp', 'mfa'])];
  const authTime = new Date(Math.floor(Date.now() / 1000) * 1000);
  await deps.sessions.reauthenticate(session.id, amr, authTime);
  await deps.audit.record({
    type: 'session_stepped_up',
    actorUserId: userId,
    origin: request.origin,
    details: { amr, secondFactor: method },
  });
  return amr;
}
